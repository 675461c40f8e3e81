// The import of an existing business: what a run reports (the command line prints it, the console
// shows it) and the map of known TradingView usernames (`--map file.csv`), read all or nothing.
import { emailSchema, tradingViewUsernameSchema } from './validation';

export const IMPORT_SOURCES = ['stripe', 'tradingview'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/** One thing a run names: who or what (an e-mail, a username on a script) and what happened to it. */
export type ImportLine = { subject: string; detail: string };

export type ImportReport = {
  /** Purchases (stripe) or access entries (tradingview) read from the provider. */
  read: number;
  /** Members created (stripe) or access adopted as the shop's own (tradingview); a dry run: would be. */
  created: ImportLine[];
  /** Already imported or adopted by an earlier run: nothing to do. */
  unchanged: number;
  /** TradingView usernames matched to members (from the map, or from imported members). */
  matched: ImportLine[];
  /** Access that matches no member: reported and left alone. */
  unmatched: ImportLine[];
  /** What the import would not decide alone (two subscriptions for one e-mail, a member without access…). */
  conflicts: ImportLine[];
  /** What stopped the run before the end (a provider that failed); rerun to continue. */
  error: string | null;
};

export const emptyImportReport = (): ImportReport => ({ read: 0, created: [], unchanged: 0, matched: [], unmatched: [], conflicts: [], error: null });

const CREATED_LABEL: Record<ImportSource, { done: string; dry: string }> = {
  stripe: { done: 'members created', dry: 'members to create' },
  tradingview: { done: 'access adopted', dry: 'access to adopt' },
};

/** The report as the command line prints it: counts first, then each list. */
export function formatImportReport(source: ImportSource, dryRun: boolean, report: ImportReport): string {
  const lines = [
    `${source === 'stripe' ? 'Stripe' : 'TradingView'} import${dryRun ? ' (dry run: nothing was changed)' : ''}`,
    `  read: ${report.read}`,
    `  ${CREATED_LABEL[source][dryRun ? 'dry' : 'done']}: ${report.created.length}`,
    `  unchanged: ${report.unchanged}`,
    `  usernames matched: ${report.matched.length}`,
    `  unmatched access (left alone): ${report.unmatched.length}`,
    `  conflicts: ${report.conflicts.length}`,
  ];
  const section = (title: string, entries: ImportLine[]) => (entries.length ? [title, ...entries.map((entry) => `  ${entry.subject}: ${entry.detail}`)] : []);
  lines.push(...section(dryRun ? 'Would be:' : 'Done:', report.created), ...section('Matched:', report.matched), ...section('Unmatched:', report.unmatched), ...section('Conflicts:', report.conflicts));
  if (report.error) lines.push(`Stopped: ${report.error}`, 'What is listed above was done; run the same command again to continue.');
  return lines.join('\n');
}

/** How many broken lines of a map the command line names; the rest are counted. */
export const BROKEN_LINES_SHOWN = 20;

/** The map's broken lines as the command line prints them: the first 20, then how many more and in all. */
export function formatBrokenLines(file: string, errors: readonly string[]): string {
  const shown = errors.slice(0, BROKEN_LINES_SHOWN).map((error) => `  ${error}`);
  const rest = errors.length - shown.length;
  return [
    `${file} has broken lines; nothing was imported:`,
    ...shown,
    ...(rest > 0 ? [`  … and ${rest} more broken line${rest === 1 ? '' : 's'} (${errors.length} in all)`] : []),
  ].join('\n');
}

export type UsernameMap = ReadonlyMap<string, string>;
export type UsernameMapResult = { ok: true; map: UsernameMap } | { ok: false; errors: string[] };

const HEADER = /^\s*e-?mail\s*,\s*tradingview_username\s*$/i;

/**
 * `email,tradingview_username` per line (a header line of those names is allowed, blank lines
 * are skipped). Every broken line is named with its number, and then nothing is used.
 */
export function parseUsernameMap(text: string): UsernameMapResult {
  const errors: string[] = [];
  const byEmail = new Map<string, string>();
  const emailOfUsername = new Map<string, string>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '' || (index === 0 && HEADER.test(raw))) return;
    const fields = raw.split(',');
    if (fields.length !== 2) return void errors.push(`line ${line}: expected 2 fields (email,tradingview_username), found ${fields.length}`);
    const email = emailSchema.safeParse(fields[0]!.trim());
    const username = tradingViewUsernameSchema.safeParse(fields[1]!);
    if (!email.success) return void errors.push(`line ${line}: "${fields[0]!.trim()}" is not an e-mail address`);
    if (!username.success) return void errors.push(`line ${line}: "${fields[1]!.trim()}": ${username.error.issues[0]?.message ?? 'not a TradingView username'}`);
    const address = email.data.toLowerCase();
    const name = username.data;
    const known = byEmail.get(address);
    if (known !== undefined && known.toLowerCase() !== name.toLowerCase()) return void errors.push(`line ${line}: ${address} already has the username ${known}`);
    const owner = emailOfUsername.get(name.toLowerCase());
    if (owner !== undefined && owner !== address) return void errors.push(`line ${line}: ${name} already belongs to ${owner}`);
    if (known !== undefined) return;
    byEmail.set(address, name);
    emailOfUsername.set(name.toLowerCase(), address);
  });
  return errors.length ? { ok: false, errors } : { ok: true, map: byEmail };
}

/** How long the set-your-password link of an imported buyer works. */
export const ACCESS_MOVED_LINK_DAYS = 14;

/** `monthly until 2026-12-01`, `lifetime` (no end): how a report names a plan and its period. */
export const planUntil = (planType: string, expiresAt: Date | null) => (expiresAt ? `${planType} until ${expiresAt.toISOString().slice(0, 10)}` : planType);
