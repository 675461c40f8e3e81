import { Hono } from 'hono';
import { z } from 'zod';
import { isContentVisible, type MemberStanding } from '@shared/content-studio';
import { oncePerKey } from '@shared/once-per-key';
import type { ReadCache } from '@shared/read-cache';
import { describeOperation } from '../../http/openapi';
import { preparedJsonCache, sendPreparedJson } from '../../http/prepared-json';
import { serverError } from '../../http/server-errors';
import { requireMember, type AuthVariables, type SessionUser } from '../../http/session-user';
import { gateKey, type ContentLibrary, type ContentSnapshot } from './content-library';
import { createContentService } from './content.service';

// Premium content, never in the public bundle: every route here answers only signed-in members with
// access — 401 without a session, 403 without access — checked before anything else, so an
// outsider cannot even learn which ids exist. A piece gated to other plans, not yet dripped to
// this member or scheduled for later is answered as if it did not exist.

const contentId = z.string().max(100).regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a content id');
const imageFile = z.string().max(200).regex(/^[A-Za-z0-9][\w.-]*$/, 'must be an image file name');

/**
 * Members' copies only: never kept by a shared cache, and only for this cookie. A browser asks
 * again each time (the member check runs first) and gets a 304 for the version it holds.
 */
const PRIVATE_JSON = { 'cache-control': 'private, no-cache', vary: 'Cookie' };

const MEMBERS = { auth: 'session', description: 'Members with access only: 403 without.' } as const;

export type ContentRouteDeps = {
  library: ContentLibrary;
  /** The member's plans with access and first payment (per-plan gating and drip). */
  standing: (userId: string) => Promise<MemberStanding>;
  reads: ReadCache;
  clock: () => Date;
};

const NO_STANDING: MemberStanding = { plans: [], firstPaidAt: null };

export function contentRoutes({ library, standing, reads, clock }: ContentRouteDeps) {
  // Each published state is serialized and gzipped once per answer (prepared per object).
  const prepared = preparedJsonCache(PRIVATE_JSON);
  // one service per published state: its image reads are kept with it
  const serviceOf = oncePerKey((snapshot: ContentSnapshot) => createContentService({ content: snapshot.catalogue }));

  /** Whether this member sees the piece: open pieces need no read; gated ones read the member once per MEMBER_CACHE_MS. */
  const visibility = async (snapshot: ContentSnapshot, user: SessionUser) => {
    if (!snapshot.gated) return () => true;
    const member = snapshot.needsMember ? await reads.read(`content-standing:${user.id}`, () => standing(user.id)) : NO_STANDING;
    const now = clock();
    return (kind: 'guide' | 'strategy', id: string) => {
      const gate = snapshot.gates.get(gateKey(kind, id));
      return !gate || isContentVisible(gate, member, now);
    };
  };

  // awaited only when something is gated: an open catalogue answers without a promise of its own
  const visibleOr404 = async (snapshot: ContentSnapshot, user: SessionUser, kind: 'guide' | 'strategy', id: string, what: string) => {
    if (!(await visibility(snapshot, user))(kind, id)) throw serverError('contentNotFound', what);
  };

  return new Hono<{ Variables: AuthVariables }>()
    // not async: a member passes straight on, without a promise of its own
    .use('/content/*', (c, next) => {
      requireMember(c);
      return next();
    })
    .get('/content/guides', describeOperation({ summary: 'Guide summaries (members with access only)', ...MEMBERS, ok: '{ guides }: GuideSummary[] (src/shared/content.ts)' }), async (c) => {
      const snapshot = await library.current();
      if (!snapshot.gated) return sendPreparedJson(c, prepared(snapshot.guideList));
      const sees = await visibility(snapshot, requireMember(c));
      return c.json({ guides: snapshot.catalogue.guides.filter((guide) => sees('guide', guide.id)) }, 200, PRIVATE_JSON);
    })
    .get('/content/guides/:id', describeOperation({ summary: 'One guide with its sections or features', ...MEMBERS, ok: 'Guide (src/shared/content.ts)' }), async (c) => {
      const id = contentId.parse(c.req.param('id'));
      const snapshot = await library.current();
      if (snapshot.gated) await visibleOr404(snapshot, requireMember(c), 'guide', id, 'The guide');
      return sendPreparedJson(c, prepared(serviceOf(snapshot).guide(id)));
    })
    .get('/content/guides/:productId/features/:featureId', describeOperation({ summary: "One product feature's documentation", ...MEMBERS, ok: 'GuideFeature (src/shared/content.ts)' }), async (c) => {
      const productId = contentId.parse(c.req.param('productId'));
      const featureId = contentId.parse(c.req.param('featureId'));
      const snapshot = await library.current();
      if (snapshot.gated) await visibleOr404(snapshot, requireMember(c), 'guide', productId, 'The product');
      return sendPreparedJson(c, prepared(serviceOf(snapshot).feature(productId, featureId)));
    })
    .get('/content/strategies', describeOperation({ summary: 'Strategy summaries', ...MEMBERS, ok: '{ strategies }: StrategySummary[] (src/shared/content.ts)' }), async (c) => {
      const snapshot = await library.current();
      if (!snapshot.gated) return sendPreparedJson(c, prepared(snapshot.strategyList));
      const sees = await visibility(snapshot, requireMember(c));
      return c.json({ strategies: snapshot.catalogue.strategies.filter((strategy) => sees('strategy', strategy.id)) }, 200, PRIVATE_JSON);
    })
    .get('/content/strategies/:id', describeOperation({ summary: 'One strategy with sanitised section HTML', ...MEMBERS, ok: 'Strategy (src/shared/content.ts)' }), async (c) => {
      const id = contentId.parse(c.req.param('id'));
      const snapshot = await library.current();
      if (snapshot.gated) await visibleOr404(snapshot, requireMember(c), 'strategy', id, 'The strategy');
      return sendPreparedJson(c, prepared(serviceOf(snapshot).strategy(id)));
    })
    .get('/content/images/:file', describeOperation({ summary: 'An image of a guide or strategy', ...MEMBERS, ok: 'The image, in its own content type' }), async (c) => {
      const snapshot = await library.current();
      const file = imageFile.parse(c.req.param('file'));
      // an image of gated pieces only goes to a member who may read one of them (decision 050's amendment)
      const users = snapshot.gated ? snapshot.imageUsers.get(file) : undefined;
      if (users?.length) {
        const sees = await visibility(snapshot, requireMember(c));
        if (!users.some((user) => sees(user.kind, user.id))) throw serverError('contentNotFound', 'The image');
      }
      const image = await serviceOf(snapshot).image(file);
      return c.body(image.body as Uint8Array<ArrayBuffer>, 200, {
        'content-type': image.contentType,
        'cache-control': 'private, max-age=3600',
        vary: 'Cookie',
        // an SVG opened on its own runs nothing (uploads with script are refused already)
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      });
    });
}
