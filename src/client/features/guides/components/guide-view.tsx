import { ArrowRight, BookOpen, ListTree } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { splitParagraphs, type Guide } from '@shared/content';
import { NumberBadge, NumberedSection, SidebarCard } from '@client/components/content/content-cards';
import { ContentImage } from '@client/components/content/content-image';
import { DifficultyBadge, MetaRow, ReadTime } from '@client/components/content/content-meta';
import { Card } from '@client/components/ui/card';
import { cn } from '@client/lib/cn';
import { scrollToSettled } from '@client/lib/scroll-to-settled';
import { useGuides } from '../api/get-guides';
import { featureHref, featureNumber, GuideCount, GuideLoader, guideHref } from './guide-parts';
import { Markdown } from './markdown';
import { useSectionSpy } from '../use-section-spy';

function GuideHeader({ guide, showCount = true }: { guide: Guide; showCount?: boolean }) {
  return (
    <header className="mb-8">
      <DifficultyBadge difficulty={guide.difficulty} />
      <h1 className="mt-3 text-3xl font-bold tracking-tight text-white lg:text-4xl">{guide.title}</h1>
      <p className="mt-3 max-w-3xl text-base leading-7 text-muted">{guide.description}</p>
      <MetaRow className="mt-4 gap-x-5 text-sm">
        <ReadTime minutes={guide.estimatedReadTime} />
        {showCount && <GuideCount guide={guide} />}
      </MetaRow>
    </header>
  );
}

function RelatedGuides({ ids }: { ids: string[] }) {
  const guides = useGuides();
  const related = ids.flatMap((id) => guides.data?.find((guide) => guide.id === id) ?? []);
  if (related.length === 0) return null;
  return (
    <SidebarCard title="Related Guides">
      <ul className="mt-3 space-y-2">
        {related.map((guide) => (
          <li key={guide.id}>
            <Link to={guideHref(guide)} className="group block rounded-xl border border-transparent p-3 transition-colors hover:border-border hover:bg-white/5">
              <span className="flex items-center justify-between gap-2">
                <span className="text-sm font-medium text-white">{guide.title}</span>
                <ArrowRight aria-hidden="true" className="h-4 w-4 shrink-0 text-muted transition-transform group-hover:translate-x-0.5" />
              </span>
              <span className="mt-1.5 flex items-center gap-3 text-xs text-muted">
                <DifficultyBadge difficulty={guide.difficulty} />
                <ReadTime minutes={guide.estimatedReadTime} />
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </SidebarCard>
  );
}

/** The features of a product guide as numbered cards, each leading to its documentation. */
function FeatureCards({ guide }: { guide: Guide }) {
  if (guide.features.length === 0) return null;
  return (
    <ol className="mt-8 space-y-4">
      {guide.features.map((feature, index) => (
        <li key={feature.id} id={`feature-${feature.id}`} className="scroll-mt-24">
          <Card className="flex gap-5 p-6">
            <NumberBadge>{featureNumber(index)}</NumberBadge>
            <div className="min-w-0 flex-1">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 className="text-lg font-semibold text-white">{feature.title}</h2>
                <span className="text-xs text-muted">
                  <ReadTime minutes={feature.estimatedReadTime} />
                </span>
              </div>
              <p className="mt-1.5 text-sm leading-6 text-muted">{feature.description}</p>
              <Link to={featureHref(guide.id, feature.id)} className="mt-3 inline-block text-sm font-semibold text-primary hover:underline">
                Learn More <span aria-hidden="true">→</span>
              </Link>
            </div>
          </Card>
        </li>
      ))}
    </ol>
  );
}

/** {product}-setup and tradingview-account: one documentation page, paragraph by paragraph. */
function SinglePageGuide({ guide }: { guide: Guide }) {
  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_300px]">
      <article className="min-w-0">
        <GuideHeader guide={guide} showCount={false} />
        <Card className="p-8 lg:p-10">
          <div className="max-w-[72ch]" data-testid="guide-document">
            {splitParagraphs(guide.introduction).map((paragraph, index) => (
              <Markdown key={index} source={paragraph} images={guide.images} className="mb-5 last:mb-0" />
            ))}
            {guide.sections.map((section) => (
              <section key={section.id} className="mt-10">
                <h2 className="mb-4 text-xl font-semibold text-white">{section.title}</h2>
                {section.image && (
                  <ContentImage
                    src={section.image}
                    alt={section.imageAlt ?? ''}
                    size={guide.images[section.image]}
                    className="mb-5 w-full rounded-xl border border-border"
                  />
                )}
                <Markdown source={section.content} images={guide.images} />
              </section>
            ))}
          </div>
        </Card>
      </article>
      <aside className="lg:sticky lg:top-24 lg:self-start">
        <RelatedGuides ids={guide.relatedGuides} />
      </aside>
    </div>
  );
}

/** {product}-pro-v2 as a guide: the introduction and every feature, with a 'Features' sidebar. */
function FeatureListGuide({ guide }: { guide: Guide }) {
  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_300px]">
      <article className="min-w-0">
        <GuideHeader guide={guide} />
        <Card className="p-8">
          <Markdown source={guide.introduction} images={guide.images} />
        </Card>
        <FeatureCards guide={guide} />
      </article>
      <aside className="space-y-6 lg:sticky lg:top-24 lg:self-start">
        <SidebarCard title="Features" icon={ListTree}>
          <ol className="mt-3 space-y-0.5">
            {guide.features.map((feature, index) => (
              <li key={feature.id}>
                <Link
                  to={featureHref(guide.id, feature.id)}
                  className="flex items-center gap-3 rounded-lg px-2.5 py-2 text-sm text-muted transition-colors hover:bg-white/5 hover:text-white"
                >
                  <span className="w-5 text-xs tabular-nums text-muted/70">{featureNumber(index)}</span>
                  {feature.title}
                </Link>
              </li>
            ))}
          </ol>
        </SidebarCard>
        <RelatedGuides ids={guide.relatedGuides} />
      </aside>
    </div>
  );
}

/** Every other guide: long-form reading with numbered sections and a table of contents. */
function LongFormGuide({ guide }: { guide: Guide }) {
  const [active, setActive] = useState(guide.sections[0]?.id);
  // Stops following the last jump (see scrollToSettled) when another starts or the guide closes.
  const stopFollowing = useRef<() => void>(undefined);
  useEffect(() => () => stopFollowing.current?.(), []);
  // The table of contents follows the section being read.
  const sectionElementIds = useMemo(() => guide.sections.map((section) => `section-${section.id}`), [guide.sections]);
  const spy = useSectionSpy(sectionElementIds, (index) => setActive(guide.sections[index]?.id));

  const goTo = (id: string) => {
    spy.jumpStarted();
    setActive(id);
    stopFollowing.current?.();
    const target = document.getElementById(`section-${id}`);
    stopFollowing.current = target ? scrollToSettled(target) : undefined;
  };

  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_300px]">
      <article className="min-w-0">
        <GuideHeader guide={guide} />
        {guide.introduction && (
          <div className="mb-8 max-w-[72ch] text-lg">
            <Markdown source={guide.introduction} images={guide.images} className="text-[17px] leading-8 text-slate-200" />
          </div>
        )}
        <div className="space-y-6">
          {guide.sections.map((section, index) => (
            <NumberedSection
              key={section.id}
              id={`section-${section.id}`}
              number={index + 1}
              title={section.title}
              titleId={`section-title-${section.id}`}
              image={section.image}
              imageAlt={section.imageAlt}
              imageSize={section.image ? guide.images[section.image] : undefined}
              data-active={active === section.id}
              className={cn('scroll-mt-24 transition-colors duration-300', active === section.id && 'border-primary/40 shadow-lg shadow-primary/5')}
            >
              <Markdown source={section.content} images={guide.images} className="mt-6 max-w-[72ch]" />
            </NumberedSection>
          ))}
        </div>
        {/* A product guide opened as a guide still leads to its feature pages. */}
        <FeatureCards guide={guide} />
      </article>
      <aside className="space-y-6 lg:sticky lg:top-24 lg:max-h-[calc(100vh-7rem)] lg:self-start lg:overflow-y-auto">
        {guide.sections.length > 0 && (
          <SidebarCard title="Table of Contents" icon={BookOpen}>
            <nav aria-label="Table of Contents">
              <ol className="mt-3 space-y-0.5">
                {guide.sections.map((section, index) => (
                  <li key={section.id}>
                    <button
                      type="button"
                      onClick={() => goTo(section.id)}
                      aria-current={active === section.id ? 'location' : undefined}
                      className={cn(
                        'flex w-full items-start gap-3 rounded-lg px-2.5 py-2 text-left text-sm transition-colors',
                        active === section.id ? 'bg-primary/15 font-medium text-white' : 'text-muted hover:bg-white/5 hover:text-white',
                      )}
                    >
                      <span className={cn('w-5 shrink-0 text-xs tabular-nums leading-5', active === section.id ? 'text-primary' : 'text-muted/70')}>
                        {index + 1}.
                      </span>
                      {section.title}
                    </button>
                  </li>
                ))}
              </ol>
            </nav>
          </SidebarCard>
        )}
        <RelatedGuides ids={guide.relatedGuides} />
      </aside>
    </div>
  );
}

/** A guide in its layout (single page, feature list, long form), as members read it; also the console's preview. */
export function GuideArticle({ guide }: { guide: Guide }) {
  if (guide.layout === 'single-page') return <SinglePageGuide guide={guide} />;
  if (guide.layout === 'feature-list') return <FeatureListGuide guide={guide} />;
  // Keyed so that moving to another guide starts again at its first section.
  return <LongFormGuide key={guide.id} guide={guide} />;
}

/** guide={id}: one of the three guide layouts (single page, feature list, long form), chosen by the server. */
export function GuideView({ guideId }: { guideId: string }) {
  return (
    <GuideLoader guideId={guideId}>
      {(guide, back) => (
        <div>
          <div className="mb-6">{back}</div>
          <GuideArticle guide={guide} />
        </div>
      )}
    </GuideLoader>
  );
}
