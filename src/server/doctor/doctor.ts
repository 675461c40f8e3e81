// `npm run doctor`: checks the live configuration against the real services, prints one line per
// check, and exits non-zero when anything needs fixing. The catalogue is read from the database:
// once the operator edited it, its Stripe Prices are what is checked (decision record 058).
import { runWithDatabase } from '../admin-cli/cli-database';
import { readCatalogue } from '../modules/catalogue/catalogue.repository';
import { formatReport, hasProblems } from '../doctor-report';
import { runDoctor } from './run-doctor';

await runWithDatabase(async (config, database) => {
  const stored = await readCatalogue(database.db);
  const checks = await runDoctor(config, { catalogue: stored?.catalogue ?? null });
  return { output: formatReport(checks), exitCode: hasProblems(checks) ? 1 : 0 };
});
