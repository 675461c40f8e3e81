// The static legal pages, which the server also sends pre-rendered (docs/decisions/020).

/** The static pages every footer links to; each accepts from=eu. */
export const LEGAL_LINKS = [
  { label: 'Disclaimer', path: '/disclaimer' },
  { label: 'Terms of Service', path: '/terms-of-service' },
  { label: 'Privacy Policy', path: '/privacy-policy' },
  { label: 'Contact', path: '/contact' },
] as const;

export type LegalPath = (typeof LEGAL_LINKS)[number]['path'];

/** The legal page at `pathname`, or null for any other page. */
export function legalPage(pathname: string): (typeof LEGAL_LINKS)[number] | null {
  return LEGAL_LINKS.find((link) => link.path === pathname) ?? null;
}

/** The document title of a legal page. */
export const legalPageTitle = (title: string, brandName: string) => `${title} – ${brandName}`;
