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
  const entries = (list: ImportLine[]) => list.map((entry) => `${entry.subject}: ${entry.detail}`);
  const section = (title: string, rows: string[]) => (rows.length ? [title, ...rows] : []);
  lines.push(
    ...section(dryRun ? 'Would be:' : 'Done:', indented(entries(report.created))),
    ...section('Matched:', indented(entries(report.matched))),
    // what went wrong is named 20 at a time: a shop of 100,000 customers does not scroll it away
    ...section('Unmatched:', atMostShown(entries(report.unmatched), 'row')),
    ...section('Conflicts:', atMostShown(entries(report.conflicts), 'row')),
  );
  if (report.error) lines.push(`Stopped: ${report.error}`, 'What is listed above was done; run the same command again to continue.');
  return lines.join('\n');
}

/** How many bad rows (a map's broken lines, unmatched access, conflicts) the command line names; the rest are counted. */
export const BAD_ROWS_SHOWN = 20;

const indented = (rows: readonly string[]) => rows.map((row) => `  ${row}`);

/** The first BAD_ROWS_SHOWN of `rows`, indented, then how many more and in all ('broken line': '… and 5 more broken lines (25 in all)'). */
function atMostShown(rows: readonly string[], noun: string): string[] {
  const rest = rows.length - BAD_ROWS_SHOWN;
  return rest > 0 ? [...indented(rows.slice(0, BAD_ROWS_SHOWN)), `  … and ${rest} more ${noun}${rest === 1 ? '' : 's'} (${rows.length} in all)`] : indented(rows);
}

/** The map's broken lines as the command line prints them: the first 20, then how many more and in all. */
export function formatBrokenLines(file: string, errors: readonly string[]): string {
  return [`${file} has broken lines; nothing was imported:`, ...atMostShown(errors, 'broken line')].join('\n');
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
