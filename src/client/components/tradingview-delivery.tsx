import { CheckCircle2, Clock, Info, XCircle } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import {
  memberDelivery,
  type MemberDelivery,
  type TradingviewStatusResponse,
} from '@shared/tradingview-grants';
import { useTradingviewStatus } from '@client/lib/api/tradingview-status';
import { useSiteSettings } from '@client/lib/site-settings';
import { cn } from '@client/lib/cn';

export const ACCOUNT_SETTINGS_PATH = '/dashboard/settings?section=account';

const TONES: Record<MemberDelivery['tone'], string> = {
  green: 'border-green-500/40 bg-green-500/10',
  yellow: 'border-yellow-400/40 bg-yellow-400/10',
  red: 'border-red-500/40 bg-red-500/10',
  neutral: 'border-border bg-card',
};
const TITLE_TONES: Record<MemberDelivery['tone'], string> = {
  green: 'text-green-400',
  yellow: 'text-yellow-200',
  red: 'text-red-300',
  neutral: 'text-white',
};
const ICONS = {
  green: CheckCircle2,
  yellow: Clock,
  red: XCircle,
  neutral: Info,
} as const;

/** The one action a delivery asks of the member, as a link (the dashboard) or a button (Settings). */
function DeliveryAction({
  delivery,
  onCorrect,
  settingsReachable,
}: {
  delivery: MemberDelivery;
  onCorrect?: (() => void) | undefined;
  settingsReachable: boolean;
}) {
  const { supportEmail } = useSiteSettings();
  const link = 'font-semibold text-primary underline-offset-4 hover:underline';
  // on a phone Settings is desktop-only too: support changes the username there
  if (
    delivery.action === 'support' ||
    (!settingsReachable && delivery.action !== null)
  ) {
    return (
      <a href={`mailto:${supportEmail}`} className={link}>
        Contact support at {supportEmail}
      </a>
    );
  }
  if (delivery.action !== 'add' && delivery.action !== 'correct') return null;
  // in Settings the username row has its own Add button
  if (delivery.action === 'add' && onCorrect) return null;
  const label =
    delivery.action === 'add'
      ? 'Add your TradingView username'
      : 'Correct your TradingView username';
  if (onCorrect) {
    return (
      <button type="button" onClick={onCorrect} className={link}>
        {label}
      </button>
    );
  }
  return (
    <Link to={ACCOUNT_SETTINGS_PATH} className={link}>
      {label} in Settings
    </Link>
  );
}

/**
 * What TradingView access the member has now: pending, granted N scripts (by name), or failed
 * with the reason and what to do. `showTitle: false` where a badge already says it (Settings).
 */
export function TradingViewDelivery({
  status,
  showTitle = true,
  onCorrect,
  settingsReachable = true,
  className,
}: {
  status: TradingviewStatusResponse;
  showTitle?: boolean;
  onCorrect?: (() => void) | undefined;
  settingsReachable?: boolean;
  className?: string;
}) {
  const delivery = memberDelivery(status);
  const Icon = ICONS[delivery.tone];
  return (
    <div
      role="status"
      data-testid="tradingview-delivery"
      data-status={delivery.status}
      className={cn(
        'flex items-start gap-3 rounded-xl border px-4 py-3 text-sm',
        TONES[delivery.tone],
        className,
      )}
    >
      <Icon
        aria-hidden="true"
        className={cn('mt-0.5 h-4 w-4 flex-none', TITLE_TONES[delivery.tone])}
      />
      <div className="min-w-0 space-y-1">
        {showTitle ? (
          <p className={cn('font-semibold', TITLE_TONES[delivery.tone])}>
            {delivery.title}
          </p>
        ) : null}
        <p className="break-words text-foreground/90">{delivery.detail}</p>
        <DeliveryAction
          delivery={delivery}
          onCorrect={onCorrect}
          settingsReachable={settingsReachable}
        />
      </div>
    </div>
  );
}

const SEEN_KEY = 'tradingview-granted-seen';

/** The usernames whose grant this browser has shown already (lowercase). */
function readSeen(): Set<string> {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(SEEN_KEY) ?? '[]');
    return new Set(Array.isArray(parsed) ? parsed.filter((name): name is string => typeof name === 'string') : []);
  } catch {
    return new Set();
  }
}

function markSeen(username: string): void {
  try {
    const seen = readSeen();
    seen.add(username.toLowerCase());
    window.localStorage.setItem(SEEN_KEY, JSON.stringify([...seen]));
  } catch {
    // private mode: the notice shows again next time, which is harmless
  }
}

/**
 * The dashboard's delivery notice: while access is pending or failed (or no username yet) it
 * stays; "Access granted" is shown once per username in this browser, then no more.
 */
export function DashboardDeliveryNotice({ className, settingsReachable = true }: { className?: string; settingsReachable?: boolean }) {
  const { data } = useTradingviewStatus();
  // what this browser had shown before this page opened: read once
  const [seenBefore] = useState(readSeen);
  const grantedName = data?.status === 'granted' ? data.username : null;
  useEffect(() => {
    if (grantedName) markSeen(grantedName);
  }, [grantedName]);
  if (!data || data.status === 'revoked') return null;
  if (data.status === 'granted' && (!data.username || seenBefore.has(data.username.toLowerCase()))) return null;
  return <TradingViewDelivery status={data} className={className} settingsReachable={settingsReachable} />;
}
