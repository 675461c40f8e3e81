import type { Config } from '../config';
import type { Logger } from '../logger';
import { formatReport, hasProblems } from '../doctor-report';
import { runDoctor, type DoctorOptions } from './run-doctor';

/**
 * The doctor's checks at a production start, before listening: a shop whose payments, access or
 * mail would fail refuses to start and prints the report (the same one `npm run doctor` prints).
 * A service that did not answer its check only is logged: an instance started again in the middle
 * of a sale meets TradingView throttling the other instances' grants, and the grant queue waits
 * for TradingView anyway, while a shop that refused to start would take no payment (docs/decisions/044).
 */
export async function passesDoctor(config: Config, logger: Logger, write: (text: string) => void = console.error, options: DoctorOptions = {}): Promise<boolean> {
  const checks = await runDoctor(config, options);
  if (hasProblems(checks.filter((check) => !check.unanswered))) {
    write(`Refusing to start: the live configuration has problems.\n\n${formatReport(checks)}`);
    return false;
  }
  const unanswered = checks.filter((check) => check.unanswered);
  if (unanswered.length > 0) logger.warn({ checks: unanswered.map((check) => `${check.service}: ${check.message}`) }, 'doctor: a service did not answer its check; starting, run npm run doctor again later');
  logger.info({ checks: checks.map((check) => `${check.status} ${check.service}: ${check.message}`) }, 'doctor: live configuration checked');
  return true;
}
