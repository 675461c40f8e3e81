import { MailIcon, ChatIcon, CommunityIcon, CloseIcon } from './icons';
import { useEffect, useState } from 'react';
import { useSiteSettings } from '@client/lib/site-settings';

/** After this long without the frame's load event, the panel also offers e-mail and Discord. */
const SLOW_CHAT_MS = 10_000;

/** Only an http(s) address from configuration may be framed. */
function safeChatUrl(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}

function ContactOptions({ intro }: { intro: string }) {
  const { supportEmail, discordInviteUrl } = useSiteSettings();
  return (
    <div className="space-y-4 p-5 text-sm">
      <p className="text-foreground/80">{intro}</p>
      <a href={`mailto:${supportEmail}`} className="flex items-center gap-3 rounded-xl border border-white/10 bg-white/[0.03] p-4 hover:bg-white/[0.06]">
        <MailIcon className="h-5 w-5 flex-none text-primary" />
        <span>
          <span className="block font-semibold text-white">Email us</span>
          <span className="break-all text-foreground/70">{supportEmail}</span>
        </span>
      </a>
      <a href={discordInviteUrl} target="_blank" rel="noopener noreferrer" className="flex items-center gap-3 rounded-xl border border-white/10 bg-white/[0.03] p-4 hover:bg-white/[0.06]">
        <CommunityIcon className="h-5 w-5 flex-none text-primary" />
        <span>
          <span className="block font-semibold text-white">Join our Discord</span>
          <span className="text-foreground/70">Open a ticket in the support channel</span>
        </span>
      </a>
      <p className="text-xs text-foreground/50">We reply within 24 hours on business days.</p>
    </div>
  );
}

function ChatFrame({ src }: { src: string }) {
  const [loaded, setLoaded] = useState(false);
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    if (loaded) return;
    const timer = window.setTimeout(() => setSlow(true), SLOW_CHAT_MS);
    return () => window.clearTimeout(timer);
  }, [loaded]);
  return (
    <div className="relative flex-1">
      <iframe src={src} title="Support chat" className="absolute inset-0 h-full w-full border-0 bg-white" onLoad={() => setLoaded(true)} allow="clipboard-write" />
      {loaded ? null : (
        <div className="absolute inset-0 overflow-y-auto bg-card">
          {slow ? (
            <ContactOptions intro="The chat is taking longer than usual to load. You can also reach us here:" />
          ) : (
            <p className="p-5 text-sm text-muted" role="status">
              Loading chat...
            </p>
          )}
        </div>
      )}
    </div>
  );
}

/** Support chat (spec §1, §9): a toggle at the bottom right opening a floating panel; the chat frame loads only when opened. */
export function ChatWidget() {
  const { chatUrl } = useSiteSettings();
  const [open, setOpen] = useState(false);
  const src = safeChatUrl(chatUrl);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <>
      {open ? (
        <div
          id="support-chat"
          role="dialog"
          aria-label="Support chat"
          data-testid="chat-panel"
          className="fixed bottom-24 right-4 z-50 flex h-[70vh] w-[calc(100vw-2rem)] max-w-sm flex-col overflow-hidden rounded-2xl border border-white/10 bg-card shadow-2xl md:h-[500px]"
        >
          <div className="flex h-14 flex-none items-center justify-between border-b border-white/10 bg-gradient-to-r from-emerald-800/60 to-card px-4">
            <p className="font-semibold text-white">Chat with support</p>
            <button type="button" onClick={() => setOpen(false)} aria-label="Close chat" className="grid h-8 w-8 place-items-center rounded-lg text-white hover:bg-white/10">
              <CloseIcon className="h-4 w-4" />
            </button>
          </div>
          {src ? <ChatFrame src={src} /> : <div className="flex-1 overflow-y-auto"><ContactOptions intro="Questions before or after you buy? Our team is happy to help." /></div>}
        </div>
      ) : null}
      <button
        type="button"
        onClick={() => setOpen((value) => !value)}
        aria-label={open ? 'Close support chat' : 'Open support chat'}
        aria-expanded={open}
        aria-controls={open ? 'support-chat' : undefined}
        className="fixed bottom-4 right-4 z-50 grid h-14 w-14 place-items-center rounded-full bg-primary text-primary-foreground shadow-[0_10px_30px_-5px_rgba(34,197,94,0.6)] transition hover:scale-105 hover:bg-primary/90"
      >
        {open ? <CloseIcon className="h-6 w-6" /> : <ChatIcon className="h-6 w-6" />}
      </button>
    </>
  );
}
