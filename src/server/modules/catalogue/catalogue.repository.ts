// The catalogue's tables (migration 0027): read whole, written whole in the editor's transaction.
import { asc, eq, sql } from 'drizzle-orm';
import type { Catalogue, CataloguePlan, PriceList, Sale } from '@shared/catalogue';
import type { Db } from '../../db/client';
import { cataloguePlans, cataloguePriceLists, cataloguePrices, catalogueSalePrices, catalogueSales, catalogueState, oneTimePlans } from '../../db/schema';

/** The catalogue's version: 0 while the shop still sells the seed's (nothing written yet). */
export async function catalogueVersion(db: Db): Promise<number> {
  const [row] = await db.select({ version: catalogueState.version }).from(catalogueState).where(eq(catalogueState.id, 1));
  return row?.version ?? 0;
}

/** The stored catalogue, or null before the first edit. */
export async function readCatalogue(db: Db): Promise<{ catalogue: Catalogue; version: number } | null> {
  const version = await catalogueVersion(db);
  if (version === 0) return null;
  const [plans, lists, prices, sales, salePrices] = await Promise.all([
    db.select().from(cataloguePlans).orderBy(asc(cataloguePlans.position), asc(cataloguePlans.slug)),
    db.select().from(cataloguePriceLists).orderBy(asc(cataloguePriceLists.position), asc(cataloguePriceLists.slug)),
    db.select().from(cataloguePrices),
    db.select().from(catalogueSales).orderBy(asc(catalogueSales.startsAt), asc(catalogueSales.id)),
    db.select().from(catalogueSalePrices),
  ]);
  const catalogue: Catalogue = {
    plans: plans.map(
      (row): CataloguePlan => ({
        slug: row.slug,
        name: row.name,
        period: row.neverExpires || row.periodUnit === null || row.periodCount === null ? null : { unit: row.periodUnit, count: row.periodCount },
        variantOf: row.variantOf,
        regularPrice: row.regularPrice,
        badge: row.badge,
        popular: row.popular,
        buttonText: row.buttonText,
        features: row.features,
        order: row.position,
        periodLabel: row.periodLabel,
        perMonth: row.perMonth,
        trialDays: row.trialDays,
        discordRoleIds: row.discordRoleIds,
        archived: row.archived,
      }),
    ),
    priceLists: lists.map(
      (row): PriceList => ({
        slug: row.slug,
        currency: row.currency,
        header: row.header,
        countdown: row.countdown,
        entries: prices.filter((price) => price.listSlug === row.slug).map((price) => ({ plan: price.planSlug, price: price.price })),
      }),
    ),
    sales: sales.map(
      (row): Sale => ({
        id: row.id,
        label: row.label,
        startsAt: row.startsAt?.toISOString() ?? null,
        endsAt: row.endsAt?.toISOString() ?? null,
        countdown: row.countdown,
        list: row.listSlug,
        prices: salePrices.filter((price) => price.saleId === row.id).map((price) => ({ plan: price.planSlug, price: price.price })),
      }),
    ),
  };
  return { catalogue, version };
}

/** Takes the catalogue's lock for an edit (the state row, made on the first edit); returns the version it holds. */
export async function lockCatalogue(tx: Db): Promise<number> {
  await tx.insert(catalogueState).values({ id: 1, version: 0 }).onConflictDoNothing();
  const [row] = await tx.select({ version: catalogueState.version }).from(catalogueState).where(eq(catalogueState.id, 1)).for('update');
  return row!.version;
}

/** Replaces the stored catalogue with `catalogue` and bumps the version (inside the lock's transaction). */
export async function writeCatalogue(tx: Db, catalogue: Catalogue, version: number): Promise<void> {
  await tx.delete(catalogueSalePrices);
  await tx.delete(catalogueSales);
  await tx.delete(cataloguePrices);
  await tx.delete(cataloguePriceLists);
  await tx.delete(cataloguePlans);
  await tx.insert(cataloguePlans).values(
    catalogue.plans.map((plan) => ({
      slug: plan.slug,
      name: plan.name,
      periodUnit: plan.period?.unit ?? null,
      periodCount: plan.period?.count ?? null,
      neverExpires: plan.period === null,
      variantOf: plan.variantOf,
      regularPrice: plan.regularPrice,
      badge: plan.badge,
      popular: plan.popular,
      buttonText: plan.buttonText,
      features: [...plan.features],
      position: plan.order,
      periodLabel: plan.periodLabel,
      perMonth: plan.perMonth,
      trialDays: plan.trialDays,
      discordRoleIds: [...plan.discordRoleIds],
      archived: plan.archived,
    })),
  );
  await tx.insert(cataloguePriceLists).values(
    catalogue.priceLists.map((list, position) => ({ slug: list.slug, currency: list.currency, header: list.header, countdown: list.countdown, position })),
  );
  const prices = catalogue.priceLists.flatMap((list) => list.entries.map((entry) => ({ listSlug: list.slug, planSlug: entry.plan, price: entry.price })));
  if (prices.length > 0) await tx.insert(cataloguePrices).values(prices);
  if (catalogue.sales.length > 0) {
    await tx.insert(catalogueSales).values(
      catalogue.sales.map((sale) => ({
        id: sale.id,
        label: sale.label,
        listSlug: sale.list,
        startsAt: sale.startsAt === null ? null : new Date(sale.startsAt),
        endsAt: sale.endsAt === null ? null : new Date(sale.endsAt),
        countdown: sale.countdown,
      })),
    );
    const salePrices = catalogue.sales.flatMap((sale) => sale.prices.map((entry) => ({ saleId: sale.id, planSlug: entry.plan, price: entry.price })));
    if (salePrices.length > 0) await tx.insert(catalogueSalePrices).values(salePrices);
  }
  // the SQL access rules' one-time plans (migration 0040): added, never removed (a slug keeps its period)
  const oneTime = catalogue.plans.filter((plan) => plan.period === null).map((plan) => ({ slug: plan.slug }));
  if (oneTime.length > 0) await tx.insert(oneTimePlans).values(oneTime).onConflictDoNothing();
  await tx.update(catalogueState).set({ version: version + 1, updatedAt: sql`now()` }).where(eq(catalogueState.id, 1));
}
