// The free-trial API: the member's own trial, and the console's trial report (mounted under
// /api/admin, behind requireOperator). Handlers validate, call the service and answer a DTO.
import { Hono } from 'hono';
import { memberTrialResponseSchema, trialsQuerySchema, trialsReportSchema } from '@shared/trials-contract';
import { describeOperation } from '../../http/openapi';
import { requireUser, type AuthVariables } from '../../http/session-user';
import type { TrialsService } from './trials.service';

const NO_STORE = { 'cache-control': 'private, no-store' };

export function trialRoutes({ trials }: { trials: TrialsService }) {
  return new Hono<{ Variables: AuthVariables }>().get(
    '/trial',
    describeOperation({ summary: "The member's latest free trial: when it ends, what is then charged, or why it was refused", auth: 'session', response: memberTrialResponseSchema }),
    async (c) => c.json({ trial: await trials.memberTrial(requireUser(c).id) }, 200, NO_STORE),
  );
}

/** Under /api/admin. */
export function trialAdminRoutes({ trials }: { trials: TrialsService }) {
  return new Hono<{ Variables: AuthVariables }>().get(
    '/trials',
    describeOperation({ summary: 'Free trials: started, running, converted, canceled and refused repeats with their reasons (one member with userId)', auth: 'operator', response: trialsReportSchema }),
    async (c) => c.json(await trials.report(trialsQuerySchema.parse(c.req.query())), 200, NO_STORE),
  );
}
