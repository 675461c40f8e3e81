// /admin/content: every guide, feature and strategy with its status, the New buttons, the image
// library, and What's new (announcements).
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { ContentItemSummary, ContentStatus } from '@shared/content-studio';
import { DataTable, type Column } from '@client/components/data-table';
import { Badge, type BadgeTone } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card, CardDescription, CardTitle } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { ApiRequestError } from '@client/lib/api/api-client';
import { AdminPageHeader, CONSOLE_FIELD, LoadError } from '@client/components/console/admin-page';
import { dateTimeText } from '@client/lib/console-format';
import { useAdminAnnouncements, useContentImages, useContentList, usePostAnnouncement } from './content-api';
import { UploadImageLink, type Notice } from './upload-image-link';

const STATUS_TONE: Record<ContentStatus, BadgeTone> = { draft: 'neutral', scheduled: 'yellow', published: 'green' };
const KIND_LABEL = { guide: 'Guide', feature: 'Feature', strategy: 'Strategy' } as const;

export const statusText = (item: Pick<ContentItemSummary, 'status' | 'publishAt' | 'unpublishedChanges'>) =>
  item.status === 'scheduled' && item.publishAt ? `Scheduled ${dateTimeText(item.publishAt)}` : item.status === 'published' ? (item.unpublishedChanges ? 'Published, draft changed' : 'Published') : 'Draft';

function Pieces() {
  const list = useContentList();
  if (list.isPending) return <Spinner label="Loading content..." />;
  if (list.isError) return <LoadError what="the content" />;
  const columns: Column<ContentItemSummary>[] = [
    {
      header: 'Title',
      cell: (item) => (
        <Link to={`/admin/content/${item.id}`} className="font-medium text-white hover:underline">
          {item.title}
        </Link>
      ),
    },
    { header: 'Kind', cell: (item) => (item.kind === 'feature' ? `Feature of ${item.parentSlug}` : KIND_LABEL[item.kind]) },
    { header: 'Status', cell: (item) => <Badge tone={STATUS_TONE[item.status]}>{statusText(item)}</Badge> },
    { header: 'Who sees it', cell: (item) => [item.plans.length ? item.plans.join(', ') : 'Every member', item.dripDays ? `after ${item.dripDays} days` : ''].filter(Boolean).join(', ') },
    { header: 'Updated', cell: (item) => `${dateTimeText(item.updatedAt)}${item.updatedBy ? ` by ${item.updatedBy}` : ''}` },
  ];
  if (list.data.items.length === 0) return <p className="text-sm text-muted">Nothing written yet.</p>;
  return <DataTable caption="Guides, features and strategies" columns={columns} rows={list.data.items} rowKey={(item) => item.id} />;
}

function Images() {
  const images = useContentImages();
  const [message, setMessage] = useState<Notice | null>(null);
  return (
    <Card className="space-y-3">
      <CardTitle>Images</CardTitle>
      <CardDescription>SVG, PNG, JPEG, WebP or GIF up to 5 MB; write one into a text as ![description](file-name.png).</CardDescription>
      <UploadImageLink className="inline-flex items-center gap-2" onUploaded={(image) => `${image.name} uploaded (${image.width}×${image.height}).`} onNotice={setMessage} />
      {message ? (
        <p role={message.ok ? 'status' : 'alert'} className={message.ok ? 'text-sm text-green-400' : 'text-sm text-red-300'}>
          {message.text}
        </p>
      ) : null}
      <p className="text-xs text-muted">{images.data ? `${images.data.images.length} images: ${images.data.images.map((image) => image.name).join(', ')}` : ''}</p>
    </Card>
  );
}

function Announcements({ planSlugs }: { planSlugs: string[] }) {
  const id = useId();
  const list = useAdminAnnouncements();
  const post = usePostAnnouncement();
  const [form, setForm] = useState({ title: '', body: '', scriptId: '', plans: [] as string[], notify: true });
  const [message, setMessage] = useState<Notice | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setMessage(null);
    try {
      const posted = await post.mutateAsync({ title: form.title, body: form.body, scriptId: form.scriptId.trim() || null, plans: form.plans, notify: form.notify });
      setMessage({ ok: true, text: `Posted. ${posted.mailsQueued} e-mails queued; Discord: ${posted.discord}.` });
      setForm({ title: '', body: '', scriptId: '', plans: [], notify: true });
    } catch (error) {
      setMessage({ ok: false, text: error instanceof ApiRequestError ? error.message : 'The announcement could not be posted.' });
    }
  }

  return (
    <Card aria-labelledby={`${id}-title`} className="space-y-4">
      <div>
        <CardTitle id={`${id}-title`}>What&apos;s new</CardTitle>
        <CardDescription>An update members with access see on their dashboard, by e-mail (unless they turned it off) and in Discord.</CardDescription>
      </div>
      <form className="grid gap-3" onSubmit={(event) => void submit(event)} noValidate>
        <div className="grid gap-3 sm:grid-cols-2">
          <label className="grid gap-1 text-sm">
            Title
            <input className={CONSOLE_FIELD} value={form.title} maxLength={140} onChange={(event) => setForm({ ...form, title: event.target.value })} placeholder="Pro V2 2.3" />
          </label>
          <label className="grid gap-1 text-sm">
            Script or product (optional)
            <input className={CONSOLE_FIELD} value={form.scriptId} maxLength={120} onChange={(event) => setForm({ ...form, scriptId: event.target.value })} placeholder="Pro V2" />
          </label>
        </div>
        <label className="grid gap-1 text-sm">
          Update
          <textarea className="min-h-24 rounded-lg border border-border bg-transparent p-2 text-sm" value={form.body} onChange={(event) => setForm({ ...form, body: event.target.value })} placeholder="Remove and re-add the indicator on your charts." />
        </label>
        <fieldset className="flex flex-wrap items-center gap-3 text-sm">
          <legend className="mb-1 text-sm">Plans (none checked: every member with access)</legend>
          {planSlugs.map((plan) => (
            <label key={plan} className="inline-flex items-center gap-1">
              <input type="checkbox" checked={form.plans.includes(plan)} onChange={(event) => setForm({ ...form, plans: event.target.checked ? [...form.plans, plan] : form.plans.filter((p) => p !== plan) })} />
              {plan}
            </label>
          ))}
        </fieldset>
        <label className="inline-flex items-center gap-2 text-sm">
          <input type="checkbox" checked={form.notify} onChange={(event) => setForm({ ...form, notify: event.target.checked })} />
          E-mail members and post to Discord
        </label>
        <div>
          <Button type="submit" disabled={post.isPending}>
            Post announcement
          </Button>
        </div>
        {message ? (
          <p role={message.ok ? 'status' : 'alert'} className={message.ok ? 'text-sm text-green-400' : 'text-sm text-red-300'}>
            {message.text}
          </p>
        ) : null}
      </form>
      <ul className="divide-y divide-border text-sm">
        {list.data?.announcements.map((announcement) => (
          <li key={announcement.id} className="py-2">
            <span className="font-medium text-white">{announcement.title}</span> · {dateTimeText(announcement.publishedAt)} · {announcement.mailsQueued} e-mails · Discord: {announcement.discord}
            {Object.entries(announcement.posts).map(([name, status]) => ` · ${name.charAt(0).toUpperCase()}${name.slice(1)}: ${status}`).join('')}
          </li>
        ))}
      </ul>
    </Card>
  );
}

export function ContentPage() {
  const list = useContentList();
  const hasProducts = list.data?.items.some((item) => item.kind === 'guide') ?? false;
  return (
    <div className="space-y-6">
      <AdminPageHeader title="Content" description="Guides, product features and strategies members read; drafts stay yours until you publish.">
        <div className="flex gap-2">
          <Button asChild>
            <Link to="/admin/content/new?kind=guide">New guide</Link>
          </Button>
          <Button asChild variant="secondary">
            <Link to="/admin/content/new?kind=strategy">New strategy</Link>
          </Button>
          {hasProducts ? (
            <Button asChild variant="outline">
              <Link to="/admin/content/new?kind=feature">New feature</Link>
            </Button>
          ) : null}
        </div>
      </AdminPageHeader>
      <Pieces />
      <Images />
      <Announcements planSlugs={list.data?.planSlugs ?? []} />
    </div>
  );
}
