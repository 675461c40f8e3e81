// The sandbox Discord's own API, mounted at /api/sandbox/discord only while Discord runs in the
// sandbox: what its authorize page (/sandbox/discord/authorize, a client page like the sandbox
// checkout) shows and the consent it sends, the guild as its owner sees it, a role taken away by
// hand (to watch the audit repair it) and the simulated failures.
import { Hono } from 'hono';
import { z } from 'zod';
import {
  SANDBOX_DISCORD_CLIENT_ID,
  sandboxDiscordAuthorizationSchema,
  sandboxDiscordAuthorizeRequestSchema,
  sandboxDiscordAuthorizeResponseSchema,
  sandboxDiscordGuildSchema,
  sandboxDiscordSwitchesRequestSchema,
  sandboxDiscordSwitchesSchema,
} from '@shared/sandbox-discord-contract';
import { safeText } from '@shared/validation';
import { readJson } from '../../http/errors';
import { describeOperation } from '../../http/openapi';
import { serverError } from '../../http/server-errors';
import { requireUser, type AuthVariables } from '../../http/session-user';
import type { OperatorAuditEntry } from '../../integration';
import { requireOperator, type OperatorDirectory } from '../auth/operator';
import { SANDBOX_DISCORD_SCOPES, type SandboxDiscord } from './sandbox-discord';

export type SandboxDiscordRoutesOptions = {
  discord: SandboxDiscord;
  /** The application the authorize page names (the shop's brand). */
  applicationName: string;
  /** The shop's own origins: the only places the authorize page sends a browser back to. */
  shopOrigins: readonly string[];
  directory: OperatorDirectory;
  /** Whether anyone may see the guild and take a role away (a public all-sandbox demo), else operators only. */
  openToAll?: () => boolean;
  /** Writes the console's audit log (the switches an operator turns). */
  audit: (entry: OperatorAuditEntry) => Promise<void>;
};

const clientIdSchema = z.literal(SANDBOX_DISCORD_CLIENT_ID, { error: `Unknown application: client_id must be "${SANDBOX_DISCORD_CLIENT_ID}".` });

/** Scopes as the authorize URL spells them (space-separated), each one Discord knows. */
const scopesSchema = safeText()
  .max(500)
  .transform((value, context) => {
    const scopes = [...new Set(value.split(/[\s+]+/).filter(Boolean))];
    if (scopes.length === 0) context.addIssue({ code: 'custom', message: 'scope: name at least one scope.' });
    for (const scope of scopes) if (!Object.hasOwn(SANDBOX_DISCORD_SCOPES, scope)) context.addIssue({ code: 'custom', message: `Unknown scope: ${scope}.` });
    return scopes;
  });

/** The address Discord sends the browser back to: only one of the shop's own, and no fragment (OAuth). */
function redirectUriSchema(shopOrigins: readonly string[]) {
  return safeText()
    .max(2000)
    .refine((value) => {
      if (!URL.canParse(value)) return false;
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hash === '' && !value.includes('#') && shopOrigins.includes(url.origin);
    }, 'redirect_uri must be an address of this shop.');
}

/** redirect_uri with the given answer in its query, the state last, as Discord sends it. */
function backToShop(redirectUri: string, answer: Record<string, string>, state: string | undefined): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(answer)) url.searchParams.set(key, value);
  if (state !== undefined) url.searchParams.set('state', state);
  return url.toString();
}

const memberIdSchema = z.string().regex(/^\d{1,20}$/, 'Malformed member id: Discord user ids are numbers.');

const OPEN_IN_DEMO = 'Open to anyone while the whole shop is a public demo.';
const BY_BROWSER = { auth: 'none', description: 'Mounted only while Discord runs in the sandbox: the page a member consents on.' } as const;

export function sandboxDiscordRoutes(options: SandboxDiscordRoutesOptions) {
  const { discord, applicationName, shopOrigins, directory, openToAll = () => false, audit } = options;
  const { sandbox } = discord;
  const redirectUri = redirectUriSchema(shopOrigins);
  const authorizeQuerySchema = z.object({
    client_id: clientIdSchema,
    redirect_uri: redirectUri,
    state: safeText().max(1000).optional(),
    scope: scopesSchema,
    response_type: z.literal('code', { error: 'response_type must be "code".' }).optional(),
  });
  const authorizeRequestSchema = sandboxDiscordAuthorizeRequestSchema.extend({ clientId: clientIdSchema, redirectUri, scope: scopesSchema });
  const ownerOnly = requireOperator(directory, openToAll);
  const operatorsOnly = requireOperator(directory);

  return new Hono<{ Variables: AuthVariables }>()
    .get('/authorize', describeOperation({
      summary: "What the sandbox Discord's authorize page shows: the application, its scopes, where Cancel goes",
      ...BY_BROWSER,
      parameters: ['client_id', 'redirect_uri', 'scope', 'state'].map((name) => ({ in: 'query' as const, name, required: name !== 'state', schema: { type: 'string' as const } })),
      response: sandboxDiscordAuthorizationSchema,
    }), (c) => {
      const query = authorizeQuerySchema.parse(c.req.query());
      c.header('Cache-Control', 'no-store');
      return c.json({
        application: applicationName,
        scopes: query.scope.map((scope) => ({ scope, description: SANDBOX_DISCORD_SCOPES[scope] ?? scope })),
        redirectOrigin: new URL(query.redirect_uri).origin,
        cancelUrl: backToShop(query.redirect_uri, { error: 'access_denied' }, query.state),
      });
    })
    .post('/authorize', describeOperation({ summary: 'Consent on the sandbox Discord: a one-time code for the username, and where the browser goes with it', ...BY_BROWSER, body: sandboxDiscordAuthorizeRequestSchema, response: sandboxDiscordAuthorizeResponseSchema }), async (c) => {
      const request = await readJson(c, authorizeRequestSchema);
      const { code } = await sandbox.authorize({ username: request.username, redirectUri: request.redirectUri, scopes: request.scope });
      c.header('Cache-Control', 'no-store');
      return c.json({ redirectUrl: backToShop(request.redirectUri, { code }, request.state) });
    })
    .get('/guild', describeOperation({ summary: "The sandbox Discord guild: its roles and its members' roles", auth: 'operator', description: OPEN_IN_DEMO, response: sandboxDiscordGuildSchema }), ownerOnly, async (c) => c.json(await sandbox.guild()))
    .delete('/guild/members/:id/roles/:roleId', describeOperation({ summary: "Take a role away from a sandbox guild member by hand (the audit's drift to repair)", auth: 'operator', description: OPEN_IN_DEMO, response: sandboxDiscordGuildSchema }), ownerOnly, async (c) => {
      const userId = memberIdSchema.parse(c.req.param('id'));
      const roleIds = (await sandbox.guild()).roles.map((role) => role.id);
      const roleId = z
        .string()
        .refine((id) => roleIds.includes(id), 'Unknown role: the sandbox guild has no role with this id.')
        .parse(c.req.param('roleId'));
      if ((await sandbox.takeRole(userId, roleId)) === 'no_member') throw serverError('noMember');
      return c.json(await sandbox.guild());
    })
    .get('/switches', describeOperation({ summary: "The sandbox Discord's simulated failures: outage, missing Manage Roles, role above the bot", auth: 'operator', response: sandboxDiscordSwitchesSchema }), operatorsOnly, async (c) => c.json(await sandbox.switches()))
    .post('/switches', describeOperation({ summary: 'Turn simulated Discord failures on or off (those left out stay as they are)', auth: 'operator', body: sandboxDiscordSwitchesRequestSchema, response: sandboxDiscordSwitchesSchema }), operatorsOnly, async (c) => {
      const change = await readJson(c, sandboxDiscordSwitchesRequestSchema);
      if (change.outage !== undefined) await sandbox.setOutage(change.outage);
      if (change.missingManageRoles !== undefined) await sandbox.setMissingManageRoles(change.missingManageRoles);
      if (change.roleAboveBot !== undefined) await sandbox.setRoleAboveBot(change.roleAboveBot);
      if (Object.keys(change).length > 0) await audit({ operator: requireUser(c).email, action: 'sandbox.discord_switches', details: change });
      return c.json(await sandbox.switches());
    });
}
