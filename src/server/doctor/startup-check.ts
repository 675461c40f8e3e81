import type { Config } from '../config';
import type { Logger } from '../logger';
import { formatReport, hasProblems } from './doctor-report';
import { runDoctor, type DoctorOptions } from './run-doctor';

/**
 * The doctor's checks at a production start, before listening: a shop whose payments, access or
 * mail would fail refuses to start and prints the report (the same one `npm run doctor` prints).
 */
export async function passesDoctor(config: Config, logger: Logger, write: (text: string) => void = console.error, options: DoctorOptions = {}): Promise<boolean> {
  const checks = await runDoctor(config, options);
  if (hasProblems(checks)) {
    write(`Refusing to start: the live configuration has problems.\n\n${formatReport(checks)}`);
    return false;
  }
  logger.info({ checks: checks.map((check) => `${check.status} ${check.service}: ${check.message}`) }, 'doctor: live configuration checked');
  return true;
}
