import { useQuery } from '@tanstack/react-query';
import { Inbox, RefreshCw } from 'lucide-react';
import { Fragment, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { z } from 'zod';
import { NotFound } from '@client/components/not-found';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { Input, Label } from '@client/components/ui/input';
import { Spinner } from '@client/components/ui/spinner';
import { api } from '@client/lib/api/api-client';
import { useSiteSettings } from '@client/lib/site-settings';

const mailboxSchema = z.object({
  mails: z.array(
    z.object({
      id: z.string(),
      to: z.string(),
      subject: z.string(),
      text: z.string(),
      html: z.string(),
      createdAt: z.string(),
    }),
  ),
});
type SandboxMail = z.infer<typeof mailboxSchema>['mails'][number];

export const MAILBOX_PATH = '/api/sandbox/mailbox';

function mailboxPath(to: string): string {
  return to ? `${MAILBOX_PATH}?${new URLSearchParams({ to }).toString()}` : MAILBOX_PATH;
}

const LINK = /(https?:\/\/[^\s<>"']+)/g;

/** The plain-text body with every http(s) address made clickable. */
function TextWithLinks({ text }: { text: string }) {
  const parts = text.split(LINK);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <a key={index} href={part} className="break-all text-primary underline underline-offset-2 hover:text-primary/80">
            {part}
          </a>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

function MailCard({ mail }: { mail: SandboxMail }) {
  const sentAt = new Date(mail.createdAt);
  return (
    <Card role="article" aria-labelledby={`mail-${mail.id}-subject`} className="space-y-4">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={`mail-${mail.id}-subject`} className="text-lg font-semibold">
            {mail.subject}
          </h2>
          <p className="text-sm text-muted">
            To: <span className="text-foreground">{mail.to}</span>
          </p>
        </div>
        <time dateTime={mail.createdAt} className="shrink-0 text-sm text-muted">
          {Number.isNaN(sentAt.getTime()) ? mail.createdAt : timeFormat.format(sentAt)}
        </time>
      </header>
      <div className="grid gap-4 lg:grid-cols-2">
        <section aria-label="Plain text" className="rounded-xl border border-border bg-black/30 p-4">
          <h3 className="mb-2 text-xs font-semibold uppercase tracking-wider text-muted">Plain text</h3>
          <p className="whitespace-pre-wrap break-words font-mono text-sm leading-relaxed">
            <TextWithLinks text={mail.text} />
          </p>
        </section>
        <section aria-label="HTML preview" className="overflow-hidden rounded-xl border border-border bg-white">
          {/* sandbox="" : no scripts, no same-origin access, no navigation of this page */}
          <iframe title={`HTML preview: ${mail.subject}`} sandbox="" srcDoc={mail.html} className="h-96 w-full" />
        </section>
      </div>
    </Card>
  );
}

/** The recipient filter; the address lives in `?to=` so that a filtered mailbox can be linked to. */
function RecipientFilter({ to, onChange }: { to: string; onChange: (to: string) => void }) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onChange(String(new FormData(event.currentTarget).get('to') ?? '').trim());
  };
  return (
    <form role="search" aria-label="Mails to one recipient" onSubmit={submit} className="flex flex-wrap items-end gap-3">
      <div className="min-w-64 flex-1 space-y-1">
        <Label htmlFor="mailbox-to">Recipient</Label>
        <Input id="mailbox-to" name="to" type="search" defaultValue={to} key={to} placeholder="member@example.com" maxLength={320} />
      </div>
      <Button type="submit">Show mails</Button>
      {to ? (
        <Button type="button" variant="outline" onClick={() => onChange('')}>
          Show everyone's
        </Button>
      ) : null}
    </form>
  );
}

/**
 * /sandbox/mailbox: the mails the outbox adapter kept, newest first, everyone's or one recipient's.
 * It exists only while the outbox is the mail adapter; with SMTP configured the API route is absent
 * and so is this page.
 */
export function SandboxMailboxPage() {
  const { sandbox } = useSiteSettings();
  const enabled = sandbox.includes('mail');
  const [params, setParams] = useSearchParams();
  const to = params.get('to')?.trim() ?? '';
  const mailbox = useQuery({
    queryKey: ['sandbox', 'mailbox', to],
    queryFn: () => api(mailboxPath(to), { schema: mailboxSchema }),
    enabled,
    refetchInterval: 5_000,
  });

  if (!enabled) {
    return <NotFound />;
  }

  return (
    <main className="mx-auto max-w-6xl space-y-6 px-6 py-10">
      <header className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="flex items-center gap-2 text-2xl font-semibold">
            <Inbox aria-hidden="true" className="h-6 w-6 text-primary" />
            Sandbox mailbox
          </h1>
          <p className="text-sm text-muted">Every mail the shop would have sent, the newest 50. Real mail goes out once SMTP_URL is configured.</p>
        </div>
        <Button variant="outline" onClick={() => void mailbox.refetch()} disabled={mailbox.isFetching}>
          <RefreshCw aria-hidden="true" className={mailbox.isFetching ? 'h-4 w-4 animate-spin' : 'h-4 w-4'} />
          Refresh
        </Button>
      </header>

      <RecipientFilter to={to} onChange={(next) => setParams(next ? { to: next } : {})} />

      {mailbox.isPending ? (
        <Spinner label="Loading mails..." />
      ) : mailbox.isError ? (
        <p role="alert" className="text-danger">
          Could not load the mailbox: {mailbox.error.message}
        </p>
      ) : mailbox.data.mails.length === 0 ? (
        <Card className="text-center text-muted">{to ? `No mails to ${to} yet.` : 'No mails yet.'}</Card>
      ) : (
        <div className="space-y-6">
          {mailbox.data.mails.map((mail) => (
            <MailCard key={mail.id} mail={mail} />
          ))}
        </div>
      )}
    </main>
  );
}
