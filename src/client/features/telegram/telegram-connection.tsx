// The member's Telegram on the community page: connect it (a one-time deep link to the shop's bot,
// t.me/<bot>?start=<token>, or the sandbox Telegram's page), see "Connected as @name", and join the
// managed chats through the invite links made for this member alone.
import { Send } from 'lucide-react';
import { useState } from 'react';
import { TELEGRAM_TEXTS, type TelegramStatusResponse } from '@shared/telegram/contract';
import { ConnectedAccount, ConnectionCard } from '@client/components/community-connection';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { useDisconnectTelegram, useStartTelegramLink, useTelegramStatus } from './telegram-api';

type Connected = Extract<TelegramStatusResponse, { connected: true }>;

/** t.me opens Telegram beside the shop; the sandbox's page is part of the shop. */
function openOutside(url: string) {
  if (/^https?:\/\//.test(url)) window.open(url, '_blank', 'noopener');
  else window.location.assign(url);
}

function Chats({ link }: { link: Connected }) {
  if (link.status === 'failed') return <p className="text-sm text-warning">{TELEGRAM_TEXTS.failed}</p>;
  if (link.chats.length === 0) return <p className="text-sm text-muted">{link.status === 'pending' ? TELEGRAM_TEXTS.pending : TELEGRAM_TEXTS.noChats}</p>;
  return (
    <ul aria-label="Your Telegram chats" className="space-y-2">
      {link.chats.map((chat) => (
        <li key={chat.chatId} className="flex items-center justify-between gap-3 rounded-xl border border-border px-4 py-3">
          <span className="font-medium text-white">{chat.title}</span>
          {chat.inviteLink ? (
            <Button size="sm" className="bg-[#229ED9] text-white hover:bg-[#1c87ba]" onClick={() => openOutside(chat.inviteLink!)}>
              {TELEGRAM_TEXTS.join} {chat.title}
            </Button>
          ) : (
            <Badge tone={link.status === 'synced' ? 'green' : 'neutral'}>{link.status === 'synced' ? TELEGRAM_TEXTS.inChat : TELEGRAM_TEXTS.pending}</Badge>
          )}
        </li>
      ))}
    </ul>
  );
}

export function TelegramConnection() {
  const status = useTelegramStatus();
  const start = useStartTelegramLink();
  const disconnect = useDisconnectTelegram();
  const [failure, setFailure] = useState<string | null>(null);
  const busy = start.isPending || disconnect.isPending;

  async function connect() {
    setFailure(null);
    try {
      openOutside((await start.mutateAsync()).url);
    } catch (error) {
      setFailure(error instanceof Error && error.message ? error.message : TELEGRAM_TEXTS.linkFailed);
    }
  }

  if (status.data && !status.data.connected && !status.data.available) return null;
  let body;
  if (status.isPending) body = <Spinner label="Loading..." />;
  else if (status.isError) body = <p className="text-sm text-muted">{TELEGRAM_TEXTS.unavailable}</p>;
  else if (status.data.connected) {
    const link = status.data;
    body = (
      <ConnectedAccount
        name={`@${link.username}`}
        switchLabel={start.isPending ? TELEGRAM_TEXTS.connecting : TELEGRAM_TEXTS.switchAccount}
        disconnectLabel={TELEGRAM_TEXTS.disconnect}
        busy={busy}
        onSwitch={() => void connect()}
        onDisconnect={() => void disconnect.mutateAsync().catch(() => setFailure(TELEGRAM_TEXTS.linkFailed))}
      >
        <Chats link={link} />
      </ConnectedAccount>
    );
  } else {
    body = (
      <div className="space-y-4">
        <p className="text-sm leading-6 text-muted">{TELEGRAM_TEXTS.intro}</p>
        <Button className="bg-[#229ED9] text-white hover:bg-[#1c87ba]" disabled={busy} onClick={() => void connect()}>
          <Send aria-hidden="true" className="h-4 w-4" />
          {start.isPending ? TELEGRAM_TEXTS.connecting : TELEGRAM_TEXTS.connect}
        </Button>
      </div>
    );
  }
  return (
    <ConnectionCard
      id="telegram-connection-title"
      title={TELEGRAM_TEXTS.title}
      alert={
        failure ? (
          <p role="alert" className="mt-4 rounded-xl border border-danger/40 bg-danger/10 p-4 text-sm text-red-200">
            {failure}
          </p>
        ) : null
      }
    >
      {body}
    </ConnectionCard>
  );
}
