import { useSiteSettings } from '@client/lib/site-settings';
import { SandboxMarker } from './sandbox-marker';

/** The one brand mark (BRAND_LOGO_URL; by default the built-in mark that is also the favicon). */
export function BrandLogo() {
  const { brandLogoUrl } = useSiteSettings();
  // Decorative: the brand name always stands beside it.
  return <img src={brandLogoUrl} alt="" width={32} height={32} data-testid="brand-logo" className="h-8 w-8 shrink-0 rounded-lg object-contain" />;
}

/**
 * Mark, brand name and, while sandboxes run, the Sandbox tag: the brand lockup of every page
 * header. `sandboxTag={false}` where the page already shows the tag (the landing footer).
 * No class merging here: the landing page's first download has no room for tailwind-merge.
 */
export function Brand({ sandboxTag = true }: { sandboxTag?: boolean }) {
  const { brandName } = useSiteSettings();
  return (
    <span className="inline-flex items-center gap-2 text-lg font-bold tracking-tight text-white">
      <BrandLogo />
      {brandName}
      {sandboxTag ? <SandboxMarker /> : null}
    </span>
  );
}
