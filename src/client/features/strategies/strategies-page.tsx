import { ArrowRight } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { cleanStrategyTitle, type StrategySummary } from '@shared/content';
import { ComingSoonCard } from '@client/components/content/content-cards';
import { DifficultyBadge, MetaRow, ReadTime, SectionCount } from '@client/components/content/content-meta';
import { useStrategies } from './api/get-strategies';
import { StrategyDetail } from './components/strategy-detail';
import { LoadError } from './components/strategy-parts';

function StrategyCard({ strategy, onOpen }: { strategy: StrategySummary; onOpen: () => void }) {
  const title = cleanStrategyTitle(strategy.title);
  return (
    <button
      type="button"
      onClick={onOpen}
      aria-label={title}
      className="group flex flex-col overflow-hidden rounded-2xl border border-border bg-card text-left transition duration-200 hover:-translate-y-0.5 hover:border-primary/40 hover:shadow-xl hover:shadow-primary/5 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary/60"
    >
      <div className="relative aspect-[16/9] w-full overflow-hidden border-b border-border bg-black/30">
        <img src={strategy.previewImage} alt="" loading="lazy" className="h-full w-full object-cover transition duration-300 group-hover:scale-[1.02]" />
        <span className="absolute left-3 top-3 rounded-full bg-black/70 px-2.5 py-1 text-xs font-semibold text-white ring-1 ring-white/15 backdrop-blur">
          {strategy.strategyType}
        </span>
      </div>
      <div className="flex flex-1 flex-col p-5">
        <div className="flex items-start justify-between gap-3">
          <h2 className="text-lg font-semibold leading-snug text-white">{title}</h2>
          <DifficultyBadge difficulty={strategy.difficulty} />
        </div>
        <p className="mt-2 line-clamp-3 text-sm leading-6 text-muted">{strategy.description}</p>
        <div className="mt-auto pt-5">
          <MetaRow>
            <ReadTime minutes={strategy.estimatedReadTime} />
            <SectionCount count={strategy.sectionCount} />
          </MetaRow>
          <ul className="mt-3 flex flex-wrap gap-1.5" aria-label="Timeframes">
            {strategy.timeframes.map((timeframe) => (
              <li key={timeframe} className="rounded-md border border-border bg-white/5 px-2 py-0.5 text-xs font-semibold text-slate-200">
                {timeframe}
              </li>
            ))}
          </ul>
          <span className="mt-4 inline-flex items-center gap-1.5 text-sm font-semibold text-primary">
            Learn Strategy
            <ArrowRight aria-hidden="true" className="h-4 w-4 transition-transform group-hover:translate-x-0.5" />
          </span>
        </div>
      </div>
    </button>
  );
}

/** Strategy blueprints: a card grid; a card opens its detail in place, with no URL change. */
export function StrategiesPage() {
  const strategies = useStrategies();
  const location = useLocation();
  // The open strategy belongs to this visit: following the sidebar's Strategies link again (a new
  // location key, same URL) goes back to the grid.
  const [open, setOpen] = useState<{ id: string; locationKey: string } | null>(null);
  const openId = open?.locationKey === location.key ? open.id : null;
  const setOpenId = (id: string | null) => setOpen(id ? { id, locationKey: location.key } : null);

  useEffect(() => {
    window.scrollTo?.({ top: 0 });
  }, [openId]);

  if (openId) return <StrategyDetail strategyId={openId} onBack={() => setOpenId(null)} />;

  return (
    <div>
      <header className="mb-8">
        <h1 className="text-3xl font-bold tracking-tight text-white">Trading Strategies</h1>
        <p className="mt-2 max-w-2xl text-base leading-7 text-muted">
          Complete, rule-based blueprints built on our indicators: setup, entries, stops, targets and risk, with worked examples.
        </p>
      </header>
      {strategies.isPending ? (
        <div role="status" aria-label="Loading" className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
          {[0, 1, 2].map((index) => (
            <div key={index} className="h-96 animate-pulse rounded-2xl border border-border bg-card/60" />
          ))}
        </div>
      ) : strategies.isError ? (
        <LoadError error={strategies.error} onRetry={() => void strategies.refetch()} notFoundTitle="Strategies Not Found" />
      ) : (
        <div className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
          {strategies.data.map((strategy) => (
            <StrategyCard key={strategy.id} strategy={strategy} onOpen={() => setOpenId(strategy.id)} />
          ))}
          <ComingSoonCard title="More Strategies Coming Soon" text="New blueprints are in the works. Check back soon." />
        </div>
      )}
    </div>
  );
}
