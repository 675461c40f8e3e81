import { Bell } from 'lucide-react';
import { useState } from 'react';
import { splitParagraphs } from '@shared/content';
import { cn } from '@client/lib/cn';
import { useAnnouncements, useMarkAnnouncementsRead } from '../api/announcements';

/**
 * What's new: the vendor's updates (e.g. "remove and re-add the indicator"), with an unread badge;
 * opening the panel marks them read. Nothing shows for a member who cannot read them.
 */
export function WhatsNew() {
  const announcements = useAnnouncements();
  const markRead = useMarkAnnouncementsRead();
  const [open, setOpen] = useState(false);
  if (!announcements.data) return null;
  const { unread } = announcements.data;
  const items = announcements.data.announcements;

  return (
    <div className="relative">
      <button
        type="button"
        aria-expanded={open}
        aria-label={unread > 0 ? `What's new, ${unread} unread` : "What's new"}
        onClick={() => {
          const opening = !open;
          setOpen(opening);
          if (opening && unread > 0) markRead.mutate();
        }}
        className="relative flex items-center gap-2 rounded-xl px-3 py-2 text-sm font-medium text-muted transition-colors hover:bg-white/5 hover:text-white"
      >
        <Bell aria-hidden="true" className="h-4 w-4" />
        What&apos;s new
        {unread > 0 ? (
          <span data-testid="unread-badge" className="ml-1 rounded-full bg-primary px-1.5 text-xs font-semibold text-primary-foreground">
            {unread}
          </span>
        ) : null}
      </button>
      {open ? (
        <section aria-label="What's new" className="absolute right-0 top-12 z-40 max-h-[70vh] w-[420px] overflow-y-auto rounded-2xl border border-border bg-card p-4 shadow-xl">
          {items.length === 0 ? <p className="text-sm text-muted">No updates yet.</p> : null}
          <ul className="space-y-4">
            {items.map((item) => (
              <li key={item.id} className={cn('rounded-xl border border-border p-3', !item.read && 'border-primary/40')}>
                <p className="text-sm font-semibold text-white">{item.title}</p>
                <p className="mt-0.5 text-xs text-muted">
                  {new Date(item.publishedAt).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' })}
                  {item.scriptId ? ` · ${item.scriptId}` : ''}
                </p>
                {splitParagraphs(item.body).map((paragraph, index) => (
                  <p key={index} className="mt-2 text-sm leading-6 text-slate-300">
                    {paragraph}
                  </p>
                ))}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
