// The catalogue's edits, for the console and the command line alike: each is checked by the
// shared rules (catalogue.ts), refused with its reason as a 400 with nothing saved, else written
// and audited in one transaction (catalogue-store.ts). Also publishing its Prices at Stripe and
// moving members to a new price (decision record 058).
import { addPlan, archivePlan, removeSale, saveSale, setPrice, updatePlan, type Catalogue, type Edit, type NewPlan, type PlanChanges, type Sale } from '@shared/catalogue';
import { wantedPrices, type PublishedPrice, type TaxBehavior, type WantedPrice } from '@shared/catalogue-publishing';
import { savePriceList, type PriceListInput } from '@shared/price-lists';
import { ApiError } from '../../http/errors';
import type { PaymentsPort } from '../payments/payments.port';
import type { CatalogueStore } from './catalogue-store';
import type { PriceMover } from './price-moves';

export type CatalogueService = ReturnType<typeof createCatalogueService>;

function applied(edit: Edit): Catalogue {
  if ('problem' in edit) throw new ApiError(400, 'invalid_catalogue', edit.problem);
  return edit.catalogue;
}

/**
 * What publishing did: each Price the catalogue sells as Stripe has it now, or, with payments in
 * the sandbox, the prices the sandbox charges from the catalogue itself (nothing is sent).
 */
export type PublishOutcome = { mode: 'stripe'; prices: PublishedPrice[] } | { mode: 'sandbox'; prices: WantedPrice[] };

export type CatalogueServiceDeps = {
  payments: PaymentsPort;
  /** Moves members to a new price at their next renewal (price-moves.ts). */
  mover: PriceMover;
  /** The operators' audit log (publishing; the edits are audited by the store). */
  audit: (entry: { operator: string; action: string; details: Record<string, unknown> }) => Promise<void>;
  taxBehavior: TaxBehavior;
};

export function createCatalogueService(store: CatalogueStore, deps: CatalogueServiceDeps) {
  const { payments } = deps;

  async function publishAt(catalogue: Catalogue): Promise<PublishOutcome> {
    if (payments.kind !== 'stripe') return { mode: 'sandbox', prices: wantedPrices(catalogue, deps.taxBehavior) };
    return { mode: 'stripe', prices: await payments.publishCatalogue(catalogue) };
  }

  return {
    /** Moves the members of `slug` who pay an older price on `list` to its current one at their next renewal (price-moves.ts). */
    moveMembers: async (operator: string, slug: string, list?: string) => {
      await store.load();
      return deps.mover(operator, store.current(), slug, list);
    },
    /** The catalogue's Prices at Stripe, made where missing (in the sandbox: what it charges); audited, a failure too. */
    publish: async (operator: string): Promise<PublishOutcome> => {
      await store.load();
      try {
        const outcome = await publishAt(store.current());
        const made = (how: string) => (outcome.mode === 'stripe' ? outcome.prices.filter((price) => price.how === how).length : 0);
        await deps.audit({ operator, action: 'catalogue_publish', details: { mode: outcome.mode, prices: outcome.prices.length, created: made('created'), adopted: made('adopted') } });
        return outcome;
      } catch (error) {
        await deps.audit({ operator, action: 'catalogue_publish', details: { mode: payments.kind, error: error instanceof Error ? error.message : String(error) } });
        throw error;
      }
    },
    current: () => store.current(),
    version: () => store.version(),
    /** Reads the stored catalogue again first (the command line's, or another instance's edits). */
    read: async () => {
      await store.load();
      return store.current();
    },
    addPlan: (operator: string, input: NewPlan) =>
      store.edit(operator, 'catalogue_add_plan', { ...input }, (catalogue) => applied(addPlan(catalogue, input))),
    setPrice: (operator: string, slug: string, price: number, list?: string) =>
      store.edit(operator, 'catalogue_set_price', { plan: slug, price, list: list ?? '/' }, (catalogue) => applied(setPrice(catalogue, slug, price, list))),
    archivePlan: (operator: string, slug: string) => store.edit(operator, 'catalogue_archive_plan', { plan: slug }, (catalogue) => applied(archivePlan(catalogue, slug))),
    updatePlan: (operator: string, slug: string, changes: PlanChanges) =>
      store.edit(operator, 'catalogue_update_plan', { plan: slug, ...changes }, (catalogue) => applied(updatePlan(catalogue, slug, changes))),
    saveSale: (operator: string, sale: Sale) => store.edit(operator, 'catalogue_save_sale', { ...sale }, (catalogue) => applied(saveSale(catalogue, sale))),
    /** Adds a price list (`isNew`, served at /{slug}) or changes one. */
    savePriceList: (operator: string, input: PriceListInput, isNew: boolean) =>
      store.edit(operator, isNew ? 'catalogue_add_price_list' : 'catalogue_update_price_list', { ...input }, (catalogue) => applied(savePriceList(catalogue, input, isNew))),
    removeSale: (operator: string, id: string) => store.edit(operator, 'catalogue_remove_sale', { id }, (catalogue) => applied(removeSale(catalogue, id))),
  };
}
