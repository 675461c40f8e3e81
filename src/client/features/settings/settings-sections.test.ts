import { describe, expect, it } from 'vitest';
import { parseSettingsSection, settingsSectionHref, visibleSettingsCards } from './settings-sections';

describe('settings sections', () => {
  it.each([
    ['account', 'account'],
    ['subscription', 'subscription'],
    ['upgrade', 'upgrade'],
    ['all', 'all'],
    [null, 'all'],
    ['', 'all'],
    ['ACCOUNT', 'all'],
    ['security', 'all'],
  ] as const)('section=%s is %s', (value, expected) => {
    expect(parseSettingsSection(value)).toBe(expected);
  });

  it('shows Security only on the full page', () => {
    expect(visibleSettingsCards('all')).toEqual(['account', 'subscription', 'security', 'upgrade']);
    for (const section of ['account', 'subscription', 'upgrade'] as const) {
      expect(visibleSettingsCards(section)).toEqual([section]);
    }
  });

  it('links to a section', () => {
    expect(settingsSectionHref('upgrade')).toBe('/dashboard/settings?section=upgrade');
  });
});
