import { BookIcon, ChatIcon, ClockIcon, CloseIcon, CommunityIcon, MailIcon, QuestionIcon } from './icons';
import { useEffect, useState, type ReactNode } from 'react';
import { useSiteSettings } from '@client/lib/site-settings';
import { OPEN_SUPPORT_CHAT_EVENT, SECTION_IDS, useGoToSection } from '../scroll';

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

const optionClass = 'flex items-center gap-3 rounded-xl border border-white/10 bg-white/[0.03] px-3 py-2.5 text-left hover:bg-white/[0.06]';

function ContactOption({ icon, title, detail }: { icon: ReactNode; title: string; detail: string }) {
  return (
    <>
      <span className="grid h-8 w-8 flex-none place-items-center rounded-lg bg-primary/10 text-primary">{icon}</span>
      <span className="min-w-0">
        <span className="block font-semibold text-white">{title}</span>
        <span className="block break-words text-foreground/70">{detail}</span>
      </span>
    </>
  );
}

/** Every way to reach us when there is no chat to frame (or it does not load): the panel's whole height is useful. */
function ContactOptions({ intro, onFaq }: { intro: string; onFaq: () => void }) {
  const { supportEmail, discordInviteUrl, docsUrl } = useSiteSettings();
  return (
    <div className="flex min-h-full flex-col gap-2.5 p-4 text-sm">
      <p className="text-foreground/80">{intro}</p>
      <a href={`mailto:${supportEmail}`} className={optionClass}>
        <ContactOption icon={<MailIcon className="h-5 w-5" />} title="Email us" detail={supportEmail} />
      </a>
      <a href={discordInviteUrl} target="_blank" rel="noopener noreferrer" className={optionClass}>
        <ContactOption icon={<CommunityIcon className="h-5 w-5" />} title="Join our Discord" detail="Open a ticket in the support channel" />
      </a>
      <a href={docsUrl} target="_blank" rel="noopener noreferrer" className={optionClass}>
        <ContactOption icon={<BookIcon className="h-5 w-5" />} title="Read the guides" detail="Setup and every indicator, step by step" />
      </a>
      <button type="button" onClick={onFaq} className={optionClass}>
        <ContactOption icon={<QuestionIcon className="h-5 w-5" />} title="Common questions" detail="Activation, billing, cancelling" />
      </button>
      <p className="mt-auto flex items-center gap-2 rounded-lg bg-white/[0.03] px-3 py-2 text-xs text-foreground/60">
        <ClockIcon className="h-4 w-4 flex-none text-primary" />
        We reply within 24 hours on business days.
      </p>
    </div>
  );
}

function ChatFrame({ src, onFaq }: { src: string; onFaq: () => void }) {
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
            <ContactOptions intro="The chat is taking longer than usual to load. You can also reach us here:" onFaq={onFaq} />
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

/**
 * Support chat: a toggle at the bottom right opening a floating panel; the chat frame loads only when
 * opened. Below 768 px there is no floating toggle (on a 390 px page it covered the cards' buttons and
 * the footer): the chat opens from the menu, and the open panel has its close button.
 */
export function ChatWidget() {
  const { chatUrl } = useSiteSettings();
  const [open, setOpen] = useState(false);
  const src = safeChatUrl(chatUrl);
  const goToSection = useGoToSection();
  const openFaq = () => {
    setOpen(false);
    goToSection(SECTION_IDS.faq);
  };

  useEffect(() => {
    const onOpen = () => setOpen(true);
    window.addEventListener(OPEN_SUPPORT_CHAT_EVENT, onOpen);
    return () => window.removeEventListener(OPEN_SUPPORT_CHAT_EVENT, onOpen);
  }, []);

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
          {src ? (
            <ChatFrame src={src} onFaq={openFaq} />
          ) : (
            <div className="flex-1 overflow-y-auto">
              <ContactOptions intro="Questions before or after you buy? Our team is happy to help." onFaq={openFaq} />
            </div>
          )}
        </div>
      ) : null}
      <button
        type="button"
        onClick={() => setOpen((value) => !value)}
        aria-label={open ? 'Close support chat' : 'Open support chat'}
        aria-expanded={open}
        aria-controls={open ? 'support-chat' : undefined}
        className="fixed bottom-4 right-4 z-50 hidden h-14 w-14 place-items-center md:grid rounded-full bg-primary text-primary-foreground shadow-[0_10px_30px_-5px_rgba(34,197,94,0.6)] transition hover:scale-105 hover:bg-primary/90"
      >
        {open ? <CloseIcon className="h-6 w-6" /> : <ChatIcon className="h-6 w-6" />}
      </button>
    </>
  );
}
