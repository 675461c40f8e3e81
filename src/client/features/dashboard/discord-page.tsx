import { MessageCircle, ShieldCheck, Sparkles, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from '@client/components/ui/card';
import { useSiteSettings } from '@client/lib/site-settings';
import { DiscordConnection } from './components/discord-connection';
import { JoinDiscordButton } from './components/join-discord-button';

const PERKS = [
  { icon: Sparkles, title: 'Trading setups & ideas', text: 'Members share charts, setups and market ideas every day.' },
  { icon: Users, title: 'VIP community', text: 'Talk with traders who use the same indicators and strategies as you.' },
  { icon: ShieldCheck, title: 'Support', text: 'Open a ticket for help with your access or your indicators.' },
];

/** The community page; `children` are the other communities' cards (the router adds them). */
export function DiscordPage({ children }: { children?: ReactNode } = {}) {
  const { brandName } = useSiteSettings();
  return (
    <div className="mx-auto max-w-3xl">
      <header className="mb-8">
        <p className="text-sm font-semibold uppercase tracking-wider text-primary">Community</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-white">Join Our Discord Community</h1>
        <p className="mt-3 text-base leading-7 text-muted">
          Meet other {brandName} members, get help with your indicators and follow the latest product updates.
        </p>
      </header>

      <Card className="relative overflow-hidden p-8">
        <div aria-hidden="true" className="absolute -right-16 -top-16 h-56 w-56 rounded-full bg-[#5865F2]/20 blur-3xl" />
        <div className="relative flex items-start gap-5">
          <span className="flex h-14 w-14 shrink-0 items-center justify-center rounded-2xl bg-[#5865F2] text-white shadow-lg shadow-[#5865F2]/30">
            <MessageCircle aria-hidden="true" className="h-7 w-7" />
          </span>
          <div className="min-w-0">
            <h2 className="text-xl font-semibold text-white">{brandName} members&apos; Discord</h2>
            <p className="mt-1 text-sm leading-6 text-muted">The invite opens in a new tab.</p>
            <JoinDiscordButton className="mt-5 bg-[#5865F2] text-white hover:bg-[#4752c4]" />
          </div>
        </div>

        <div role="note" className="relative mt-8 rounded-xl border border-yellow-500/30 bg-yellow-500/10 p-4 text-sm leading-6 text-yellow-100">
          <strong className="font-semibold text-yellow-200">After joining:</strong> check the rules channel and react with an emoji
          to the rules message. Only then can you see the full server.
        </div>
      </Card>

      <DiscordConnection />
      {children}

      <ul className="mt-6 grid gap-4 sm:grid-cols-3">
        {PERKS.map(({ icon: Icon, title, text }) => (
          <li key={title} className="rounded-2xl border border-border bg-card/60 p-5">
            <Icon aria-hidden="true" className="h-5 w-5 text-primary" />
            <h3 className="mt-3 text-sm font-semibold text-white">{title}</h3>
            <p className="mt-1 text-sm leading-6 text-muted">{text}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
