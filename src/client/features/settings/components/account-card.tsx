import { AlertTriangle, Pencil, UserRound } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { DISCORD_PAGE_PATH, DISCORD_STATUS_TEXTS } from '@shared/discord-contract';
import { planDisplayName } from '@shared/plans';
import { formatDisplayDate } from '@shared/subscription-view';
import type { MemberGrantStatus } from '@shared/tradingview-grants';
import { Badge } from '@client/components/ui/badge';
import type { BadgeTone } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { TradingViewDelivery } from '@client/components/tradingview-delivery';
import { useSubscription } from '@client/lib/api/subscription';
import { useAuth } from '@client/lib/auth-state';
import { useDiscordStatus } from '@client/lib/discord';
import { useSiteSettings } from '@client/lib/site-settings';
import { useTradingviewStatus } from '../api/get-tradingview-status';
import { DetailList, DetailRow, SettingsCardHeader } from './detail-list';
import { TradingviewUsernameForm } from './tradingview-username-form';

export const NOT_PROVIDED = 'Not provided';
const UNAVAILABLE = 'Unavailable';

const GRANT_BADGES: Record<MemberGrantStatus, { tone: BadgeTone; text: string } | null> = {
  none: null,
  granted: { tone: 'green', text: 'Access granted' },
  pending: { tone: 'yellow', text: 'Access pending' },
  failed: { tone: 'red', text: 'Access failed' },
  revoked: { tone: 'neutral', text: 'Access revoked' },
};

/** 'My Account': who the member is, which TradingView username gets the indicators, and help. */
export function AccountCard() {
  const { user } = useAuth();
  const { supportEmail, discordInviteUrl } = useSiteSettings();
  const subscription = useSubscription();
  const tradingview = useTradingviewStatus();
  const discord = useDiscordStatus();
  const [editing, setEditing] = useState(false);

  const dto = subscription.data;
  const subscriptionLoading = subscription.isPending;
  const subscriptionFailed = subscription.isError && !dto;
  // The TradingView module knows the username best; the subscription row has it too, so the card
  // still works while that endpoint is unavailable.
  const username = tradingview.data?.username ?? dto?.tradingviewUsername ?? null;
  const grant = tradingview.data ? GRANT_BADGES[tradingview.data.status] : null;
  // once access is granted the username is proven right: the warning to check it goes
  const granted = tradingview.data?.status === 'granted';
  // a member changes their own username once per TRADINGVIEW_USERNAME_CHANGE_DAYS
  const nextChangeAt = tradingview.data?.nextChangeAt ? new Date(tradingview.data.nextChangeAt) : null;

  return (
    <Card role="region" aria-labelledby="my-account-title">
      <SettingsCardHeader
        icon={<UserRound className="h-5 w-5" />}
        title="My Account"
        titleId="my-account-title"
        description="Your account details and the TradingView username that receives your indicators."
      />
      <DetailList>
        <DetailRow label="Email Address" loading={!user}>
          <span className="break-all">{user?.email}</span>
        </DetailRow>
        <DetailRow label="TradingView Username" loading={subscriptionLoading}>
          <span className="inline-flex flex-wrap items-center justify-end gap-2">
            {username ? <span className="font-mono">{username}</span> : <span className="text-muted">{NOT_PROVIDED}</span>}
            {username && grant ? <Badge tone={grant.tone}>{grant.text}</Badge> : null}
            {!editing && !(username && nextChangeAt) ? (
              <Button variant="ghost" size="sm" className="h-7 whitespace-nowrap px-2 text-primary" onClick={() => setEditing(true)}>
                <Pencil aria-hidden="true" className="h-3.5 w-3.5" />
                {username ? 'Change' : 'Add'}
              </Button>
            ) : null}
          </span>
        </DetailRow>
      </DetailList>
      {username && nextChangeAt && !editing ? (
        <p className="-mt-1 pb-3 text-right text-xs text-muted" data-testid="tradingview-next-change">
          You changed your username recently: you can change it again on {formatDisplayDate(nextChangeAt)}. Wrong name? Contact support.
        </p>
      ) : null}
      {tradingview.data && !editing ? (
        <TradingViewDelivery
          status={tradingview.data}
          // the badge beside the username says it already
          showTitle={!username}
          onCorrect={nextChangeAt && username ? undefined : () => setEditing(true)}
          className="mb-4"
        />
      ) : null}
      {editing ? <TradingviewUsernameForm current={username} changeDays={tradingview.data?.changeDays ?? null} onDone={() => setEditing(false)} /> : null}
      <DetailList className="border-t border-border/70">
        <DetailRow label="Purchase Date" loading={subscriptionLoading}>
          {subscriptionFailed ? UNAVAILABLE : dto?.purchaseDate ? formatDisplayDate(new Date(dto.purchaseDate)) : '—'}
        </DetailRow>
        <DetailRow label="Plan" loading={subscriptionLoading}>
          {subscriptionFailed ? UNAVAILABLE : dto?.planType ? planDisplayName(dto.planType) : 'No plan'}
        </DetailRow>
        <DetailRow label="Member Since" loading={!user}>
          {user ? formatDisplayDate(new Date(user.createdAt)) : null}
        </DetailRow>
        <DetailRow label="Discord" loading={discord.isPending}>
          <span className="inline-flex flex-wrap items-center justify-end gap-2">
            {discord.isError ? (
              UNAVAILABLE
            ) : discord.data?.connected ? (
              <span className="font-mono">{discord.data.username}</span>
            ) : (
              <span className="text-muted">{DISCORD_STATUS_TEXTS.notConnected}</span>
            )}
            <Link to={DISCORD_PAGE_PATH} className="whitespace-nowrap px-2 text-sm font-semibold text-primary underline-offset-4 hover:underline">
              {discord.data?.connected ? 'Manage' : 'Connect'}
            </Link>
          </span>
        </DetailRow>
      </DetailList>

      {granted ? null : (
        <div role="note" className="mt-5 flex gap-3 rounded-xl border border-warning/30 bg-warning/10 p-4 text-sm">
        <AlertTriangle aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-warning" />
        <div className="space-y-1">
          <p className="font-semibold text-warning">Check your TradingView username</p>
          <p className="text-foreground/85">
            Your indicators are granted to this exact username. If it is wrong, you will not get access to the
            indicators. Correct it above, or contact support by opening a ticket on our{' '}
            <a href={discordInviteUrl} target="_blank" rel="noreferrer" className="font-medium text-primary underline-offset-4 hover:underline">
              Discord
            </a>{' '}
            or by email at{' '}
            <a href={`mailto:${supportEmail}`} className="font-medium text-primary underline-offset-4 hover:underline">
              {supportEmail}
            </a>
            .
          </p>
        </div>
      </div>
      )}
    </Card>
  );
}
