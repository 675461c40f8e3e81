// The funnel's rules: which request is a person's landing visit, what source it came from (UTM
// tags kept short and printable, so a forged 5 KB tag costs nothing), and the console's contract.
import { z } from 'zod';

/** The longest UTM value kept; longer ones are cut (a tag is a label, not a payload). */
export const UTM_MAX_LENGTH = 100;
/** The longest affiliate code kept with a visit (codes are shorter; a longer one is no code). */
export const VISIT_REF_MAX_LENGTH = 40;
/** The widest window the console asks for: a year and a day. */
export const FUNNEL_MAX_DAYS = 366;

export const FUNNEL_STEPS = ['visits', 'checkoutsStarted', 'paid', 'accountsCreated', 'accessGranted', 'communityLinked'] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number];

export const FUNNEL_STEP_LABELS: Record<FunnelStep, string> = {
  visits: 'Landing visits',
  checkoutsStarted: 'Checkouts started',
  paid: 'Paid',
  accountsCreated: 'Accounts created',
  accessGranted: 'TradingView granted',
  communityLinked: 'Community linked',
};

export const SOURCE_KINDS = ['utm', 'affiliate', 'promotion', 'priceList'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export const SOURCE_KIND_LABELS: Record<SourceKind, string> = {
  utm: 'UTM source',
  affiliate: 'Affiliate',
  promotion: 'Promotion code',
  priceList: 'Price list',
};

export type Utm = { source: string; medium: string; campaign: string };
export const NO_UTM: Utm = { source: '', medium: '', campaign: '' };

// Crawlers, link previews, uptime monitors and scripts: not people looking at the page.
const BOT_AGENT =
  /bot|crawl|spider|slurp|archiver|preview|facebookexternalhit|embedly|headless|lighthouse|pingdom|uptime|monitor|curl|wget|python|java\/|go-http|okhttp|axios|node-fetch|undici|httpclient|libwww|scrapy|phantomjs/i;

/** True for a request no person made: a crawler's or script's user agent, none at all, or a prefetch. */
export function isAutomatedVisit(headers: { userAgent: string | undefined; purpose: string | undefined }): boolean {
  const agent = headers.userAgent?.trim() ?? '';
  if (agent.length === 0 || BOT_AGENT.test(agent)) return true;
  return headers.purpose !== undefined && /prefetch|prerender/i.test(headers.purpose);
}

/** A tag as stored: control and non-printable characters removed, trimmed, lower case, at most UTM_MAX_LENGTH. */
export function cleanTag(raw: string | null | undefined, max = UTM_MAX_LENGTH): string {
  if (!raw) return '';
  // cut first: a 5 KB value is never walked in full
  return raw
    .slice(0, max * 4)
    .replace(/[^\p{L}\p{N} ._\-+/:@]/gu, '')
    .trim()
    .toLowerCase()
    .slice(0, max);
}

/** The UTM tags of a landing address (`search` as in a URL); all '' when it carries none. */
export function utmOf(search: URLSearchParams): Utm {
  return {
    source: cleanTag(search.get('utm_source')),
    medium: cleanTag(search.get('utm_medium')),
    campaign: cleanTag(search.get('utm_campaign')),
  };
}

export const hasUtm = (utm: Utm) => utm.source !== '' || utm.medium !== '' || utm.campaign !== '';

/** The UTM as the shop's own cookie holds it (three tags, each cleaned, joined by a separator a tag cannot hold). */
export function utmCookieValue(utm: Utm): string {
  return [utm.source, utm.medium, utm.campaign].map(encodeURIComponent).join('|');
}

/** Reads the cookie back; a malformed or tampered one is no UTM at all. */
export function utmFromCookie(value: string | undefined): Utm {
  if (!value || value.length > UTM_MAX_LENGTH * 3 * 3 + 2) return NO_UTM;
  const parts = value.split('|');
  if (parts.length !== 3) return NO_UTM;
  try {
    const [source, medium, campaign] = parts.map((part) => cleanTag(decodeURIComponent(part)));
    return { source: source!, medium: medium!, campaign: campaign! };
  } catch {
    return NO_UTM;
  }
}

/** The affiliate code a landing address names (`?ref=`), upper case as codes are stored; '' when none or malformed. */
export function visitRefOf(search: URLSearchParams): string {
  const ref = search.get('ref');
  if (!ref || ref.length > VISIT_REF_MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(ref)) return '';
  return ref.toUpperCase();
}

/** `?days=`: 1 to FUNNEL_MAX_DAYS whole days, 30 when absent. */
export const funnelQuerySchema = z.object({
  days: z
    .string()
    .regex(/^\d{1,4}$/, {
      error: `days must be a whole number from 1 to ${FUNNEL_MAX_DAYS}.`,
    })
    .transform(Number)
    .refine((days) => days >= 1 && days <= FUNNEL_MAX_DAYS, {
      error: `days must be a whole number from 1 to ${FUNNEL_MAX_DAYS}.`,
    })
    .optional()
    .transform((days) => days ?? 30),
});

const stepCounts = {
  visits: z.number().int(),
  checkoutsStarted: z.number().int(),
  paid: z.number().int(),
  accountsCreated: z.number().int(),
  accessGranted: z.number().int(),
  communityLinked: z.number().int(),
};

export const funnelReportSchema = z.object({
  days: z.number().int(),
  /** First and last UTC day of the window (YYYY-MM-DD). */
  from: z.string(),
  to: z.string(),
  ...stepCounts,
  /** Distinct browsers among the visits (per instance and day). */
  visitors: z.number().int(),
  byDay: z.array(z.object({ day: z.string(), ...stepCounts })),
  /** Visits, checkouts and payments per source; '' is "none" (direct, no code, no affiliate). */
  bySource: z.array(
    z.object({
      kind: z.enum(SOURCE_KINDS),
      value: z.string(),
      visits: z.number().int(),
      checkoutsStarted: z.number().int(),
      paid: z.number().int(),
    }),
  ),
});
export type FunnelReport = z.infer<typeof funnelReportSchema>;
export type FunnelDay = FunnelReport['byDay'][number];
export type FunnelSourceRow = FunnelReport['bySource'][number];

/** Share of `part` in `whole` as a whole percent; null when there is no whole. */
export function conversion(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((part / whole) * 100) : null;
}
