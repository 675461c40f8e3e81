// `npm run admin -- add|remove|list`: operators kept in the database, beside ADMIN_EMAILS; `promo …`
// and `scripts …` hand over to their own commands.
import { z } from 'zod';
import { OPERATOR_INVITATION_HOURS } from '@shared/operator-standing';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { recordOperatorAction } from '../modules/admin/audit.repository';
import { inviteOperator } from '../modules/auth/operator-invitations';
import { listOperators, removeOperator } from '../modules/auth/operators.repository';
import type { PromotionsService } from '../modules/promotions/promotions.service';
import type { ScriptCatalogService } from '../modules/tradingview/script-catalog.service';
import { runPromoCommand } from './promo-command';
import { runScriptsCommand } from './scripts-command';
import type { ImportReport } from '../modules/content/content-import';
import { runAffiliatesCommand } from './affiliates-command';
import type { AffiliatesService } from '../modules/affiliates/affiliates.service';
import { runPlansCommand } from './plans-command';
import type { CatalogueService } from '../modules/catalogue/catalogue.service';

export const ADMIN_USAGE = 'usage: npm run admin -- add <email> | remove <email> | list | promo … | scripts … | affiliates … | plans … | content import';

/** Who the audit log names for changes made on the command line. */
export const CLI_OPERATOR = 'command-line';

export type CommandResult = { output: string; exitCode: number };

export type AdminCommandDeps = {
  db: Db;
  config: Pick<Config, 'adminEmails' | 'publicUrl'>;
  clock: () => Date;
  /** Promotion codes (`promo …`), built on first use: they need the configured payment provider. */
  promotions?: () => Promise<PromotionsService>;
  /** The script catalog (`scripts …`), built on first use: it needs the configured TradingView. */
  scripts?: () => Promise<ScriptCatalogService>;
  /** `content import`: the repository's content/ into the studio again (pieces from files are written over, the console's kept). */
  importContent?: () => Promise<ImportReport>;
  /** The affiliate program (`affiliates …`), built on first use. */
  affiliates?: () => Promise<AffiliatesService>;
  /** The catalogue (`plans …`): plans, prices, price lists and sales. */
  catalogue?: () => Promise<CatalogueService>;
};

const emailSchema = z.email();

export async function runAdminCommand(deps: AdminCommandDeps, args: readonly string[]): Promise<CommandResult> {
  const [command, email, ...rest] = args;
  if (command === 'promo') {
    if (!deps.promotions) return { output: 'Promotion codes are not available here.', exitCode: 2 };
    return runPromoCommand(await deps.promotions(), CLI_OPERATOR, args.slice(1));
  }
  if (command === 'scripts') {
    if (!deps.scripts) return { output: 'The script catalog is not available here.', exitCode: 2 };
    return runScriptsCommand(await deps.scripts(), CLI_OPERATOR, args.slice(1));
  }
  if (command === 'content') {
    if (email !== 'import' || rest.length > 0 || !deps.importContent) return { output: 'usage: npm run admin -- content import', exitCode: 2 };
    const report = await deps.importContent();
    return {
      output: `content imported: ${report.created} created, ${report.updated} updated, ${report.unchanged} unchanged, ${report.images} images. Pieces written in the console were left as they are; an updated piece keeps its earlier version in Revisions.`,
      exitCode: 0,
    };
  }
  if (command === 'affiliates') {
    if (!deps.affiliates) return { output: 'The affiliate program is not available here.', exitCode: 2 };
    return runAffiliatesCommand(await deps.affiliates(), CLI_OPERATOR, args.slice(1), deps.config.publicUrl);
  }
  if (command === 'plans') {
    if (!deps.catalogue) return { output: 'The catalogue is not available here.', exitCode: 2 };
    return runPlansCommand(await deps.catalogue(), CLI_OPERATOR, args.slice(1));
  }
  if (command === 'list' && email === undefined) {
    const stored = await listOperators(deps.db);
    const lines = [
      ...deps.config.adminEmails.map((address) => `${address}  (ADMIN_EMAILS)`),
      ...stored.map((row) => `${row.email}  (added ${row.createdAt.toISOString().slice(0, 10)} by ${row.addedBy})`),
    ];
    return { output: lines.length ? lines.join('\n') : 'No operators: set ADMIN_EMAILS or run npm run admin -- add <email>.', exitCode: 0 };
  }
  if ((command !== 'add' && command !== 'remove') || email === undefined || rest.length > 0) return { output: ADMIN_USAGE, exitCode: 2 };
  const parsed = emailSchema.safeParse(email.trim());
  if (!parsed.success) return { output: `Not an e-mail address: ${email}`, exitCode: 2 };
  const address = parsed.data.toLowerCase();

  if (command === 'add') {
    // Running this proves control of the server; the link carries that proof to the person, who
    // sets the account's password with it (a name alone never opens the console).
    const invitation = await inviteOperator(deps, { email: address, invitedBy: CLI_OPERATOR });
    if (invitation.newlyNamed) await recordOperatorAction(deps.db, { operator: CLI_OPERATOR, action: 'add_operator', details: { email: address } });
    const named = invitation.newlyNamed ? `${address} is now an operator.` : `${address} was already an operator.`;
    return {
      output: `${named} To open the console, they set their password with this one-time link (valid ${OPERATOR_INVITATION_HOURS} h):\n${invitation.url}`,
      exitCode: 0,
    };
  }
  const removed = await removeOperator(deps.db, address);
  if (removed) await recordOperatorAction(deps.db, { operator: CLI_OPERATOR, action: 'remove_operator', details: { email: address } });
  const named = deps.config.adminEmails.includes(address) ? ' It stays an operator while ADMIN_EMAILS names it.' : '';
  return { output: (removed ? `${address} is no longer a stored operator.` : `${address} was not a stored operator.`) + named, exitCode: removed ? 0 : 1 };
}
