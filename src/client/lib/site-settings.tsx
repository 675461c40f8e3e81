import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { setActiveCatalogue } from '@shared/catalogue';
import type { SiteSettings } from '@shared/site';
import { api } from './api/api-client';

/** The server inlines the settings into index.html; the dev server does not, so fetch them there. */
function readInlineSettings(): SiteSettings | null {
  const element = document.getElementById('site-settings');
  if (!element?.textContent) return null;
  return JSON.parse(element.textContent) as SiteSettings;
}

const SiteSettingsContext = createContext<SiteSettings | null>(null);

export function SiteSettingsProvider({ children, initial }: { children: ReactNode; initial?: SiteSettings }) {
  const [settings, setSettings] = useState<SiteSettings | null>(() => initial ?? readInlineSettings());
  useEffect(() => {
    if (!settings) void api<SiteSettings>('/api/site').then(setSettings);
  }, [settings]);
  if (!settings) return null;
  // the plan rules (plans.ts) answer from the shop's catalogue; the seed's without one
  setActiveCatalogue(settings.catalogue ?? null);
  return <SiteSettingsContext.Provider value={settings}>{children}</SiteSettingsContext.Provider>;
}

export function useSiteSettings(): SiteSettings {
  const settings = useContext(SiteSettingsContext);
  if (!settings) throw new Error('useSiteSettings needs <SiteSettingsProvider>');
  return settings;
}
