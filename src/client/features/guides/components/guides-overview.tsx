import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import type { GuideSummary } from '@shared/content';
import { ComingSoonCard } from '@client/components/content/content-cards';
import { DifficultyBadge, MetaRow, ReadTime } from '@client/components/content/content-meta';
import { useGuides } from '../api/get-guides';
import { GuideCount, guideHref, LoadError, LoadingCards } from './guide-parts';

function GuideCard({ guide }: { guide: GuideSummary }) {
  const isProduct = guide.type === 'product' && guide.featureCount > 0;
  return (
    <Link
      to={guideHref(guide)}
      aria-label={guide.title}
      className="group flex flex-col overflow-hidden rounded-2xl border border-border bg-card transition duration-200 hover:-translate-y-0.5 hover:border-primary/40 hover:shadow-xl hover:shadow-primary/5 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary/60"
    >
      <div className="relative aspect-[16/9] overflow-hidden border-b border-border bg-black/30">
        <img src={guide.previewImage} alt="" loading="lazy" className="h-full w-full object-cover transition duration-300 group-hover:scale-[1.02]" />
      </div>
      <div className="flex flex-1 flex-col p-5">
        <div className="flex items-start justify-between gap-3">
          <h2 className="text-lg font-semibold leading-snug text-white">{guide.title}</h2>
          <DifficultyBadge difficulty={guide.difficulty} />
        </div>
        <p className="mt-2 line-clamp-3 text-sm leading-6 text-muted">{guide.description}</p>
        <div className="mt-auto pt-5">
          <MetaRow>
            <ReadTime minutes={guide.estimatedReadTime} />
            <GuideCount guide={guide} />
          </MetaRow>
          <span className="mt-4 inline-flex items-center gap-1.5 text-sm font-semibold text-primary">
            {isProduct ? 'Explore Features' : 'Start Reading'}
            <ArrowRight aria-hidden="true" className="h-4 w-4 transition-transform group-hover:translate-x-0.5" />
          </span>
        </div>
      </div>
    </Link>
  );
}

export function GuidesOverview() {
  const guides = useGuides();
  return (
    <div>
      <header className="mb-8">
        <h1 className="text-3xl font-bold tracking-tight text-white">Trading Guides</h1>
        <p className="mt-2 max-w-2xl text-base leading-7 text-muted">
          Set up your indicators, learn every feature and sharpen your chart reading, from first steps to advanced concepts.
        </p>
      </header>

      {guides.isPending ? (
        <LoadingCards />
      ) : guides.isError ? (
        <LoadError error={guides.error} onRetry={() => void guides.refetch()} notFoundTitle="Guides Not Found" notFoundText="The guides could not be found." back={null} />
      ) : (
        <div className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
          {guides.data.map((guide) => (
            <GuideCard key={guide.id} guide={guide} />
          ))}
          <ComingSoonCard title="More Guides Coming Soon" text="We add new guides and feature walkthroughs regularly." />
        </div>
      )}
    </div>
  );
}
