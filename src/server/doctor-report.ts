// What `npm run doctor` prints: one line per check, then a summary; pure formatting. Beside the
// doctor rather than in it: an integration's own check (modules/<integration>) writes these lines too.

export type CheckStatus = 'ok' | 'problem' | 'sandbox';

export type Check = {
  /** Stripe, Tax, TradingView, Mail, or an integration's title (integrations.ts). */
  service: string;
  status: CheckStatus;
  /** What was found, e.g. 'STRIPE_PRICE_MONTHLY price_123: $36.00 every month'. */
  message: string;
  /** For a problem: what to do about it. */
  fix?: string;
  /**
   * For a problem: the service did not answer the check (throttled, failing, out of reach), which
   * says nothing about the configuration. A production start goes on with it logged.
   */
  unanswered?: true;
};

export const ok = (service: Check['service'], message: string): Check => ({ service, status: 'ok', message });
export const problem = (service: Check['service'], message: string, fix: string): Check => ({ service, status: 'problem', message, fix });
export const unanswered = (service: Check['service'], message: string, fix: string): Check => ({ ...problem(service, message, fix), unanswered: true });
export const sandbox = (service: Check['service'], message: string): Check => ({ service, status: 'sandbox', message });

const LABELS: Record<CheckStatus, string> = { ok: 'ok     ', problem: 'PROBLEM', sandbox: 'sandbox' };

export function hasProblems(checks: readonly Check[]): boolean {
  return checks.some((check) => check.status === 'problem');
}

/** The report: one line per check (a problem's fix indented below it) and a closing summary. */
export function formatReport(checks: readonly Check[]): string {
  const width = Math.max(...checks.map((check) => check.service.length));
  const lines = checks.flatMap((check) => {
    const line = `${LABELS[check.status]}  ${check.service.padEnd(width)}  ${check.message}`;
    return check.fix ? [line, `${' '.repeat(LABELS.ok.length + width + 4)}fix: ${check.fix}`] : [line];
  });
  const problems = checks.filter((check) => check.status === 'problem').length;
  const live = checks.filter((check) => check.status !== 'sandbox').length;
  const summary =
    problems > 0
      ? `${problems} problem${problems === 1 ? '' : 's'} found: fix ${problems === 1 ? 'it' : 'them'} and run npm run doctor again.`
      : live === 0
        ? 'Everything runs in the sandbox: nothing live to check. Set the Stripe, TradingView, Discord and SMTP variables to go live (docs/going-live.md).'
        : 'Every live check passed.';
  return [...lines, '', summary].join('\n');
}
