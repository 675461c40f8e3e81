/** The static pages every footer links to (spec §2); each accepts from=eu. */
export const LEGAL_LINKS = [
  { label: 'Disclaimer', path: '/disclaimer' },
  { label: 'Terms of Service', path: '/terms-of-service' },
  { label: 'Privacy Policy', path: '/privacy-policy' },
  { label: 'Contact', path: '/contact' },
] as const;
