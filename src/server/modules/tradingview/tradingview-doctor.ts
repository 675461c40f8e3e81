// TradingView, as `npm run doctor` checks it: the session cookie and every script id.
import { createTradingViewClient, type TradingViewClient } from './tradingview-client';
import { toTradingViewError, type TradingViewError } from './tradingview.port';
import { ok, problem, sandbox, unanswered, type Check } from '../../doctor-report';

export type TradingViewCheckSettings = {
  baseUrl: string;
  credentials: { sessionId: string; sessionSign: string } | null;
  scriptIds: readonly string[];
};

/** A published script's id: 'PUB;' and the hex id TradingView shows (the sandbox's placeholders have dashes). */
const SCRIPT_ID = /^PUB;[A-Za-z0-9]{10,}$/;

/** Throttled (429), failing (5xx), timed out or out of reach: TradingView said nothing about the configuration. */
const didNotAnswer = (failure: TradingViewError) => failure.kind === 'network';
const RETRY_FIX = 'TradingView throttled the check or is down: run npm run doctor again in a minute (a production start goes on meanwhile; the grant queue waits for TradingView)';

const COOKIE_FIX = 'sign in to TradingView in a browser with the vendor account, copy the sessionid and sessionid_sign cookies into TRADINGVIEW_SESSION_ID and TRADINGVIEW_SESSION_SIGN (docs/going-live.md) and restart';

/** The session cookie's check, and the account it signs in as when TradingView names it. */
type Session = { check: Check; account: string | null };

async function checkSession(client: TradingViewClient, firstScript: string): Promise<Session> {
  try {
    const { username } = await client.currentAccount();
    return { check: ok('TradingView', `session cookie signed in as ${username}`), account: username };
  } catch (error) {
    // The account endpoint is not a published API: a cookie that can manage a script still works.
    const works = await client.assertManages(firstScript).then(() => true, () => false);
    if (works) return { check: ok('TradingView', 'session cookie works (TradingView did not name the account)'), account: null };
    const failure = toTradingViewError(error);
    if (failure.kind === 'session_expired') return { check: problem('TradingView', 'the session cookie is not signed in (expired, or signed out)', COOKIE_FIX), account: null };
    if (didNotAnswer(failure)) return { check: unanswered('TradingView', `TradingView cannot be reached: ${failure.message}`, `check the network (and TRADINGVIEW_BASE_URL); ${RETRY_FIX}`), account: null };
    return { check: problem('TradingView', `the session cookie could not be checked: ${failure.message}`, COOKIE_FIX), account: null };
  }
}

async function checkScript(client: TradingViewClient, { check: session, account }: Session, scriptId: string): Promise<Check> {
  if (!SCRIPT_ID.test(scriptId)) {
    return problem('TradingView', `TRADINGVIEW_SCRIPT_IDS entry "${scriptId}" is not a published script id`, 'copy the id (PUB;…) of each invite-only script from its page on TradingView (docs/going-live.md)');
  }
  if (session.unanswered) return unanswered('TradingView', `${scriptId} not checked: TradingView did not answer`, RETRY_FIX);
  if (session.status !== 'ok') return problem('TradingView', `${scriptId} not checked: the session cookie does not work`, COOKIE_FIX);
  try {
    await client.assertManages(scriptId);
    return ok('TradingView', `${scriptId}: ${account ?? 'the account'} manages its access list`);
  } catch (error) {
    const failure = toTradingViewError(error);
    if (didNotAnswer(failure)) return unanswered('TradingView', `${scriptId} not checked: TradingView did not answer (${failure.message})`, RETRY_FIX);
    return problem('TradingView', `${account ?? 'the account'} cannot manage ${scriptId}: ${failure.message}`, 'use the ids of invite-only scripts this account published, or the cookies of the account that published them');
  }
}

export async function checkTradingView(settings: TradingViewCheckSettings, options: { timeoutMs?: number } = {}): Promise<Check[]> {
  if (!settings.credentials) return [sandbox('TradingView', 'no session cookies: access is granted in the sandbox')];
  if (settings.scriptIds.length === 0) return [problem('TradingView', 'TRADINGVIEW_SCRIPT_IDS is empty', 'list the invite-only script ids (PUB;…), separated by commas')];
  const client = createTradingViewClient({ baseUrl: settings.baseUrl, credentials: settings.credentials, scriptIds: settings.scriptIds, ...options });
  const session = await checkSession(client, settings.scriptIds[0]!);
  const scripts = [];
  for (const scriptId of settings.scriptIds) scripts.push(await checkScript(client, session, scriptId));
  return [session.check, ...scripts];
}
