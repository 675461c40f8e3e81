// /admin/content/new?kind=guide|strategy|feature and /admin/content/:itemId: the front matter as
// form fields, the Markdown beside a preview rendered by the member area's own components, image
// upload, Save draft, Publish, Schedule, Unpublish, who sees it (plans, drip) and Revisions.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { GUIDE_DIFFICULTIES, STRATEGY_DIFFICULTIES } from '@shared/content';
import { CONTENT_KINDS, type ContentItem, type ContentKind, type SaveContentRequest } from '@shared/content-studio';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card, CardTitle } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { ApiRequestError } from '@client/lib/api/api-client';
import { AdminPageHeader, LoadError } from '@client/components/console/admin-page';
import { dateTimeText } from '@client/lib/console-format';
import {
  previewContent,
  useContentImages,
  useContentItem,
  useContentList,
  useCreateContent,
  usePublishContent,
  useRestoreRevision,
  useSaveContent,
  useUnpublishContent,
} from './content-api';
import { statusText } from './content-page';
import { useContentPreviewRenderer } from './preview-context';
import { UploadImageLink, type Notice } from './upload-image-link';

const FIELD = 'h-9 w-full rounded-lg border border-border bg-transparent px-2 text-sm';
const KIND_WORD: Record<ContentKind, string> = { guide: 'guide', feature: 'feature', strategy: 'strategy' };

type Draft = { kind: ContentKind; slug: string; parentSlug: string | null; frontMatter: Record<string, unknown>; body: string; plans: string[]; dripDays: number };

const NEW_DRAFT: Record<ContentKind, Omit<Draft, 'kind'>> = {
  guide: { slug: '', parentSlug: null, frontMatter: { difficulty: 'beginner', type: 'guide', estimatedReadTime: 5, layout: 'long-form' }, body: 'Introduction.\n\n## First section\n\nText.', plans: [], dripDays: 0 },
  strategy: {
    slug: '',
    parentSlug: null,
    frontMatter: { difficulty: 'easy', strategyType: 'Trend following', estimatedReadTime: 5, timeframes: ['1H'], indicatorsRequired: [] },
    body: 'Introduction.\n\n## Setup\n\nText.',
    plans: [],
    dripDays: 0,
  },
  feature: { slug: '', parentSlug: null, frontMatter: { estimatedReadTime: 3 }, body: 'What it does.\n\nSetting\tDescription\nLength\tHow many bars it reads.', plans: [], dripDays: 0 },
};

export const slugOf = (title: string) =>
  title
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);

const errorText = (error: unknown, fallback: string) => (error instanceof ApiRequestError ? error.message : fallback);

function Field({ label, children, hint }: { label: string; children: ReactNode; hint?: string }) {
  return (
    <label className="grid gap-1 text-sm">
      {label}
      {children}
      {hint ? <span className="text-xs text-muted">{hint}</span> : null}
    </label>
  );
}

/** A comma-separated list typed as text (kept as typed while editing) and sent as strings. */
function ListField({ label, value, onChange, hint }: { label: string; value: unknown; onChange: (items: string[]) => void; hint?: string }) {
  const [text, setText] = useState(Array.isArray(value) ? value.join(', ') : '');
  return (
    <Field label={label} hint={hint}>
      <input
        className={FIELD}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          onChange(
            event.target.value
              .split(',')
              .map((item) => item.trim())
              .filter(Boolean),
          );
        }}
      />
    </Field>
  );
}

function ImageSelect({ label, value, onChange, images }: { label: string; value: unknown; onChange: (name: string) => void; images: string[] }) {
  return (
    <Field label={label}>
      <select className={FIELD} value={typeof value === 'string' ? value : ''} onChange={(event) => onChange(event.target.value)}>
        <option value="">Choose an image</option>
        {images.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** The member area's view of the draft, asked of the server a moment after the last keystroke. */
function Preview({ draft }: { draft: Draft }) {
  const render = useContentPreviewRenderer();
  const request = JSON.stringify(draft);
  const [asked, setAsked] = useState(request);
  useEffect(() => {
    const timer = setTimeout(() => setAsked(request), 500);
    return () => clearTimeout(timer);
  }, [request]);
  const preview = useQuery({
    queryKey: ['admin', 'content', 'preview', asked],
    queryFn: ({ signal }) => previewContent(JSON.parse(asked) as SaveContentRequest, signal),
    enabled: draft.slug !== '',
    retry: false,
    placeholderData: keepPreviousData,
  });
  const error = draft.slug === '' ? 'Give it a title to see the preview.' : preview.isError ? errorText(preview.error, 'The preview could not be built.') : null;

  return (
    <section aria-label="Preview" className="min-w-0 rounded-2xl border border-dashed border-border p-4">
      <p className="mb-3 flex items-center gap-2 text-xs font-semibold uppercase tracking-wider text-muted">
        Preview {preview.isFetching ? <span className="font-normal normal-case">updating…</span> : null}
      </p>
      {error ? (
        <p role="alert" className="text-sm text-yellow-300">
          {error}
        </p>
      ) : null}
      {!error && preview.data ? (
        <>
          {preview.data.warnings.map((warning) => (
            <p key={warning} className="mb-2 text-sm text-yellow-300">
              {warning}
            </p>
          ))}
          {render ? <div data-testid="content-preview">{render(preview.data)}</div> : null}
        </>
      ) : null}
    </section>
  );
}

function FrontMatterFields({ draft, set, images, productGuides, isNew }: { draft: Draft; set: (change: Partial<Draft>) => void; images: string[]; productGuides: string[]; isNew: boolean }) {
  const fm = draft.frontMatter;
  const setFm = (key: string, value: unknown) => set({ frontMatter: { ...fm, [key]: value } });
  const text = (key: string) => (typeof fm[key] === 'string' ? (fm[key] as string) : '');
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <Field label="Title">
        <input
          className={FIELD}
          value={text('title')}
          onChange={(event) => set({ frontMatter: { ...fm, title: event.target.value }, ...(isNew ? { slug: slugOf(event.target.value) } : {}) })}
          maxLength={200}
        />
      </Field>
      <Field label="Slug" hint={isNew ? 'Its address: lower-case letters, digits and dashes.' : 'Fixed once created.'}>
        <input className={FIELD} value={draft.slug} disabled={!isNew} onChange={(event) => set({ slug: event.target.value })} maxLength={80} />
      </Field>
      <div className="sm:col-span-2">
        <Field label="Description">
          <input className={FIELD} value={text('description')} onChange={(event) => setFm('description', event.target.value)} maxLength={400} />
        </Field>
      </div>
      {draft.kind === 'feature' ? (
        <Field label="Product guide">
          <select className={FIELD} value={draft.parentSlug ?? ''} disabled={!isNew} onChange={(event) => set({ parentSlug: event.target.value || null })}>
            <option value="">Choose a guide</option>
            {productGuides.map((slug) => (
              <option key={slug} value={slug}>
                {slug}
              </option>
            ))}
          </select>
        </Field>
      ) : (
        <Field label="Difficulty">
          <select className={FIELD} value={text('difficulty')} onChange={(event) => setFm('difficulty', event.target.value)}>
            {(draft.kind === 'guide' ? GUIDE_DIFFICULTIES : STRATEGY_DIFFICULTIES).map((difficulty) => (
              <option key={difficulty} value={difficulty}>
                {difficulty}
              </option>
            ))}
          </select>
        </Field>
      )}
      <Field label="Read time (minutes)">
        <input className={FIELD} type="number" min={1} value={typeof fm.estimatedReadTime === 'number' ? fm.estimatedReadTime : ''} onChange={(event) => setFm('estimatedReadTime', event.target.value === '' ? undefined : Number(event.target.value))} />
      </Field>
      {draft.kind === 'guide' ? (
        <>
          <Field label="Layout">
            <select
              className={FIELD}
              value={text('layout')}
              onChange={(event) => set({ frontMatter: { ...fm, layout: event.target.value || undefined, type: event.target.value === 'feature-list' ? 'product' : (fm.type ?? 'guide') } })}
            >
              <option value="">Automatic (as before)</option>
              <option value="long-form">Long form with sections</option>
              <option value="single-page">Tutorial (one page)</option>
              <option value="feature-list">Product with features</option>
            </select>
          </Field>
          <Field label="Type">
            <select className={FIELD} value={text('type') || 'guide'} onChange={(event) => setFm('type', event.target.value)}>
              <option value="guide">Guide</option>
              <option value="product">Product (has features)</option>
            </select>
          </Field>
          <ImageSelect label="Card image" value={fm.previewImage} onChange={(name) => setFm('previewImage', name)} images={images} />
          <ListField label="Related guides" value={fm.relatedGuides} onChange={(items) => setFm('relatedGuides', items)} hint="Slugs, separated by commas." />
        </>
      ) : null}
      {draft.kind === 'strategy' ? (
        <>
          <Field label="Strategy type">
            <input className={FIELD} value={text('strategyType')} onChange={(event) => setFm('strategyType', event.target.value)} />
          </Field>
          <ListField label="Timeframes" value={fm.timeframes} onChange={(items) => setFm('timeframes', items)} hint="e.g. 4H, 1H" />
          <ListField label="Indicators required" value={fm.indicatorsRequired} onChange={(items) => setFm('indicatorsRequired', items)} hint="Separated by commas." />
          <ListField label="Related strategies" value={fm.relatedStrategies} onChange={(items) => setFm('relatedStrategies', items)} hint="Slugs, separated by commas." />
          <ImageSelect label="Card image" value={fm.previewImage} onChange={(name) => setFm('previewImage', name)} images={images} />
          <ImageSelect label="Hero image" value={fm.heroImage} onChange={(name) => setFm('heroImage', name)} images={images} />
        </>
      ) : null}
    </div>
  );
}

function WhoSees({ draft, set, planSlugs }: { draft: Draft; set: (change: Partial<Draft>) => void; planSlugs: string[] }) {
  if (draft.kind === 'feature') return <p className="text-sm text-muted">A feature is seen by whoever sees its product guide.</p>;
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <fieldset className="text-sm">
        <legend className="mb-1">Plans (none checked: every member with access)</legend>
        <div className="flex flex-wrap gap-3">
          {planSlugs.map((plan) => (
            <label key={plan} className="inline-flex items-center gap-1">
              <input type="checkbox" checked={draft.plans.includes(plan)} onChange={(event) => set({ plans: event.target.checked ? [...draft.plans, plan] : draft.plans.filter((p) => p !== plan) })} />
              {plan}
            </label>
          ))}
        </div>
      </fieldset>
      <Field label="Visible after (days from first payment)" hint="0: at once.">
        <input className={FIELD} type="number" min={0} max={3650} value={draft.dripDays} onChange={(event) => set({ dripDays: Math.max(0, Number(event.target.value) || 0) })} />
      </Field>
    </div>
  );
}

function Revisions({ item, onRestored }: { item: ContentItem; onRestored: (item: ContentItem) => void }) {
  const restore = useRestoreRevision();
  const [error, setError] = useState<string | null>(null);
  return (
    <Card className="space-y-3">
      <CardTitle>Revisions</CardTitle>
      {error ? (
        <p role="alert" className="text-sm text-red-300">
          {error}
        </p>
      ) : null}
      <ol className="divide-y divide-border text-sm">
        {item.revisions.map((revision) => (
          <li key={revision.id} className="flex items-center justify-between gap-3 py-2">
            <span>
              <span className="font-medium text-white">{revision.action}</span> · {revision.title} · {dateTimeText(revision.createdAt)}
              {revision.createdBy ? ` · ${revision.createdBy}` : ''}
            </span>
            <Button
              size="sm"
              variant="outline"
              aria-label={`Restore revision ${revision.id}`}
              onClick={async () => {
                setError(null);
                try {
                  onRestored(await restore.mutateAsync({ id: item.id, revision: revision.id }));
                } catch (caught) {
                  setError(errorText(caught, 'The revision could not be restored.'));
                }
              }}
            >
              Restore
            </Button>
          </li>
        ))}
      </ol>
    </Card>
  );
}

function Editor({ initial, item }: { initial: Draft; item: ContentItem | null }) {
  const id = useId();
  const list = useContentList();
  const images = useContentImages();
  const create = useCreateContent();
  const save = useSaveContent();
  const publish = usePublishContent();
  const unpublish = useUnpublishContent();
  const [draft, setDraft] = useState<Draft>(initial);
  const [current, setCurrent] = useState<ContentItem | null>(item);
  const [scheduleAt, setScheduleAt] = useState('');
  const [message, setMessage] = useState<Notice | null>(null);
  const body = useRef<HTMLTextAreaElement>(null);
  const set = (change: Partial<Draft>) => setDraft((previous) => ({ ...previous, ...change }));
  const isNew = current === null;
  const imageNames = images.data?.images.map((image) => image.name) ?? [];
  const productGuides = list.data?.items.filter((candidate) => candidate.kind === 'guide').map((candidate) => candidate.slug) ?? [];

  const request = (): SaveContentRequest => ({ kind: draft.kind, slug: draft.slug, parentSlug: draft.kind === 'feature' ? draft.parentSlug : null, frontMatter: draft.frontMatter, body: draft.body, plans: draft.plans, dripDays: draft.dripDays });

  /** Saves (creating the piece the first time); the piece as saved, or null after a refusal shown. */
  async function saveDraft(): Promise<ContentItem | null> {
    try {
      const saved = current ? await save.mutateAsync({ id: current.id, body: request() }) : await create.mutateAsync(request());
      setCurrent(saved);
      return saved;
    } catch (error) {
      setMessage({ ok: false, text: errorText(error, 'The draft could not be saved.') });
      return null;
    }
  }

  async function run(action: 'save' | 'publish' | 'schedule' | 'unpublish') {
    setMessage(null);
    if (action === 'unpublish') {
      if (!current) return;
      try {
        setCurrent(await unpublish.mutateAsync(current.id));
        setMessage({ ok: true, text: 'Unpublished: members no longer see it.' });
      } catch (error) {
        setMessage({ ok: false, text: errorText(error, 'It could not be unpublished.') });
      }
      return;
    }
    const saved = await saveDraft();
    if (!saved) return;
    if (action === 'save') {
      setMessage({ ok: true, text: saved.warnings.length ? `Draft saved. ${saved.warnings.join(' ')}` : 'Draft saved.' });
      return;
    }
    if (action === 'schedule' && !scheduleAt) {
      setMessage({ ok: false, text: 'Choose the date and time to publish at.' });
      return;
    }
    try {
      const publishAt = action === 'schedule' ? new Date(scheduleAt).toISOString() : null;
      const published = await publish.mutateAsync({ id: saved.id, publishAt });
      setCurrent(published);
      setMessage({ ok: true, text: published.status === 'scheduled' ? `Scheduled for ${dateTimeText(published.publishAt)}.` : 'Published: members see it now.' });
    } catch (error) {
      setMessage({ ok: false, text: errorText(error, 'It could not be published.') });
    }
  }

  const busy = create.isPending || save.isPending || publish.isPending || unpublish.isPending;

  return (
    <div className="space-y-6">
      <AdminPageHeader title={isNew ? `New ${KIND_WORD[draft.kind]}` : (typeof draft.frontMatter.title === 'string' && draft.frontMatter.title) || draft.slug} description={current ? statusText(current) : 'Not saved yet.'}>
        <Link to="/admin/content" className="text-sm text-primary hover:underline">
          All content
        </Link>
      </AdminPageHeader>
      {current ? (
        <div className="flex gap-2">
          <Badge tone={current.status === 'published' ? 'green' : current.status === 'scheduled' ? 'yellow' : 'neutral'}>{statusText(current)}</Badge>
        </div>
      ) : null}
      <div className="grid gap-6 xl:grid-cols-2">
        <div className="min-w-0 space-y-6">
          <Card className="space-y-4">
            <FrontMatterFields draft={draft} set={set} images={imageNames} productGuides={productGuides} isNew={isNew} />
            <div className="grid gap-1 text-sm">
              <div className="flex items-center justify-between">
                <label htmlFor={`${id}-body`}>Text (Markdown)</label>
                <UploadImageLink
                  onNotice={setMessage}
                  onUploaded={(image) => {
                    const at = body.current?.selectionStart ?? draft.body.length;
                    const line = `\n\n![${image.name.replace(/\.\w+$/, '').replace(/[-_]+/g, ' ')}](${image.name})\n\n`;
                    set({
                      body: draft.body.slice(0, at) + line + draft.body.slice(at),
                      // the first image is also the card's, until another is chosen
                      ...(draft.kind !== 'feature' && !draft.frontMatter.previewImage ? { frontMatter: { ...draft.frontMatter, previewImage: image.name, ...(draft.kind === 'strategy' && !draft.frontMatter.heroImage ? { heroImage: image.name } : {}) } } : {}),
                    });
                    return `${image.name} uploaded and placed in the text.`;
                  }}
                />
              </div>
              <textarea
                id={`${id}-body`}
                ref={body}
                className="min-h-80 rounded-lg border border-border bg-black/20 p-3 font-mono text-sm"
                value={draft.body}
                onChange={(event) => set({ body: event.target.value })}
                spellCheck
              />
              <span className="text-xs text-muted">Text before the first &quot;## &quot; heading is the introduction; each &quot;## &quot; starts a section. A line with only an image is the section&apos;s illustration.</span>
            </div>
          </Card>
          <Card className="space-y-3">
            <CardTitle>Who sees it</CardTitle>
            <WhoSees draft={draft} set={set} planSlugs={list.data?.planSlugs ?? []} />
          </Card>
          <Card className="flex flex-wrap items-end gap-3">
            <Button variant="secondary" disabled={busy} onClick={() => void run('save')}>
              Save draft
            </Button>
            <Button disabled={busy} onClick={() => void run('publish')}>
              Publish
            </Button>
            <label className="grid gap-1 text-sm">
              Publish at
              <input type="datetime-local" className={FIELD} value={scheduleAt} onChange={(event) => setScheduleAt(event.target.value)} />
            </label>
            <Button variant="outline" disabled={busy} onClick={() => void run('schedule')}>
              Schedule
            </Button>
            {current && current.status !== 'draft' ? (
              <Button variant="ghost" disabled={busy} onClick={() => void run('unpublish')}>
                Unpublish
              </Button>
            ) : null}
            {message ? (
              <p role={message.ok ? 'status' : 'alert'} className={message.ok ? 'w-full text-sm text-green-400' : 'w-full text-sm text-red-300'}>
                {message.text}
              </p>
            ) : null}
          </Card>
          {current ? (
            <Revisions
              item={current}
              onRestored={(restored) => {
                setCurrent(restored);
                setDraft({ kind: restored.kind, slug: restored.slug, parentSlug: restored.parentSlug, frontMatter: restored.frontMatter, body: restored.body, plans: restored.plans, dripDays: restored.dripDays });
                setMessage({ ok: true, text: 'Revision restored into the draft: Publish to make it what members read.' });
              }}
            />
          ) : null}
        </div>
        <Preview draft={draft} />
      </div>
    </div>
  );
}

export function ContentEditorPage() {
  const { itemId } = useParams();
  const [params] = useSearchParams();
  const item = useContentItem(itemId ?? null);
  if (!itemId) {
    const requested = params.get('kind');
    const kind: ContentKind = CONTENT_KINDS.find((candidate) => candidate === requested) ?? 'guide';
    return <Editor key={`new-${kind}`} initial={{ kind, ...NEW_DRAFT[kind] }} item={null} />;
  }
  if (item.isPending) return <Spinner label="Loading..." />;
  if (item.isError) return <LoadError what="this piece" />;
  const loaded = item.data;
  return (
    <Editor
      key={loaded.id}
      item={loaded}
      initial={{ kind: loaded.kind, slug: loaded.slug, parentSlug: loaded.parentSlug, frontMatter: loaded.frontMatter, body: loaded.body, plans: loaded.plans, dripDays: loaded.dripDays }}
    />
  );
}
