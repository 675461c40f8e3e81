// The sandbox Telegram (/sandbox/telegram): the Telegram user's side of a demo. With ?start=<token>
// it is the shop's bot after the member opened the deep link (type a Telegram username, Start);
// with ?invite=<code> it is an invite link (Join); without either it lists the sandbox's chats with
// their members, and any user may ask to join one (the shop's bot answers the request).
import { FlaskConical } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { sandboxTelegramUsernameSchema, type SandboxTelegramAnswer } from '@shared/telegram/contract';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { FieldError, Input, Label } from '@client/components/ui/input';
import { Spinner } from '@client/components/ui/spinner';
import { useSandboxTelegramAction, useSandboxTelegramChats, sandboxTelegramPage } from './telegram-api';

const USERNAME_KEY = 'sandbox-telegram-username';

function UsernameForm({ action, onSubmit, busy }: { action: string; onSubmit: (username: string) => void; busy: boolean }) {
  const id = useId();
  const [username, setUsername] = useState(() => window.localStorage.getItem(USERNAME_KEY) ?? '');
  const [problem, setProblem] = useState<string | undefined>();
  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = sandboxTelegramUsernameSchema.safeParse(username);
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message);
    setProblem(undefined);
    window.localStorage.setItem(USERNAME_KEY, parsed.data);
    onSubmit(parsed.data);
  }
  return (
    <form onSubmit={submit} className="space-y-3" noValidate>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-username`}>Telegram username</Label>
        <Input id={`${id}-username`} value={username} onChange={(event) => setUsername(event.target.value)} aria-describedby={`${id}-error`} autoComplete="off" placeholder="your_name" />
        <FieldError id={`${id}-error`} message={problem} />
      </div>
      <Button type="submit" disabled={busy} className="w-full bg-[#229ED9] text-white hover:bg-[#1c87ba]">
        {action}
      </Button>
    </form>
  );
}

function Answer({ answer }: { answer: SandboxTelegramAnswer | null }) {
  if (!answer) return null;
  return (
    <p role="status" className={answer.ok ? 'rounded-xl bg-green-500/10 p-3 text-sm text-green-300' : 'rounded-xl bg-red-500/10 p-3 text-sm text-red-300'}>
      {answer.message}
    </p>
  );
}

function Chats({ onJoin, busy }: { onJoin: (chatId: string) => void; busy: boolean }) {
  const chats = useSandboxTelegramChats();
  if (chats.isPending) return <Spinner label="Loading the chats..." />;
  if (chats.isError) return <p className="text-sm text-muted">The sandbox chats are shown to operators only while a service is live.</p>;
  return (
    <ul className="space-y-3" aria-label="Sandbox Telegram chats">
      {chats.data.chats.map((chat) => (
        <li key={chat.id} className="rounded-xl border border-border p-4">
          <div className="flex items-center justify-between gap-3">
            <h2 className="font-semibold text-white">{chat.title}</h2>
            <Button size="sm" variant="outline" disabled={busy} onClick={() => onJoin(chat.id)}>
              Ask to join {chat.title}
            </Button>
          </div>
          <p className="mt-2 text-sm text-muted">{chat.members.length === 0 ? 'No members yet.' : chat.members.map((member) => `@${member.username}`).join(', ')}</p>
        </li>
      ))}
    </ul>
  );
}

export function SandboxTelegramPage() {
  const [params] = useSearchParams();
  const token = params.get('start');
  const invite = params.get('invite');
  const action = useSandboxTelegramAction();
  const [answer, setAnswer] = useState<SandboxTelegramAnswer | null>(null);
  const [asker, setAsker] = useState(() => window.localStorage.getItem(USERNAME_KEY) ?? '');

  async function run(path: 'start' | 'join', body: Record<string, string>) {
    setAnswer(null);
    try {
      setAnswer(await action.mutateAsync({ path, body }));
    } catch (error) {
      setAnswer({ ok: false, message: error instanceof Error ? error.message : 'The sandbox Telegram did not answer.' });
    }
  }

  let title = 'Sandbox Telegram';
  let content;
  if (token) {
    title = 'Start the shop’s bot';
    content = <UsernameForm action="Start" busy={action.isPending} onSubmit={(username) => void run('start', { username, token })} />;
  } else if (invite) {
    title = 'You are invited to a chat';
    content = <UsernameForm action="Join chat" busy={action.isPending} onSubmit={(username) => void run('join', { username, inviteLink: `${sandboxTelegramPage}?invite=${invite}` })} />;
  } else {
    content = (
      <div className="space-y-4">
        <UsernameForm action="Use this username" busy={false} onSubmit={setAsker} />
        <Chats busy={action.isPending || !asker} onJoin={(chatId) => void run('join', { username: asker, chatId })} />
      </div>
    );
  }
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <Card className="w-full max-w-lg space-y-5 p-8">
        <p className="inline-flex items-center gap-2 rounded-full border border-yellow-500/40 bg-yellow-500/10 px-3 py-1 text-xs font-semibold text-yellow-300">
          <FlaskConical className="h-3.5 w-3.5" aria-hidden="true" />
          Sandbox Telegram — no real Telegram account
        </p>
        <h1 className="text-2xl font-semibold text-white">{title}</h1>
        {content}
        <Answer answer={answer} />
        <p className="text-sm">
          <Link to="/dashboard/discord" className="text-primary hover:underline">
            Back to the member area
          </Link>
        </p>
      </Card>
    </main>
  );
}
