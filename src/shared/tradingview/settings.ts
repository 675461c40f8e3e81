// TradingView's configuration keys, read by the server's config.ts (the only reader of the
// environment) and parsed here, beside the rest of the integration (decision 064): without both
// session cookies the shop grants access in the sandbox TradingView.
import { z } from 'zod';
import { USERNAME_CHANGE_COOLDOWN_DAYS } from '../tradingview-usernames';

const optionalText = z.preprocess((value) => (value === '' ? undefined : value), z.string().optional());
const csv = z
  .string()
  .optional()
  .transform((value) => (value ?? '').split(',').map((item) => item.trim()).filter(Boolean));

/** The environment keys of the TradingView integration (merged into the server's env schema). */
export const tradingViewEnvShape = {
  TRADINGVIEW_SESSION_ID: optionalText,
  TRADINGVIEW_SESSION_SIGN: optionalText,
  TRADINGVIEW_BASE_URL: z.url().default('https://www.tradingview.com'),
  TRADINGVIEW_SCRIPT_IDS: csv,
  SANDBOX_TRADINGVIEW_MISSING_USERNAMES: csv,
  RECONCILER_INTERVAL_MS: z.coerce.number().int().min(1000).default(15_000),
  TRADINGVIEW_USERNAME_CHANGE_DAYS: z.coerce.number().int().min(0).max(365).default(USERNAME_CHANGE_COOLDOWN_DAYS),
};

export const tradingViewEnvSchema = z.object(tradingViewEnvShape);
export type TradingViewEnv = z.infer<typeof tradingViewEnvSchema>;

/** The brand the sandbox vendor's scripts are named after (BRAND_NAME, BRAND_SLUG). */
export type SandboxBrand = { name: string; slug: string };

export type TradingViewSettings = {
  baseUrl: string;
  /** TRADINGVIEW_SCRIPT_IDS: the initial bundle of every plan in the script catalog. */
  scriptIds: string[];
  /** What the sandbox TradingView lists as the vendor's invite-only scripts: the configured ids. */
  sandboxScripts: { id: string; name: string }[];
  /** The vendor's session cookies; null runs the sandbox. */
  credentials: { sessionId: string; sessionSign: string } | null;
  sandboxMissingUsernames: string[];
  reconcileIntervalMs: number;
  /** A member changes their own username at most once in this many days (0: any time). */
  usernameChangeDays: number;
};

export function tradingViewSettings(env: TradingViewEnv, brand: SandboxBrand): TradingViewSettings {
  const credentials = env.TRADINGVIEW_SESSION_ID && env.TRADINGVIEW_SESSION_SIGN ? { sessionId: env.TRADINGVIEW_SESSION_ID, sessionSign: env.TRADINGVIEW_SESSION_SIGN } : null;
  // The sandbox vendor's three invite-only scripts, and the bundle of every plan by default.
  const sandboxScripts = [
    { id: `PUB;${brand.slug}-pro-v2`, name: `${brand.name} Pro V2` },
    { id: `PUB;${brand.slug}-smart-money-concepts`, name: `${brand.name} Smart Money Concepts` },
    { id: `PUB;${brand.slug}-volatility-index`, name: `${brand.name} Volatility Index` },
  ];
  const scriptIds = env.TRADINGVIEW_SCRIPT_IDS.length ? env.TRADINGVIEW_SCRIPT_IDS : sandboxScripts.map((script) => script.id);
  return {
    baseUrl: env.TRADINGVIEW_BASE_URL.replace(/\/$/, ''),
    scriptIds,
    sandboxScripts: scriptIds.map((id) => sandboxScripts.find((script) => script.id === id) ?? { id, name: id.replace(/^PUB;/, '') }),
    credentials,
    sandboxMissingUsernames: env.SANDBOX_TRADINGVIEW_MISSING_USERNAMES,
    reconcileIntervalMs: env.RECONCILER_INTERVAL_MS,
    usernameChangeDays: env.TRADINGVIEW_USERNAME_CHANGE_DAYS,
  };
}

/** What is wrong with the keys together (the server refuses to start with the list). */
export function tradingViewSettingsProblems(env: TradingViewEnv): string[] {
  if (Boolean(env.TRADINGVIEW_SESSION_ID) === Boolean(env.TRADINGVIEW_SESSION_SIGN)) return [];
  // One cookie alone would silently run the sandbox while the vendor believes TradingView is live.
  const missing = env.TRADINGVIEW_SESSION_ID ? 'TRADINGVIEW_SESSION_SIGN' : 'TRADINGVIEW_SESSION_ID';
  const given = missing === 'TRADINGVIEW_SESSION_ID' ? 'TRADINGVIEW_SESSION_SIGN' : 'TRADINGVIEW_SESSION_ID';
  return [`${missing}: required together with ${given} (both TradingView cookies, or neither for the sandbox)`];
}
