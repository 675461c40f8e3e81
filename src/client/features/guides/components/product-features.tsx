import { Link } from 'react-router';
import type { Guide } from '@shared/content';
import { useGuide } from '../api/get-guide';
import { BackLink, CountLabel, DifficultyBadge, featureHref, GUIDES_PATH, LoadError, LoadingArticle, ReadTime } from './guide-parts';
import { Markdown } from './markdown';

const number = (index: number) => String(index + 1).padStart(2, '0');

function FeatureGrid({ guide }: { guide: Guide }) {
  return (
    <section aria-labelledby="features-heading" className="mt-12">
      <h2 id="features-heading" className="text-xl font-semibold text-white">
        Features
      </h2>
      <ol className="mt-5 grid gap-5 md:grid-cols-2 xl:grid-cols-3">
        {guide.features.map((feature, index) => (
          <li key={feature.id}>
            <Link
              to={featureHref(guide.id, feature.id)}
              aria-label={feature.title}
              className="group flex h-full flex-col rounded-2xl border border-border bg-card p-5 transition duration-200 hover:-translate-y-0.5 hover:border-primary/40 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary/60"
            >
              <div className="flex items-center justify-between">
                <span className="flex h-9 w-9 items-center justify-center rounded-xl bg-primary/15 text-sm font-bold tabular-nums text-primary">
                  {number(index)}
                </span>
                <span className="text-xs text-muted">
                  <ReadTime minutes={feature.estimatedReadTime} />
                </span>
              </div>
              <h3 className="mt-4 text-base font-semibold text-white">{feature.title}</h3>
              <p className="mt-1.5 line-clamp-3 text-sm leading-6 text-muted">{feature.description}</p>
              <span className="mt-auto pt-4 text-sm font-semibold text-primary">
                Learn More <span aria-hidden="true">→</span>
              </span>
            </Link>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** product={id}: the product's title, introduction and a numbered grid of its features. */
export function ProductFeatures({ productId }: { productId: string }) {
  const guide = useGuide(productId);
  const back = <BackLink to={GUIDES_PATH}>Back to Guides</BackLink>;

  if (guide.isPending) return <LoadingArticle />;
  if (guide.isError) {
    return (
      <LoadError
        error={guide.error}
        onRetry={() => void guide.refetch()}
        notFoundTitle="Guide Not Found"
        notFoundText="The requested guide could not be found."
        back={back}
      />
    );
  }
  const product = guide.data;
  return (
    <article>
      {back}
      <header className="mt-6 overflow-hidden rounded-3xl border border-border bg-gradient-to-br from-purple-500/10 via-card to-card">
        <div className="grid items-center gap-8 p-8 lg:grid-cols-[1fr_320px]">
          <div>
            <DifficultyBadge difficulty={product.difficulty} />
            <h1 className="mt-3 text-3xl font-bold tracking-tight text-white">{product.title}</h1>
            <div className="mt-3 flex flex-wrap gap-x-5 gap-y-1 text-sm text-muted">
              <ReadTime minutes={product.estimatedReadTime} />
              <CountLabel count={product.featureCount} one="feature" many="features" />
            </div>
          </div>
          <img src={product.previewImage} alt="" className="hidden w-full rounded-2xl border border-border lg:block" />
        </div>
      </header>
      <div className="mt-8 max-w-3xl">
        <Markdown source={product.introduction} />
      </div>
      {product.features.length > 0 && <FeatureGrid guide={product} />}
    </article>
  );
}
