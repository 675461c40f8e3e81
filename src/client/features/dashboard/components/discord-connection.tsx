// The member's own Discord account on the Discord page: connect it (better-auth's link-social,
// then Discord's consent page), see the roles the shop gave it, disconnect it or use another one.
// Discord sends the browser back here, with ?error=… when the link did not happen.
import { AlertCircle, Link2 } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { DISCORD_STATUS_TEXTS, discordFailureText, type DiscordStatusResponse } from '@shared/discord-contract';
import { DISCORD_LINK_TEXTS, discordLinkError } from '@shared/error-messages';
import { ConnectedAccount, ConnectionCard } from '@client/components/community-connection';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { errorInputOf } from '@client/lib/auth-request';
import { useConnectDiscord, useDisconnectDiscord, useDiscordStatus } from '@client/lib/discord';

export const DISCORD_CONNECTION_TEXTS = {
  title: 'Your Discord account',
  intro: 'Connect your Discord account and we give it your member roles in our server automatically.',
  connect: 'Connect Discord',
  connecting: 'Opening Discord...',
  switchAccount: 'Use another Discord account',
  disconnect: 'Disconnect',
  disconnecting: 'Disconnecting...',
  disconnectFailed: 'Discord could not be disconnected. Please try again.',
  retry: 'Try Again',
} as const;

type Connected = Extract<DiscordStatusResponse, { connected: true }>;

/** The roles the account holds, or why there are none yet, in words. */
function RolesLine({ link }: { link: Connected }) {
  const roles =
    link.roles.length > 0 ? (
      <ul aria-label="Your Discord roles" className="flex flex-wrap gap-2">
        {link.roles.map((role) => (
          <li key={role.id}>
            <Badge tone="purple">{role.name}</Badge>
          </li>
        ))}
      </ul>
    ) : null;
  if (link.status === 'pending') return <p className="text-sm text-muted">{DISCORD_STATUS_TEXTS.rolesPending}</p>;
  if (link.status === 'failed') {
    return (
      <div className="space-y-2">
        <p className="text-sm text-warning">{discordFailureText(link.lastError)}</p>
        {roles}
      </div>
    );
  }
  return roles ?? <p className="text-sm text-muted">{DISCORD_STATUS_TEXTS.noRoles}</p>;
}

export function DiscordConnection({ onConsentUrl = (url: string) => window.location.assign(url) }: { onConsentUrl?: (url: string) => void }) {
  const status = useDiscordStatus({ watchPending: true });
  const connect = useConnectDiscord();
  const disconnect = useDisconnectDiscord();
  const [searchParams, setSearchParams] = useSearchParams();
  const [failure, setFailure] = useState<string | null>(null);
  const returnedError = searchParams.get('error');
  const message = failure ?? (returnedError ? discordLinkError({ code: returnedError }).description : null);
  const busy = connect.isPending || connect.isSuccess || disconnect.isPending;

  /** A new attempt replaces the answer Discord sent the browser back with. */
  function startOver() {
    setFailure(null);
    if (returnedError === null) return;
    setSearchParams(
      (params) => {
        params.delete('error');
        params.delete('error_description');
        return params;
      },
      { replace: true },
    );
  }

  async function startLink() {
    startOver();
    let url: string;
    try {
      url = await connect.mutateAsync();
    } catch (error) {
      setFailure(discordLinkError(errorInputOf(error)).description);
      return;
    }
    onConsentUrl(url);
  }

  async function unlink() {
    startOver();
    try {
      await disconnect.mutateAsync();
    } catch {
      setFailure(DISCORD_CONNECTION_TEXTS.disconnectFailed);
    }
  }

  let body;
  if (status.isPending) body = <Spinner label="Loading..." />;
  else if (status.isError) {
    body = (
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-sm text-muted">{DISCORD_STATUS_TEXTS.unavailable}</p>
        <Button variant="outline" size="sm" onClick={() => void status.refetch()}>
          {DISCORD_CONNECTION_TEXTS.retry}
        </Button>
      </div>
    );
  } else if (status.data.connected) {
    const link = status.data;
    body = (
      <ConnectedAccount
        name={link.username}
        switchLabel={connect.isPending || connect.isSuccess ? DISCORD_CONNECTION_TEXTS.connecting : DISCORD_CONNECTION_TEXTS.switchAccount}
        disconnectLabel={disconnect.isPending ? DISCORD_CONNECTION_TEXTS.disconnecting : DISCORD_CONNECTION_TEXTS.disconnect}
        busy={busy}
        onSwitch={() => void startLink()}
        onDisconnect={() => void unlink()}
      >
        <RolesLine link={link} />
      </ConnectedAccount>
    );
  } else {
    body = (
      <div className="space-y-4">
        <p className="text-sm leading-6 text-muted">{DISCORD_CONNECTION_TEXTS.intro}</p>
        <Button className="bg-[#5865F2] text-white hover:bg-[#4752c4]" disabled={busy} onClick={() => void startLink()}>
          <Link2 aria-hidden="true" className="h-4 w-4" />
          {connect.isPending || connect.isSuccess ? DISCORD_CONNECTION_TEXTS.connecting : DISCORD_CONNECTION_TEXTS.connect}
        </Button>
      </div>
    );
  }

  return (
    <ConnectionCard
      id="discord-connection-title"
      title={DISCORD_CONNECTION_TEXTS.title}
      alert={
        message ? (
          <div role="alert" className="mt-4 flex gap-3 rounded-xl border border-danger/40 bg-danger/10 p-4 text-sm">
            <AlertCircle aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-red-300" />
            <div>
              <p className="font-semibold text-red-200">{DISCORD_LINK_TEXTS.title}</p>
              <p className="mt-1 text-foreground/85">{message}</p>
            </div>
          </div>
        ) : null
      }
    >
      {body}
    </ConnectionCard>
  );
}
