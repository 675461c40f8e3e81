// The catalogue's edits, for the console and the command line alike: each is checked by the
// shared rules (catalogue.ts), refused with its reason as a 400 with nothing saved, else written
// and audited in one transaction (catalogue-store.ts).
import { addPlan, archivePlan, removeSale, saveSale, setPrice, updatePlan, type Catalogue, type Edit, type NewPlan, type PlanChanges, type Sale } from '@shared/catalogue';
import { savePriceList, type PriceListInput } from '@shared/price-lists';
import { ApiError } from '../../http/errors';
import type { CatalogueStore } from './catalogue-store';
import type { Published } from './catalogue-stripe';
import type { PriceMover } from './price-moves';

export type CatalogueService = ReturnType<typeof createCatalogueService>;

function applied(edit: Edit): Catalogue {
  if ('problem' in edit) throw new ApiError(400, 'invalid_catalogue', edit.problem);
  return edit.catalogue;
}

/** Publishes a catalogue's Prices at Stripe (catalogue-stripe.ts); absent: payments run in the sandbox, which charges the catalogue itself. */
export type CataloguePublisher = (catalogue: Catalogue) => Promise<Published[]>;

export function createCatalogueService(store: CatalogueStore, publisher?: CataloguePublisher, mover?: PriceMover) {
  return {
    /** Moves the members of `slug` who pay an older price on `list` to its current one at their next renewal (price-moves.ts). */
    moveMembers: async (operator: string, slug: string, list?: string) => {
      // wired wherever members can be moved (the server, the command line); a caller without it is a wiring mistake
      if (!mover) throw new Error('moveMembers needs the price mover');
      await store.load();
      return mover(operator, store.current(), slug, list);
    },
    /** The catalogue's Prices at Stripe, made where missing; null in the sandbox. */
    publish: async (): Promise<Published[] | null> => {
      if (!publisher) return null;
      await store.load();
      return publisher(store.current());
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
