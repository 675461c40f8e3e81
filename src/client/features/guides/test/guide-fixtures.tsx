import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { expect, vi } from 'vitest';
import type { Guide, GuideFeature, GuideSummary } from '@shared/content';
import { SiteSettingsProvider } from '@client/lib/site-settings';
import { jsonResponse, requestUrl, TEST_SITE_SETTINGS } from '@client/test/render';
import { GuidesPage } from '../guides-page';

const img = (file: string) => `/api/content/images/${file}`;
const PREVIEW_SIZE = { width: 640, height: 360 };
const FIGURE_SIZE = { width: 800, height: 450 };

function summary(guide: Guide): GuideSummary {
  const { id, title, description, previewImage, estimatedReadTime, difficulty, type, featureCount, sectionCount } = guide;
  return { id, title, description, previewImage, estimatedReadTime, difficulty, type, featureCount, sectionCount };
}

const features = [
  { id: 'market-structure', title: 'Market Structure', description: 'Breaks of structure and changes of character.', estimatedReadTime: 3 },
  { id: 'order-blocks', title: 'Order Blocks', description: 'Where institutions left orders.', estimatedReadTime: 4 },
  { id: 'fair-value-gaps', title: 'Fair Value Gaps', description: 'Imbalances price tends to revisit.', estimatedReadTime: 2 },
];

export const SMC: Guide = {
  id: 'smart-money-concepts',
  title: 'Smart Money Concepts',
  description: 'Institutional order flow on your chart.',
  previewImage: img('smc-preview.svg'),
  estimatedReadTime: 6,
  difficulty: 'product',
  type: 'product',
  featureCount: features.length,
  sectionCount: 0,
  introduction: 'Smart Money Concepts maps **market structure** and liquidity.',
  features,
  sections: [],
  relatedGuides: [],
  layout: 'long-form',
  images: { [img('smc-preview.svg')]: PREVIEW_SIZE },
};

export const PRO_V2: Guide = {
  ...SMC,
  id: 'candlewise-pro-v2',
  title: 'Candlewise Pro V2',
  description: 'The all-in-one trend toolkit.',
  previewImage: img('pro-v2-preview.svg'),
  introduction: 'Pro V2 answers the three questions behind every trend trade.',
  features: [
    { id: 'midline', title: 'Midline', description: 'The adaptive centre line.', estimatedReadTime: 3 },
    { id: 'adaptive-cloud', title: 'Adaptive Cloud', description: 'The pullback zone.', estimatedReadTime: 3 },
  ],
  featureCount: 2,
  layout: 'feature-list',
  images: { [img('pro-v2-preview.svg')]: PREVIEW_SIZE },
};

export const GETTING_STARTED: Guide = {
  id: 'getting-started',
  title: 'Getting Started',
  description: 'Your first hour with Candlewise.',
  previewImage: img('getting-started-preview.svg'),
  estimatedReadTime: 8,
  difficulty: 'beginner',
  type: 'guide',
  featureCount: 0,
  sectionCount: 3,
  introduction: 'Welcome to *Candlewise*.',
  features: [],
  sections: [
    { id: 'activate-your-access', title: 'Activate Your Access', content: 'Give us your **exact** TradingView username.\n\n- Open a chart\n- Add the indicators' },
    { id: 'set-up-your-chart', title: 'Set Up Your Chart', content: 'Keep the default settings.', image: img('chart.svg'), imageAlt: 'A clean chart' },
    { id: 'next-steps', title: 'Next Steps', content: 'Read the [strategies](/dashboard/strategies).' },
  ],
  relatedGuides: ['technical-analysis', 'smart-money-concepts'],
  layout: 'long-form',
  images: { [img('getting-started-preview.svg')]: PREVIEW_SIZE, [img('chart.svg')]: FIGURE_SIZE },
};

export const TECHNICAL_ANALYSIS: Guide = {
  ...GETTING_STARTED,
  id: 'technical-analysis',
  title: 'Technical Analysis',
  description: 'Read charts with confidence.',
  difficulty: 'intermediate',
  relatedGuides: [],
};

export const SETUP: Guide = {
  id: 'candlewise-setup',
  title: 'How to Set Up Candlewise',
  description: 'From checkout to your first chart.',
  previewImage: img('setup-preview.svg'),
  estimatedReadTime: 5,
  difficulty: 'tutorial',
  type: 'guide',
  featureCount: 0,
  sectionCount: 0,
  introduction: [
    'This tutorial takes you from purchase to a working chart.',
    'Step 1: Give your exact TradingView username after payment.',
    `![The activation form asks for your exact TradingView username](${img('setup-checkout-username.svg')})`,
    'Step 2: Wait for activation. It usually takes **1–2 hours**.',
  ].join('\n\n'),
  features: [],
  sections: [],
  relatedGuides: [],
  layout: 'single-page',
  images: { [img('setup-preview.svg')]: PREVIEW_SIZE, [img('setup-checkout-username.svg')]: FIGURE_SIZE },
};

export const MIDLINE: GuideFeature = {
  id: 'midline',
  title: 'Midline',
  description: 'The adaptive centre line.',
  estimatedReadTime: 3,
  blocks: [
    { kind: 'text', markdown: 'The Midline is the **centre** of the trend.' },
    {
      kind: 'table',
      headers: ['Setting', 'Description'],
      rows: [
        ['Show Midline', 'Shows or hides the Midline.'],
        ['Midline Length', 'Base lookback of the Midline in bars.'],
      ],
    },
    { kind: 'text', markdown: 'The Midline is also the centre of the Adaptive Cloud.' },
  ],
  images: {},
};

export const ADAPTIVE_CLOUD: GuideFeature = {
  id: 'adaptive-cloud',
  title: 'Adaptive Cloud',
  description: 'The pullback zone.',
  estimatedReadTime: 3,
  blocks: [
    { kind: 'text', markdown: 'The cloud marks the zone where pullbacks end.' },
    { kind: 'table', headers: ['Setting', 'Description'], rows: [['Cloud Width', 'How wide the cloud is.']] },
  ],
  images: {},
};

export const GUIDES = [GETTING_STARTED, TECHNICAL_ANALYSIS, PRO_V2, SMC, SETUP];

const notFound = () => jsonResponse({ error: { code: 'not_found', message: 'Not found.' } }, 404);

/** The content API as the server answers it, at the fetch boundary. */
export function stubContentApi(extra: Record<string, Guide> = {}) {
  const guides = new Map([...GUIDES, ...Object.values(extra)].map((guide) => [guide.id, guide]));
  const featureDocs = new Map([
    [`${PRO_V2.id}/midline`, MIDLINE],
    [`${PRO_V2.id}/adaptive-cloud`, ADAPTIVE_CLOUD],
  ]);
  const requests: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const path = new URL(requestUrl(input), 'http://localhost').pathname;
      requests.push(path);
      if (path === '/api/content/guides') return jsonResponse({ guides: GUIDES.map(summary) });
      const feature = /^\/api\/content\/guides\/([^/]+)\/features\/([^/]+)$/.exec(path);
      if (feature) return featureDocs.has(`${feature[1]}/${feature[2]}`) ? jsonResponse(featureDocs.get(`${feature[1]}/${feature[2]}`)) : notFound();
      const guide = /^\/api\/content\/guides\/([^/]+)$/.exec(path);
      if (guide) return guides.has(guide[1] ?? '') ? jsonResponse(guides.get(guide[1] ?? '')) : notFound();
      return notFound();
    }),
  );
  return { requests };
}

/** The guides page in a browser router, so the address bar (window.location) is the real one. */
export function renderGuides(url: string) {
  window.history.replaceState(null, '', url);
  const router = createBrowserRouter([{ path: '/dashboard/guides', element: <GuidesPage /> }]);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <SiteSettingsProvider initial={TEST_SITE_SETTINGS}>
        <RouterProvider router={router} />
      </SiteSettingsProvider>
    </QueryClientProvider>,
  );
  return { ...view, router };
}

/** What keeps a content image's room before it loads (its known size), and loads it only when near. */
export function expectSized(image: HTMLElement, width: number, height: number) {
  expect(image).toHaveAttribute('width', String(width));
  expect(image).toHaveAttribute('height', String(height));
  expect(image).toHaveAttribute('loading', 'lazy');
  expect(image).toHaveAttribute('decoding', 'async');
  expect(image).toHaveClass('h-auto', 'max-w-full');
}
