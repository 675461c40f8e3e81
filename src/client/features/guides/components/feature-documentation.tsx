import { ChevronRight, FileText } from 'lucide-react';
import type { MouseEvent } from 'react';
import { Link } from 'react-router';
import type { GuideFeature, GuideFeatureSummary } from '@shared/content';
import { BackLink } from '@client/components/content/back-link';
import { SidebarCard } from '@client/components/content/content-cards';
import { ReadTime } from '@client/components/content/content-meta';
import { Card } from '@client/components/ui/card';
import { useGuide } from '../api/get-guide';
import { useGuideFeature } from '../api/get-guide-feature';
import { rewriteAddressBar } from '../use-url-search';
import { featureHref, GUIDES_PATH, LoadError, LoadingArticle } from './guide-parts';
import { DataTable, Markdown } from './markdown';

const productHref = (productId: string) => `${GUIDES_PATH}?product=${encodeURIComponent(productId)}`;

/** A feature's documentation as members read it (also the console's preview of a draft). */
export function Documentation({ feature }: { feature: GuideFeature }) {
  return (
    <Card className="p-8">
      <h2 className="flex items-center gap-2 text-sm font-semibold uppercase tracking-wider text-muted">
        <FileText aria-hidden="true" className="h-4 w-4 text-primary" />
        Documentation
      </h2>
      <div className="mt-6">
        {feature.blocks.map((block, index) =>
          block.kind === 'table' ? (
            <DataTable key={index} headers={block.headers} rows={block.rows} caption={`${feature.title} settings`} images={feature.images} />
          ) : (
            <Markdown key={index} source={block.markdown} images={feature.images} />
          ),
        )}
      </div>
    </Card>
  );
}

function OtherFeatures({ productId, features, currentId }: { productId: string; features: GuideFeatureSummary[]; currentId: string }) {
  const others = features.filter((feature) => feature.id !== currentId);
  if (others.length === 0) return null;

  // Only the address bar changes (no router navigation); the page follows because it reads the URL itself.
  const open = (event: MouseEvent<HTMLAnchorElement>, featureId: string) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    rewriteAddressBar(`?product=${encodeURIComponent(productId)}&feature=${encodeURIComponent(featureId)}`);
  };

  return (
    <SidebarCard title="Other Features">
      <ul className="mt-3 space-y-1">
        {others.map((feature) => (
          <li key={feature.id}>
            <a
              href={featureHref(productId, feature.id)}
              onClick={(event) => open(event, feature.id)}
              className="group flex items-center justify-between gap-2 rounded-lg px-3 py-2 text-sm text-muted transition-colors hover:bg-white/5 hover:text-white"
            >
              {feature.title}
              <ChevronRight aria-hidden="true" className="h-4 w-4 shrink-0 opacity-0 transition-opacity group-hover:opacity-100" />
            </a>
          </li>
        ))}
      </ul>
    </SidebarCard>
  );
}

/** product={id}&feature={id}: one feature's documentation with its settings tables. */
export function FeatureDocumentation({ productId, featureId }: { productId: string; featureId: string }) {
  const product = useGuide(productId);
  const feature = useGuideFeature(productId, featureId);
  const back = <BackLink to={product.isError ? GUIDES_PATH : productHref(productId)}>{product.isError ? 'Back to Guides' : 'Back to Features'}</BackLink>;

  if (feature.isPending || product.isPending) return <LoadingArticle />;
  if (feature.isError || product.isError) {
    return (
      <LoadError
        error={feature.error ?? product.error}
        onRetry={() => {
          void product.refetch();
          void feature.refetch();
        }}
        notFoundTitle="Feature Not Found"
        notFoundText="The requested feature documentation could not be found."
        back={back}
      />
    );
  }

  const doc = feature.data;
  return (
    <div>
      <nav aria-label="Breadcrumb" className="flex items-center gap-2 text-sm text-muted">
        <Link to={GUIDES_PATH} className="hover:text-white">
          Guides
        </Link>
        <span aria-hidden="true">/</span>
        <Link to={productHref(productId)} className="hover:text-white">
          {product.data.title}
        </Link>
        <span aria-hidden="true">/</span>
        <span aria-current="page" className="font-medium text-white">
          {doc.title}
        </span>
      </nav>

      <div className="mt-6">{back}</div>

      <div className="mt-6 grid gap-8 lg:grid-cols-[minmax(0,1fr)_280px]">
        <article className="min-w-0">
          <header className="mb-6">
            <h1 className="text-3xl font-bold tracking-tight text-white">{doc.title}</h1>
            <p className="mt-3 max-w-3xl text-base leading-7 text-muted">{doc.description}</p>
            <div className="mt-3 text-sm text-muted">
              <ReadTime minutes={doc.estimatedReadTime} />
            </div>
          </header>
          <Documentation feature={doc} />
        </article>
        <aside className="lg:sticky lg:top-24 lg:self-start">
          <OtherFeatures productId={productId} features={product.data.features} currentId={doc.id} />
        </aside>
      </div>
    </div>
  );
}
