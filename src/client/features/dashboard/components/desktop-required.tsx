import { ChevronDown, Mail, Monitor } from 'lucide-react';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@client/components/ui/collapsible';
import { DashboardDeliveryNotice } from '@client/components/tradingview-delivery';
import { useSiteSettings } from '@client/lib/site-settings';
import { JoinDiscordButton } from './join-discord-button';

/** What a member sees under 768 px: the dashboard is desktop only, but activation help is not. */
export function DesktopRequired() {
  const { supportEmail, brandName } = useSiteSettings();
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-5 py-10">
      <div className="w-full max-w-md">
        <div className="text-center">
          <span className="mx-auto flex h-14 w-14 items-center justify-center rounded-2xl bg-primary/15 text-primary">
            <Monitor aria-hidden="true" className="h-7 w-7" />
          </span>
          <h1 className="mt-5 text-2xl font-bold tracking-tight text-white">Desktop Required</h1>
          <p className="mt-3 text-sm leading-6 text-muted">
            The {brandName} member dashboard is built for larger screens. Please open it on a computer to read the guides and
            strategies. In the meantime, join our Discord community.
          </p>
          <JoinDiscordButton className="mt-6 w-full" />
        </div>

        <DashboardDeliveryNotice className="mt-6 text-left" settingsReachable={false} />

        <Collapsible className="mt-6 rounded-2xl border border-border bg-card">
          <CollapsibleTrigger className="group flex w-full items-center justify-between gap-3 px-5 py-4 text-left text-sm font-semibold text-white">
            How to Activate Your Indicators
            <ChevronDown aria-hidden="true" className="h-4 w-4 shrink-0 text-muted transition-transform group-data-[state=open]:rotate-180" />
          </CollapsibleTrigger>
          <CollapsibleContent className="border-t border-border px-5 pb-5 pt-4 text-sm leading-6 text-muted">
            <p>
              Access to your indicators usually takes just a few minutes after purchase. If you have not received access within a few
              hours, please contact support.
            </p>
            <ol className="mt-4 space-y-3">
              {[
                'Open a chart on TradingView.',
                'Click the Indicators menu at the top of the chart.',
                'Choose Invite-only scripts.',
                `Select the ${brandName} indicators to add them to your chart.`,
              ].map((step, index) => (
                <li key={step} className="flex gap-3">
                  <span className="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-primary/15 text-xs font-bold text-primary">
                    {index + 1}
                  </span>
                  <span className="pt-0.5 text-foreground">{step}</span>
                </li>
              ))}
            </ol>
            <a href={`mailto:${supportEmail}`} className="mt-5 inline-flex items-center gap-2 text-primary hover:underline">
              <Mail aria-hidden="true" className="h-4 w-4" />
              {supportEmail}
            </a>
          </CollapsibleContent>
        </Collapsible>
      </div>
    </main>
  );
}
