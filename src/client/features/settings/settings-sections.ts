// Which cards /dashboard/settings shows for its `section` query parameter.

export const SETTINGS_SECTIONS = ['all', 'account', 'subscription', 'upgrade'] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

export type SettingsCard = 'account' | 'subscription' | 'security' | 'upgrade';

/** A missing or unknown value behaves as 'all', so an old or mistyped link still shows a page. */
export function parseSettingsSection(value: string | null): SettingsSection {
  return (SETTINGS_SECTIONS as readonly string[]).includes(value ?? '') ? (value as SettingsSection) : 'all';
}

/** The cards of a section, in page order; Security appears only on the full page. */
export function visibleSettingsCards(section: SettingsSection): readonly SettingsCard[] {
  switch (section) {
    case 'account':
      return ['account'];
    case 'subscription':
      return ['subscription'];
    case 'upgrade':
      return ['upgrade'];
    case 'all':
      return ['account', 'subscription', 'security', 'upgrade'];
  }
}

export function settingsSectionHref(section: SettingsSection): string {
  return `/dashboard/settings?section=${section}`;
}
