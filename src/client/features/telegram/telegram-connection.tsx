// The member's Telegram on the community page: connect it (a one-time deep link to the shop's bot,
// t.me/<bot>?start=<token>, or the sandbox Telegram's page), see "Connected as @name", and join the
// managed chats through the invite links made for this member alone.
import { Link2, Send, Unlink } from 'lucide-react';
import { useState } from 'react';
import { TELEGRAM_TEXTS, type TelegramStatusResponse } from '@shared/telegram/contract';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
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
      <div className="space-y-4">
        <p className="text-base text-foreground">
          Connected as <strong className="font-semibold text-white">@{link.username}</strong>
        </p>
        <Chats link={link} />
        <div className="flex flex-wrap gap-3">
          <Button variant="outline" disabled={busy} onClick={() => void connect()}>
            <Link2 aria-hidden="true" className="h-4 w-4" />
            {start.isPending ? TELEGRAM_TEXTS.connecting : TELEGRAM_TEXTS.switchAccount}
          </Button>
          <Button variant="ghost" className="text-red-300 hover:bg-danger/10" disabled={busy} onClick={() => void disconnect.mutateAsync().catch(() => setFailure(TELEGRAM_TEXTS.linkFailed))}>
            <Unlink aria-hidden="true" className="h-4 w-4" />
            {TELEGRAM_TEXTS.disconnect}
          </Button>
        </div>
      </div>
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
    <Card role="region" aria-labelledby="telegram-connection-title" className="mt-6 p-8">
      <h2 id="telegram-connection-title" className="text-xl font-semibold text-white">
        {TELEGRAM_TEXTS.title}
      </h2>
      {failure ? (
        <p role="alert" className="mt-4 rounded-xl border border-danger/40 bg-danger/10 p-4 text-sm text-red-200">
          {failure}
        </p>
      ) : null}
      <div className="mt-4">{body}</div>
    </Card>
  );
}
