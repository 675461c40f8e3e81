import { Hono } from 'hono';
import { z } from 'zod';
import {
  AUDIT_PAGE_SIZE,
  actionResultSchema,
  auditLogQuerySchema,
  banMemberRequestSchema,
  freeDaysRequestSchema,
  pauseCollectionRequestSchema,
  auditLogSchema,
  compAccessRequestSchema,
  memberDetailSchema,
  memberListQuerySchema,
  memberListSchema,
  operatorInviteRequestSchema,
  operatorListSchema,
  operatorStatusSchema,
  overviewSchema,
  usernameCorrectionSchema,
  type AuditLog,
  type OperatorList,
  type OperatorStatus,
} from '@shared/admin-contract';
import type { Db } from '../../db/client';
import { readJson } from '../../http/errors';
import { describeOperation } from '../../http/openapi';
import { operatorStandingOf, requireOperator, type OperatorDirectory } from '../auth/operator';
import type { OperatorInvitations } from '../auth/operator-invitations';
import { accountsByEmail, listOperators } from '../auth/operators.repository';
import { requireUser, type AuthVariables } from '../../http/session-user';
import { auditLogPage, recordOperatorAction } from './audit.repository';
import type { MembersService } from './members.service';
import type { ReportsService } from './reports.service';
import type { SupportActions } from './support-actions.service';
import { serverError } from '../../http/server-errors';

export type AdminRoutesDeps = { db: Db; directory: OperatorDirectory; reports: ReportsService; members: MembersService; support: SupportActions; invitations: OperatorInvitations };

const NO_STORE = { 'cache-control': 'private, no-store' };
const memberIdSchema = z.uuid();

/** A member id from the path; anything that is not one is a member we do not have. */
function memberId(value: string): string {
  const parsed = memberIdSchema.safeParse(value);
  if (!parsed.success) throw serverError('noMember');
  return parsed.data;
}

/**
 * GET /api/operator: whether the signed-in user is an operator, so that the member area shows the
 * console link and /admin opens only for them, or what a named operator still has to do (confirm
 * the e-mail, enrol two-factor, sign in again). Answered 200 to every member (a 403 here would be
 * an error in every member's browser console), 401 to visitors like any member route.
 */
export function operatorStatusRoutes(directory: OperatorDirectory) {
  return new Hono<{ Variables: AuthVariables }>().get('/operator', describeOperation({
    summary: 'Whether the signed-in user may open the operator console, or what is missing (confirm the e-mail, enrol two-factor, sign in again)',
    auth: 'session',
    response: operatorStatusSchema,
  }), async (c) => {
    const standing = await operatorStandingOf(directory, requireUser(c));
    return c.json({ operator: standing === 'operator', standing } satisfies OperatorStatus, 200, NO_STORE);
  });
}

async function operatorList(directory: OperatorDirectory): Promise<OperatorList> {
  const stored = await listOperators(directory.db);
  const named = [
    ...directory.config.adminEmails.map((email) => ({ email, namedBy: 'ADMIN_EMAILS' })),
    ...stored.filter((row) => !directory.config.adminEmails.includes(row.email)).map((row) => ({ email: row.email, namedBy: row.addedBy })),
  ];
  const accounts = await accountsByEmail(directory.db, named.map((operator) => operator.email));
  return {
    operators: named.map((operator) => ({ ...operator, account: accounts.get(operator.email) ?? null })),
    twoFactorRequired: directory.config.operatorRequireTwoFactor,
  };
}

/**
 * The operator console's API, mounted at /api/admin after loadSession: every route, including
 * those other operator pages add here with `.route()`, sits behind requireOperator, and the
 * authorisation table test walks `.routes` of this app, so a new route is tested as it is added.
 */
export function adminRoutes(deps: AdminRoutesDeps) {
  const { db, reports, members, support, invitations } = deps;
  return new Hono<{ Variables: AuthVariables }>()
    .use('*', requireOperator(deps.directory))
    .get('/overview', describeOperation({ summary: 'Revenue, members, refunds and what needs attention', auth: 'operator', response: overviewSchema }), async (c) => c.json(await reports.overview(), 200, NO_STORE))
    .get('/members', describeOperation({ summary: 'Members, searched and filtered, a page at a time', auth: 'operator', response: memberListSchema }), async (c) => c.json(await members.list(memberListQuerySchema.parse(c.req.query())), 200, NO_STORE))
    .get('/members/:id', describeOperation({ summary: "One member's account, subscriptions, orders, grants and security events", auth: 'operator', response: memberDetailSchema }), async (c) => c.json(await members.detail(memberId(c.req.param('id'))), 200, NO_STORE))
    .post('/members/:id/resync', describeOperation({ summary: "Sync the member's subscriptions with the payment provider", auth: 'operator', response: actionResultSchema }), async (c) => c.json(await members.resync(requireUser(c), memberId(c.req.param('id')))))
    .post('/members/:id/retry-grant', describeOperation({ summary: "Retry the member's failed TradingView grants now", auth: 'operator', response: actionResultSchema }), async (c) => c.json(await members.retryGrant(requireUser(c), memberId(c.req.param('id')))))
    .post('/members/:id/tradingview-username', describeOperation({ summary: "Correct the member's TradingView username", auth: 'operator', body: usernameCorrectionSchema, response: actionResultSchema }), async (c) => {
      const { username } = await readJson(c, usernameCorrectionSchema);
      return c.json(await members.correctUsername(requireUser(c), memberId(c.req.param('id')), username));
    })
    .post('/members/:id/tradingview-username/transfer', describeOperation({ summary: 'Move a TradingView username another member holds to this member (audited)', auth: 'operator', body: usernameCorrectionSchema, response: actionResultSchema }), async (c) => {
      const { username } = await readJson(c, usernameCorrectionSchema);
      return c.json(await members.transferUsername(requireUser(c), memberId(c.req.param('id')), username));
    })
    .post('/members/:id/comp', describeOperation({ summary: 'Give the member complimentary access until a day', auth: 'operator', body: compAccessRequestSchema, response: actionResultSchema }), async (c) => {
      const { until } = await readJson(c, compAccessRequestSchema);
      return c.json(await members.grantComp(requireUser(c), memberId(c.req.param('id')), until));
    })
    .post('/members/:id/revoke', describeOperation({ summary: "Revoke the member's access", auth: 'operator', response: actionResultSchema }), async (c) => c.json(await members.revokeAccess(requireUser(c), memberId(c.req.param('id')))))
    .post('/members/:id/free-days', describeOperation({ summary: "Add free days to the member's renewing plan (the provider's next charge moves with them)", auth: 'operator', body: freeDaysRequestSchema, response: actionResultSchema }), async (c) => {
      const { days } = await readJson(c, freeDaysRequestSchema);
      return c.json(await support.addFreeDays(requireUser(c), memberId(c.req.param('id')), days));
    })
    .post('/members/:id/pause-collection', describeOperation({ summary: "Pause collection of the member's renewing plan, keeping or stopping access meanwhile", auth: 'operator', body: pauseCollectionRequestSchema, response: actionResultSchema }), async (c) => {
      const { access } = await readJson(c, pauseCollectionRequestSchema);
      return c.json(await support.pauseCollection(requireUser(c), memberId(c.req.param('id')), access));
    })
    .post('/members/:id/resume-collection', describeOperation({ summary: "Resume collection of the member's paused plan", auth: 'operator', response: actionResultSchema }), async (c) => c.json(await support.resumeCollection(requireUser(c), memberId(c.req.param('id')))))
    .post('/members/:id/ban', describeOperation({ summary: 'Ban the member: access ends now, provider subscriptions are canceled, checkout refused; optionally refund the last payment', auth: 'operator', body: banMemberRequestSchema, response: actionResultSchema }), async (c) => {
      const request = await readJson(c, banMemberRequestSchema);
      return c.json(await support.ban(requireUser(c), memberId(c.req.param('id')), request));
    })
    .get('/operators', describeOperation({ summary: 'The named operators and how far each account has proven itself', auth: 'operator', response: operatorListSchema }), async (c) => c.json(await operatorList(deps.directory), 200, NO_STORE))
    .post('/operators/invite', describeOperation({ summary: 'Name an address an operator and mail it a one-time invitation', auth: 'operator', body: operatorInviteRequestSchema, response: actionResultSchema }), async (c) => {
      const operator = requireUser(c);
      const { email } = await readJson(c, operatorInviteRequestSchema);
      await invitations.invite({ email, invitedBy: operator.email });
      await recordOperatorAction(db, { operator: operator.email, action: 'invite_operator', details: { email: email.toLowerCase() } });
      return c.json({ message: `Invitation sent to ${email.toLowerCase()}.` });
    })
    .get('/audit-log', describeOperation({ summary: "The operators' actions, newest first, a page at a time", auth: 'operator', response: auditLogSchema }), async (c) => {
      const query = auditLogQuerySchema.parse(c.req.query());
      const { rows, total } = await auditLogPage(db, { page: query.page, pageSize: AUDIT_PAGE_SIZE, ...(query.member ? { targetUserId: query.member } : {}) });
      const body: AuditLog = {
        entries: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
        page: query.page,
        pageSize: AUDIT_PAGE_SIZE,
        total,
      };
      return c.json(body, 200, NO_STORE);
    });
}

