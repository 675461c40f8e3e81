// The catalogue in memory (decision record 045): every page and member request reads it from
// here; an edit on this instance shows at once, one made elsewhere (another instance, the command
// line) within MEMBER_CACHE_MS: the version row is read at most once per that time. Until the
// first edit the shop sells the seed's catalogue, built from its configuration.
import { campaignOf, currentPrices, isSaleRunning, type Campaign } from '@shared/campaign';
import { catalogueProblem, setActiveCatalogue, type Catalogue } from '@shared/catalogue';
import type { PlanPrices } from '@shared/plans';
import type { Db } from '../../db/client';
import { ApiError } from '../../http/errors';
import { catalogueVersion, lockCatalogue, readCatalogue, writeCatalogue } from './catalogue.repository';

export type CatalogueAudit = (db: Db, entry: { operator: string; action: string; details: Record<string, unknown> }) => Promise<void>;

export type CatalogueStore = {
  /** The catalogue in effect on this instance. */
  current: () => Catalogue;
  /** Its version: 0 for the seed's (never edited); changes with every edit. */
  version: () => number;
  /** Reads the stored catalogue (start-up). */
  load: () => Promise<void>;
  /** Reads it again when another instance or the command line changed it; at most once per MEMBER_CACHE_MS. */
  fresh: () => Promise<void>;
  /** The sale and prices the catalogue makes at `now` (the site settings' campaign). */
  campaign: (now: Date) => Campaign;
  /** What a checkout charges for each plan at `now`. */
  prices: (now: Date) => PlanPrices;
  /**
   * One edit: under the catalogue's lock, `change` gets the catalogue in effect (the seed's before the
   * first edit, written with it) and returns the new one, which must pass every rule (else 400 and
   * nothing is written); audited in the same transaction.
   */
  edit: (operator: string, action: string, details: Record<string, unknown>, change: (catalogue: Catalogue) => Catalogue) => Promise<Catalogue>;
  /** Called after the catalogue this instance serves changed (pre-rendered pages render again). */
  onChange: (listener: () => void) => void;
};

export function createCatalogueStore(deps: { db: Db; seed: Catalogue; ttlMs: number; now: () => number; audit?: CatalogueAudit }): CatalogueStore {
  const { db, seed } = deps;
  let catalogue = seed;
  let version = 0;
  let checkedAt = -Infinity;
  let pending: Promise<void> | null = null;
  const listeners: (() => void)[] = [];
  let campaignMemo: { at: number; key: string; campaign: Campaign } | null = null;

  function use(next: Catalogue, nextVersion: number) {
    const changed = nextVersion !== version;
    catalogue = next;
    version = nextVersion;
    campaignMemo = null;
    setActiveCatalogue(catalogue);
    if (changed) for (const listener of listeners) listener();
  }

  async function load() {
    checkedAt = deps.now();
    const stored = await readCatalogue(db);
    if (stored) use(stored.catalogue, stored.version);
    else setActiveCatalogue(catalogue);
  }

  async function check() {
    checkedAt = deps.now();
    if ((await catalogueVersion(db)) !== version) await load();
  }

  function campaign(now: Date): Campaign {
    // a campaign holds until a sale starts or ends: recomputed once a second at most
    const second = Math.floor(now.getTime() / 1000);
    if (campaignMemo && campaignMemo.at === second) return campaignMemo.campaign;
    const next = campaignOf(catalogue, now);
    const key = JSON.stringify([next.saleEndsAt, next.saleLabel, next.prices, next.regularPrices]);
    const kept = campaignMemo && campaignMemo.key === key ? campaignMemo.campaign : next;
    campaignMemo = { at: second, key, campaign: kept };
    return kept;
  }

  return {
    current: () => catalogue,
    version: () => version,
    load,
    fresh: () => {
      if (deps.ttlMs > 0 && deps.now() - checkedAt < deps.ttlMs) return Promise.resolve();
      pending ??= check().finally(() => {
        pending = null;
      });
      return pending;
    },
    campaign,
    prices: (now) => {
      const current = campaign(now);
      return currentPrices(current, isSaleRunning(current, now));
    },
    edit: async (operator, action, details, change) => {
      const result = await db.transaction(async (tx) => {
        const held = await lockCatalogue(tx);
        const base = held === 0 ? seed : ((await readCatalogue(tx))?.catalogue ?? seed);
        const next = change(base);
        const problem = catalogueProblem(next);
        if (problem) throw new ApiError(400, 'invalid_catalogue', problem);
        await writeCatalogue(tx, next, held);
        await deps.audit?.(tx, { operator, action, details });
        return { next, version: held + 1 };
      });
      checkedAt = deps.now();
      use(result.next, result.version);
      return result.next;
    },
    onChange: (listener) => {
      listeners.push(listener);
    },
  };
}
