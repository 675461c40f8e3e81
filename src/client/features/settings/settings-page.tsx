import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useSiteSettings } from '@client/lib/site-settings';
import { cn } from '@client/lib/cn';
import { AccountCard } from './components/account-card';
import { InvoicesCard } from './components/invoices-card';
import { PlanChangeCard } from './components/plan-change-card';
import { SecurityCard } from './components/security-card';
import { SubscriptionCard } from './components/subscription-card';
import { ReminderMailsCard } from './components/reminder-mails-card';
import { UpdateMailsCard } from './components/update-mails-card';
import { parseSettingsSection, settingsSectionHref, visibleSettingsCards } from './settings-sections';
import type { SettingsSection } from './settings-sections';

const SECTION_TABS: { section: SettingsSection; label: string }[] = [
  { section: 'all', label: 'Overview' },
  { section: 'account', label: 'My Account' },
  { section: 'subscription', label: 'Subscription' },
  { section: 'upgrade', label: 'Change Plan' },
];

/** The settings page: /dashboard/settings?section=account|subscription|upgrade|all. */
export function SettingsPage() {
  const { brandName } = useSiteSettings();
  useEffect(() => {
    document.title = `Settings – ${brandName}`;
  }, [brandName]);
  const [params] = useSearchParams();
  const section = parseSettingsSection(params.get('section'));
  const visible = new Set(visibleSettingsCards(section));
  const both = visible.has('account') && visible.has('subscription');

  return (
    <div>
      <header className="mb-8 flex items-end justify-between gap-6">
        <div>
          <p className="text-sm font-semibold uppercase tracking-wider text-primary">Account</p>
          <h1 className="mt-2 text-3xl font-bold tracking-tight text-white">Settings</h1>
          <p className="mt-3 text-base text-muted">Manage your account, subscription and plan.</p>
        </div>
        <nav aria-label="Settings sections" className="flex gap-1 rounded-xl border border-border bg-card p-1">
          {SECTION_TABS.map((tab) => (
            <Link
              key={tab.section}
              to={settingsSectionHref(tab.section)}
              aria-current={tab.section === section ? 'page' : undefined}
              className={cn(
                'rounded-lg px-3.5 py-1.5 text-sm font-medium transition-colors',
                tab.section === section ? 'bg-white/10 text-foreground' : 'text-muted hover:text-foreground',
              )}
            >
              {tab.label}
            </Link>
          ))}
        </nav>
      </header>

      <div className="space-y-6">
        {visible.has('account') || visible.has('subscription') ? (
          // My Account holds more (username, its status, the warning), so it gets the wider column.
          <div className={cn('grid items-start gap-6', both ? 'grid-cols-5' : 'max-w-3xl')}>
            {visible.has('account') ? (
              <div className={cn(both && 'col-span-3')}>
                <AccountCard />
              </div>
            ) : null}
            {visible.has('subscription') ? (
              <div className={cn(both && 'col-span-2')}>
                <SubscriptionCard />
              </div>
            ) : null}
          </div>
        ) : null}
        {visible.has('subscription') ? <InvoicesCard /> : null}
        {visible.has('security') ? <SecurityCard /> : null}
        {visible.has('account') ? <UpdateMailsCard /> : null}
        {visible.has('account') ? <ReminderMailsCard /> : null}
        {visible.has('upgrade') ? <PlanChangeCard /> : null}
      </div>
    </div>
  );
}
