import { useSiteSettings } from '@client/lib/site-settings';

/** A small, always-visible tag while any outside service is simulated, so a demo is never taken for a live shop. */
export function SandboxMarker() {
  const { sandbox } = useSiteSettings();
  if (sandbox.length === 0) return null;
  return (
    <div
      className="pointer-events-none fixed bottom-3 left-3 z-[60] rounded-md border border-yellow-500/40 bg-yellow-500/15 px-2 py-0.5 text-[11px] font-semibold uppercase tracking-wide text-yellow-300"
      title={`Simulated: ${sandbox.join(', ')}`}
      data-testid="sandbox-marker"
    >
      Sandbox
    </div>
  );
}
