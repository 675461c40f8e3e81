import { useSiteSettings } from '@client/lib/site-settings';

/**
 * A small tag while any outside service is simulated, so a demo is never taken for a live shop.
 * It sits in the flow beside the brand name (see Brand), never floating over the page.
 */
export function SandboxMarker() {
  const { sandbox } = useSiteSettings();
  if (sandbox.length === 0) return null;
  return (
    <span
      className="inline-flex items-center rounded-md border border-yellow-500/40 bg-yellow-500/15 px-1.5 py-0.5 text-[10px] font-semibold uppercase leading-none tracking-wide text-yellow-300"
      title={`Simulated: ${sandbox.join(', ')}`}
      data-testid="sandbox-marker"
    >
      Sandbox
    </span>
  );
}
