// `npm run doctor`: checks the live configuration against the real services, prints one line per
// check, and exits non-zero when anything needs fixing.
import { ConfigError, loadConfig } from '../config';
import { formatReport, hasProblems } from '../doctor-report';
import { runDoctor } from './run-doctor';

try {
  const checks = await runDoctor(loadConfig());
  console.log(formatReport(checks));
  process.exitCode = hasProblems(checks) ? 1 : 0;
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
