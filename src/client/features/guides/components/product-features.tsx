import { Link } from 'react-router';
import type { Guide } from '@shared/content';
import { NumberBadge } from '@client/components/content/content-cards';
import { ContentImage } from '@client/components/content/content-image';
import { DifficultyBadge, FeatureCount, MetaRow, ReadTime } from '@client/components/content/content-meta';
import { featureHref, featureNumber, GuideLoader } from './guide-parts';
import { Markdown } from './markdown';

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
                <NumberBadge className="h-9 w-9">{featureNumber(index)}</NumberBadge>
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
  return (
    <GuideLoader guideId={productId}>
      {(product, back) => (
        <article>
          {back}
          <header className="mt-6 overflow-hidden rounded-3xl border border-border bg-gradient-to-br from-purple-500/10 via-card to-card">
            <div className="grid items-center gap-8 p-8 lg:grid-cols-[1fr_320px]">
              <div>
                <DifficultyBadge difficulty={product.difficulty} />
                <h1 className="mt-3 text-3xl font-bold tracking-tight text-white">{product.title}</h1>
                <MetaRow className="mt-3 gap-x-5 text-sm">
                  <ReadTime minutes={product.estimatedReadTime} />
                  <FeatureCount count={product.featureCount} />
                </MetaRow>
              </div>
              <ContentImage
                src={product.previewImage}
                alt=""
                size={product.images[product.previewImage]}
                eager
                className="hidden w-full rounded-2xl border border-border lg:block"
              />
            </div>
          </header>
          <div className="mt-8 max-w-3xl">
            <Markdown source={product.introduction} images={product.images} />
          </div>
          {product.features.length > 0 && <FeatureGrid guide={product} />}
        </article>
      )}
    </GuideLoader>
  );
}
