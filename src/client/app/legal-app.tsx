import type { ComponentType } from 'react';
import { legalPage, type LegalPath } from '@shared/legal-pages';
import type { SiteSettings } from '@shared/site';
import { ContactPage } from '@client/features/legal/contact-page';
import { DisclaimerPage } from '@client/features/legal/disclaimer-page';
import { PrivacyPage } from '@client/features/legal/privacy-page';
import { TermsPage } from '@client/features/legal/terms-page';
import { WindowNavProvider, type PageLocation } from '@client/lib/page-nav';
import { SiteSettingsProvider } from '@client/lib/site-settings';

const PAGES: Record<LegalPath, ComponentType> = {
  '/disclaimer': DisclaimerPage,
  '/terms-of-service': TermsPage,
  '/privacy-policy': PrivacyPage,
  '/contact': ContactPage,
};

/**
 * A legal page without React Router: the tree the server pre-renders (prerender.tsx) and the
 * browser hydrates (legal-main.tsx). Links to other pages are full page loads, each pre-rendered.
 * The pages show nothing that depends on who is signed in, so everyone gets the same HTML.
 */
export function LegalApp({ settings, at }: { settings?: SiteSettings; at?: PageLocation }) {
  const page = legalPage((at ?? window.location).pathname);
  if (!page) throw new Error('the legal entry was loaded on a page that is not a legal page');
  const Page = PAGES[page.path];
  return (
    <SiteSettingsProvider initial={settings}>
      <WindowNavProvider at={at}>
        <Page />
      </WindowNavProvider>
    </SiteSettingsProvider>
  );
}
