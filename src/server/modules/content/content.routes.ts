import { Hono } from 'hono';
import { z } from 'zod';
import { describeOperation } from '../../http/openapi';
import { preparedJsonCache, sendPreparedJson } from '../../http/prepared-json';
import { requireMember, type AuthVariables } from '../../http/session-user';
import type { ContentCatalogue } from './content-loader';
import { createContentService } from './content.service';

// Premium content, never in the public bundle: every route here answers only signed-in members with
// access — 401 without a session, 403 without access — checked before anything else, so an
// outsider cannot even learn which ids exist.

const contentId = z.string().max(100).regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a content id');
const imageFile = z.string().max(200).regex(/^[A-Za-z0-9][\w.-]*$/, 'must be an image file name');

/**
 * Members' copies only: never kept by a shared cache, and only for this cookie. A browser asks
 * again each time (the member check runs first) and gets a 304 for the version it holds.
 */
const PRIVATE_JSON = { 'cache-control': 'private, no-cache', vary: 'Cookie' };

const MEMBERS = { auth: 'session', description: 'Members with access only: 403 without.' } as const;

export function contentRoutes({ content }: { content: ContentCatalogue }) {
  const service = createContentService({ content });
  // Content does not change while the process runs: each answer is serialized and gzipped once.
  const prepared = preparedJsonCache(PRIVATE_JSON);
  const guideList = { guides: service.listGuides() };
  const strategyList = { strategies: service.listStrategies() };

  return new Hono<{ Variables: AuthVariables }>()
    // not async: a member passes straight on, without a promise of its own
    .use('/content/*', (c, next) => {
      requireMember(c);
      return next();
    })
    .get('/content/guides', describeOperation({ summary: 'Guide summaries (members with access only)', ...MEMBERS, ok: '{ guides }: GuideSummary[] (src/shared/content.ts)' }), (c) => sendPreparedJson(c, prepared(guideList)))
    .get('/content/guides/:id', describeOperation({ summary: 'One guide with its sections or features', ...MEMBERS, ok: 'Guide (src/shared/content.ts)' }), (c) => sendPreparedJson(c, prepared(service.guide(contentId.parse(c.req.param('id'))))))
    .get('/content/guides/:productId/features/:featureId', describeOperation({ summary: "One product feature's documentation", ...MEMBERS, ok: 'GuideFeature (src/shared/content.ts)' }), (c) => {
      const productId = contentId.parse(c.req.param('productId'));
      const featureId = contentId.parse(c.req.param('featureId'));
      return sendPreparedJson(c, prepared(service.feature(productId, featureId)));
    })
    .get('/content/strategies', describeOperation({ summary: 'Strategy summaries', ...MEMBERS, ok: '{ strategies }: StrategySummary[] (src/shared/content.ts)' }), (c) => sendPreparedJson(c, prepared(strategyList)))
    .get('/content/strategies/:id', describeOperation({ summary: 'One strategy with sanitised section HTML', ...MEMBERS, ok: 'Strategy (src/shared/content.ts)' }), (c) => sendPreparedJson(c, prepared(service.strategy(contentId.parse(c.req.param('id'))))))
    .get('/content/images/:file', describeOperation({ summary: 'An image of a guide or strategy', ...MEMBERS, ok: 'The image, in its own content type' }), async (c) => {
      const image = await service.image(imageFile.parse(c.req.param('file')));
      return c.body(image.body as Uint8Array<ArrayBuffer>, 200, {
        'content-type': image.contentType,
        'cache-control': 'private, max-age=3600',
        vary: 'Cookie',
      });
    });
}
