// The console's catalogue API (/api/admin/catalogue…): shapes only; the rules that refuse an edit
// with its reason are catalogue.ts's, so the console and the command line say the same thing.
import { z } from 'zod';

export const CATALOGUE_PATHS = {
  catalogue: '/api/admin/catalogue',
  plans: '/api/admin/catalogue/plans',
  plan: (slug: string) => `/api/admin/catalogue/plans/${encodeURIComponent(slug)}`,
  price: (slug: string) => `/api/admin/catalogue/plans/${encodeURIComponent(slug)}/price`,
  archive: (slug: string) => `/api/admin/catalogue/plans/${encodeURIComponent(slug)}/archive`,
  moveMembers: (slug: string) => `/api/admin/catalogue/plans/${encodeURIComponent(slug)}/move-members`,
  publish: '/api/admin/catalogue/publish',
  sale: (id: string) => `/api/admin/catalogue/sales/${encodeURIComponent(id)}`,
  priceLists: '/api/admin/catalogue/price-lists',
  /** The default list ('/') is addressed as `default` (a slash cannot be one path segment). */
  priceList: (slug: string) => `/api/admin/catalogue/price-lists/${slug === '/' ? 'default' : encodeURIComponent(slug)}`,
} as const;

const text = (max: number) => z.string().max(max, { error: `At most ${max} characters.` });
const cents = z.number({ error: 'A price is a whole number of cents.' });
const period = z.object({ unit: z.string().max(20), count: z.number() }).nullable();
const entry = z.object({ plan: text(40), price: cents });

export const cataloguePlanSchema = z.object({
  slug: z.string(),
  name: z.string(),
  period: z.object({ unit: z.enum(['day', 'week', 'month', 'year']), count: z.number() }).nullable(),
  variantOf: z.string().nullable(),
  regularPrice: z.number().nullable(),
  badge: z.string().nullable(),
  popular: z.boolean(),
  buttonText: z.string().nullable(),
  features: z.array(z.string()),
  order: z.number(),
  periodLabel: z.string().nullable(),
  perMonth: z.boolean(),
  trialDays: z.number().nullable(),
  discordRoleIds: z.array(z.string()),
  archived: z.boolean(),
});

export const saleSchema = z.object({
  id: text(40),
  label: text(60),
  startsAt: z.iso.datetime({ offset: true }).nullable(),
  endsAt: z.iso.datetime({ offset: true }).nullable(),
  countdown: z.boolean(),
  list: text(40),
  prices: z.array(entry).max(20),
});

export const catalogueResponseSchema = z.object({
  version: z.number(),
  catalogue: z.object({
    plans: z.array(cataloguePlanSchema),
    priceLists: z.array(z.object({ slug: z.string(), currency: z.string(), header: z.string().nullable(), countdown: z.boolean(), entries: z.array(entry) })),
    sales: z.array(saleSchema),
  }),
});
export type CatalogueResponse = z.infer<typeof catalogueResponseSchema>;

export const addPlanRequestSchema = z.object({
  slug: text(60),
  name: text(60),
  price: cents,
  /** null: one-time, never expires. */
  period,
  list: text(40).optional(),
});
export type AddPlanRequest = z.infer<typeof addPlanRequestSchema>;

export const updatePlanRequestSchema = z
  .object({
    name: text(60),
    regularPrice: cents.nullable(),
    badge: text(40).nullable(),
    popular: z.boolean(),
    buttonText: text(40).nullable(),
    features: z.array(text(80)).max(20),
    order: z.number().int(),
    periodLabel: text(30).nullable(),
    perMonth: z.boolean(),
    trialDays: z.number().int().min(0).max(730).nullable(),
    discordRoleIds: z.array(text(30)).max(20),
    archived: z.boolean(),
  })
  .partial();
export type UpdatePlanRequest = z.infer<typeof updatePlanRequestSchema>;

export const setPriceRequestSchema = z.object({ price: cents, list: text(40).optional() });
export type SetPriceRequest = z.infer<typeof setPriceRequestSchema>;

/** Move the plan's members who pay an older price on `list` (default '/') to its current price at their next renewal. */
export const moveMembersRequestSchema = z.object({ list: text(40).optional() });
export const moveMembersResponseSchema = z.object({
  plan: z.string(),
  list: z.string(),
  amount: z.number(),
  currency: z.string(),
  moved: z.array(z.object({ email: z.string(), from: z.number(), renewsAt: z.string() })),
  alreadyMoved: z.number(),
});
export type MoveMembersResponse = z.infer<typeof moveMembersResponseSchema>;

/** What "Publish to Stripe" did (`npm run admin -- plans publish`, decision record 058). */
export const publishResponseSchema = z.object({
  /** 'stripe': published at Stripe; 'sandbox': payments run in the sandbox, which charges these prices from the catalogue itself. */
  mode: z.enum(['stripe', 'sandbox']),
  prices: z.array(
    z.object({
      plan: z.string(),
      /** The price list ('/' for the default page). */
      list: z.string(),
      amount: z.number(),
      currency: z.string(),
      period: cataloguePlanSchema.shape.period,
      lookupKey: z.string(),
      /** The Stripe Price; null in the sandbox. */
      id: z.string().nullable(),
      /** created: new at Stripe; kept: there already; adopted: a configured STRIPE_PRICE_* given its lookup key; sandbox: nothing sent. */
      how: z.enum(['created', 'kept', 'adopted', 'sandbox']),
    }),
  ),
});
export type PublishResponse = z.infer<typeof publishResponseSchema>;

export const saveSaleRequestSchema = saleSchema.omit({ id: true });
export type SaveSaleRequest = z.infer<typeof saveSaleRequestSchema>;

/** A price list's page, currency, header and the plans it sells (price-lists.ts has the rules). */
export const savePriceListRequestSchema = z.object({
  currency: text(10),
  header: text(400).nullable(),
  entries: z.array(entry).max(20),
});
export type SavePriceListRequest = z.infer<typeof savePriceListRequestSchema>;

export const addPriceListRequestSchema = savePriceListRequestSchema.extend({ slug: text(60) });
export type AddPriceListRequest = z.infer<typeof addPriceListRequestSchema>;
