import { CheckCircle2, Clock3, Layers } from 'lucide-react';
import { cleanStrategyTitle, splitParagraphs, type Strategy } from '@shared/content';
import { BackLink } from '@client/components/content/back-link';
import { NumberedSection, SidebarCard } from '@client/components/content/content-cards';
import { ContentImage } from '@client/components/content/content-image';
import { DifficultyBadge, ReadTime, SectionCount } from '@client/components/content/content-meta';
import { Badge } from '@client/components/ui/badge';
import { Card } from '@client/components/ui/card';
import { cn } from '@client/lib/cn';
import { useStrategy } from '../api/get-strategy';
import { LoadError } from './strategy-parts';

// Reading style for the section HTML the server renders (and sanitises) from Markdown.
const SECTION_PROSE = cn(
  'text-[15.5px] leading-7 text-slate-300',
  '[&_p]:my-4 [&>*:first-child]:mt-0 [&>*:last-child]:mb-0',
  '[&_strong]:font-semibold [&_strong]:text-white [&_em]:text-slate-200',
  '[&_ul]:my-4 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6 [&_ul_li]:marker:text-primary',
  '[&_ol]:my-4 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-6 [&_ol_li]:marker:font-semibold [&_ol_li]:marker:text-primary',
  '[&_li]:pl-1.5',
  '[&_h3]:mb-3 [&_h3]:mt-8 [&_h3]:text-lg [&_h3]:font-semibold [&_h3]:text-white [&_h4]:mt-6 [&_h4]:font-semibold [&_h4]:text-white',
  '[&_a]:font-medium [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4',
  '[&_code]:rounded-md [&_code]:bg-white/10 [&_code]:px-1.5 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-[0.85em] [&_code]:text-emerald-300',
  '[&_blockquote]:my-6 [&_blockquote]:rounded-r-xl [&_blockquote]:border-l-2 [&_blockquote]:border-primary/70 [&_blockquote]:bg-primary/5 [&_blockquote]:py-1 [&_blockquote]:pl-5 [&_blockquote]:pr-4',
  '[&_table]:my-6 [&_table]:w-full [&_table]:border-collapse [&_table]:overflow-hidden [&_table]:rounded-xl [&_table]:text-sm',
  '[&_th]:border-b [&_th]:border-border [&_th]:bg-white/[0.04] [&_th]:px-4 [&_th]:py-3 [&_th]:text-left [&_th]:text-xs [&_th]:font-semibold [&_th]:uppercase [&_th]:tracking-wider [&_th]:text-muted',
  '[&_td]:border-b [&_td]:border-border [&_td]:px-4 [&_td]:py-3 [&_td]:align-top',
  // The server gives each image its width and height; h-auto keeps that ratio as CSS scales it.
  '[&_img]:my-6 [&_img]:h-auto [&_img]:w-full [&_img]:max-w-full [&_img]:rounded-xl [&_img]:border [&_img]:border-border',
  '[&_hr]:my-8 [&_hr]:border-border',
);

const isDisclaimer = (section: Strategy['sections'][number]) => /^disclaimer$/i.test(section.title.trim());

/** A strategy as members read it (also the console's preview of a draft). */
export function StrategyArticle({ strategy }: { strategy: Strategy }) {
  const sections = strategy.sections.filter((section) => !isDisclaimer(section));
  const disclaimers = strategy.sections.filter(isDisclaimer);

  return (
    <article>
      <header>
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone="neutral">
            {strategy.strategyType}
          </Badge>
          <DifficultyBadge difficulty={strategy.difficulty} />
        </div>
        <h1 className="mt-4 text-3xl font-bold tracking-tight text-white lg:text-4xl">{cleanStrategyTitle(strategy.title)}</h1>
        <dl className="mt-4 flex flex-wrap gap-x-6 gap-y-2 text-sm text-muted">
          <div>
            <dt className="sr-only">Read time</dt>
            <dd>
              <ReadTime minutes={strategy.estimatedReadTime} />
            </dd>
          </div>
          <div>
            <dt className="sr-only">Sections</dt>
            <dd>
              <SectionCount count={strategy.sectionCount} />
            </dd>
          </div>
          <div className="flex gap-1.5">
            <dt>Type:</dt>
            <dd className="text-white">{strategy.strategyType}</dd>
          </div>
          <div className="flex gap-1.5">
            <dt>Difficulty:</dt>
            <dd className="capitalize text-white">{strategy.difficulty}</dd>
          </div>
        </dl>
      </header>

      <ContentImage
        src={strategy.heroImage}
        alt=""
        size={strategy.images[strategy.heroImage]}
        eager
        className="mt-8 aspect-[21/9] w-full rounded-3xl border border-border bg-black/30 object-cover"
      />

      <div className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,1fr)_320px]">
        <Card className="p-8">
          <h2 className="text-sm font-semibold uppercase tracking-wider text-muted">Introduction</h2>
          <div className="mt-4 space-y-4 text-[16.5px] leading-8 text-slate-200">
            {splitParagraphs(strategy.introduction).map((paragraph, index) => (
              <p key={index}>{paragraph}</p>
            ))}
          </div>
        </Card>
        <div className="space-y-6">
          <SidebarCard title="Timeframes" icon={Clock3}>
            <ul className="mt-3 flex flex-wrap gap-2" aria-label="Timeframes">
              {strategy.timeframes.map((timeframe) => (
                <li key={timeframe} className="rounded-lg border border-border bg-white/5 px-3 py-1 text-sm font-semibold text-white">
                  {timeframe}
                </li>
              ))}
            </ul>
          </SidebarCard>
          <SidebarCard title="Indicators Required" icon={Layers}>
            <ul className="mt-3 space-y-2.5">
              {strategy.indicatorsRequired.map((indicator) => (
                <li key={indicator} className="flex gap-2.5 text-sm leading-6 text-slate-300">
                  <CheckCircle2 aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-primary" />
                  {indicator}
                </li>
              ))}
            </ul>
          </SidebarCard>
        </div>
      </div>

      <div className="mt-10 space-y-6">
        {sections.map((section, index) => (
          <NumberedSection
            key={section.id}
            number={index + 1}
            title={section.title}
            titleId={`strategy-section-${section.id}`}
            image={section.image}
            imageAlt={section.imageAlt}
            imageSize={section.image ? strategy.images[section.image] : undefined}
          >
            {/* Sanitised on the server (content-loader renderHtml): only an allow-list of tags, our own images. */}
            <div className={cn(SECTION_PROSE, 'mt-6 max-w-[75ch]')} dangerouslySetInnerHTML={{ __html: section.html }} />
          </NumberedSection>
        ))}
      </div>

      {disclaimers.map((section) => (
        <aside key={section.id} aria-label={section.title} data-testid="strategy-disclaimer" className="mt-10 border-t border-border pt-6">
          <h2 className="text-xs font-semibold uppercase tracking-wider text-muted">{section.title}</h2>
          <div
            className="mt-2 text-xs leading-5 text-muted/80 [&_p]:my-2 [&_strong]:font-semibold [&_a]:underline"
            dangerouslySetInnerHTML={{ __html: section.html }}
          />
        </aside>
      ))}

    </article>
  );
}

/** One strategy in full; opened from the grid without changing the URL. */
export function StrategyDetail({ strategyId, onBack }: { strategyId: string; onBack: () => void }) {
  const strategy = useStrategy(strategyId);
  return (
    <div>
      <BackLink onClick={onBack} className="mb-6">
        Back to Strategies
      </BackLink>
      {strategy.isPending ? (
        <div role="status" aria-label="Loading" className="space-y-4">
          <div className="h-10 w-2/3 animate-pulse rounded bg-white/10" />
          <div className="aspect-[21/9] animate-pulse rounded-3xl border border-border bg-card/60" />
        </div>
      ) : strategy.isError ? (
        <LoadError error={strategy.error} onRetry={() => void strategy.refetch()} notFoundTitle="Strategy Not Found" />
      ) : (
        <StrategyArticle strategy={strategy.data} />
      )}
    </div>
  );
}
