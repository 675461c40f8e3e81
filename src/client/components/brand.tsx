import { cn } from '@client/lib/cn';
import { useSiteSettings } from '@client/lib/site-settings';
import { SandboxMarker } from './sandbox-marker';

/** The one brand mark (BRAND_LOGO_URL; by default the built-in mark that is also the favicon). */
export function BrandLogo({ className }: { className?: string }) {
  const { brandLogoUrl } = useSiteSettings();
  // Decorative: the brand name always stands beside it.
  return <img src={brandLogoUrl} alt="" width={32} height={32} data-testid="brand-logo" className={cn('h-8 w-8 shrink-0 rounded-lg object-contain', className)} />;
}

/**
 * Mark, brand name and, while sandboxes run, the Sandbox tag: the brand lockup of every page
 * header. `sandboxTag={false}` where the page already shows the tag (the landing footer).
 */
export function Brand({ className, sandboxTag = true }: { className?: string; sandboxTag?: boolean }) {
  const { brandName } = useSiteSettings();
  return (
    <span className={cn('inline-flex items-center gap-2 text-lg font-bold tracking-tight text-white', className)}>
      <BrandLogo />
      {brandName}
      {sandboxTag ? <SandboxMarker /> : null}
    </span>
  );
}
