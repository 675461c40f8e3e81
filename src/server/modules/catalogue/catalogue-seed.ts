// The seed's catalogue of this shop: today's plans with the prices, sale and roles of its
// configuration (PRICE_*, REGULAR_PRICE_*, SALE_ENDS_AT, SALE_LABEL, DISCORD_ROLE_IDS_<PLAN>).
// Sold until the first edit, and written with it: a shop that upgrades changes nothing.
import type { Catalogue } from '@shared/catalogue';
import { seedCatalogue } from '@shared/plans';
import type { Config } from '../../config';

export function configSeed(config: Pick<Config, 'site' | 'integrations'>): Catalogue {
  return seedCatalogue({
    prices: config.site.prices,
    regularPrices: config.site.regularPrices,
    saleEndsAt: config.site.saleEndsAt,
    saleLabel: config.site.saleLabel,
    discordRoleIds: config.integrations.discord.planRoleIds,
  });
}
