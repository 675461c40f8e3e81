// What an integration is (decision 046): one folder under modules/ that exports a descriptor of
// this shape, and one line in integrations.ts. The composition root builds each one and adds its
// subscriber to the access-change subscribers, main.ts starts and stops its loops, the app mounts
// its routes (member, sandbox, console), the console lists its card and the doctor runs its checks.
// Its configuration keys are parsed beside it (its settings module) and read through config.ts.
// Integrations are built with the dependencies, before auth: one may link accounts through it, and
// auth sends its mails through the mail integration's mailer (decision 065).
import type { Hono, MiddlewareHandler } from 'hono';
import type { AccessSubscriber } from '@shared/access-changes';
import type { SetupReminder } from '@shared/member-mails';
import type { ReadCache } from '@shared/read-cache';
import type { Config } from './config';
import type { MemberLinkReads } from './linked-accounts';
import type { Db } from './db/client';
import type { AuthVariables } from './http/session-user';
import type { Logger } from './logger';
import type { AuthLinking } from './modules/auth/auth';
import type { OperatorDirectory } from './modules/auth/operator';
import type { CatalogueStore } from './modules/catalogue/catalogue-store';
import type { MailPort } from './modules/mail/mail.port';
import type { Mailer } from './modules/mail/mailer';

/** One line of `npm run doctor` (the doctor adds the integration's name). */
export type IntegrationCheck = { status: 'ok' | 'problem' | 'sandbox'; message: string; fix?: string; unanswered?: true };

/** What the console's overview shows of an integration, and where its page is. */
export type IntegrationCard = { name: string; title: string; path: string; sandbox: boolean; linked: number; pending: number; failing: number };

/** An operator's action for the audit log (the console's Audit log page), as an integration hands it over. */
export type OperatorAuditEntry = { operator: string; action: string; targetUserId?: string | null; details?: Record<string, unknown> };

export type IntegrationContext = {
  config: Config;
  db: Db;
  logger: Logger;
  clock: () => Date;
  /** The plans as the catalogue holds them at start (an integration's per-plan settings live on them). */
  catalogue: CatalogueStore;
  audit: (entry: OperatorAuditEntry) => Promise<void>;
  /** The signed link a paid buyer's mails carry to finish setting up (the checkout proofs sign it with the auth secret). */
  finishSetupUrl: (sessionId: string, writtenAt: Date) => string;
  /** A test's mail sender, in place of SMTP or the outbox (it keeps what it is handed). */
  mailSender?: MailPort;
  /** The registry's set-up reminders, by integration name (`reminderTexts`): the mail integration writes them. */
  setupReminders: SetupReminders;
  /** The communities a member can link here (the built integrations answering `links`), by name, in the registry's order: asked once all are built. */
  offeredSteps: () => readonly string[];
};

/** Each community integration's set-up reminder, by its name (the reminder's step). */
export type SetupReminders = Readonly<Record<string, SetupReminder>>;

export type IntegrationRouteContext = {
  trustedOrigins: string[];
  reads: ReadCache;
  directory: OperatorDirectory;
  /** Whether anyone may read the sandbox's state (an all-sandbox demo outside production), else operators only. */
  sandboxOpenToAll: () => boolean;
  /** The guard of a sandbox page's reads: operators, or anyone while `sandboxOpenToAll` (for an integration that cannot import auth). */
  sandboxReaders: MiddlewareHandler<{ Variables: AuthVariables }>;
};

/** The shop's mail: the sender and the outbox worker that auth, the console and the modules writing mails use. */
export type ShopMail = { sender: MailPort; mailer: Mailer };

type Routes = Hono<{ Variables: AuthVariables }>;

/** A built integration: what the composition root, main.ts, the app and the console use. */
export type Integration = {
  name: string;
  /** How people read its name (the member page, the metrics' help). */
  title: string;
  /** Runs against its sandbox adapter. */
  sandbox: boolean;
  /** Its lifecycle callbacks, delivered durably by the entitlements core. */
  subscriber: AccessSubscriber;
  /** Work done once before the shop serves, awaited by the dependencies (a sandbox's catalogue named, say). */
  prepare?: () => Promise<void>;
  /** Background loops main.ts starts and stops; tests drive their passes instead. */
  loops: { start: () => boolean | void; stop: () => Promise<void> }[];
  /** One pass of its work now (tests, and a console's "run now"), as the loops would run it. */
  runOnce: () => Promise<void>;
  /** `api` is mounted under /api, `admin` under /api/admin behind the operator check. */
  routes: (context: IntegrationRouteContext) => { api: Routes; admin: Routes };
  /** Its card on the console's overview; none for an integration without members to count (mail). */
  card?: () => Promise<IntegrationCard>;
  /**
   * An account the member links through better-auth, as an OAuth provider of auth.ts (which knows
   * the one provider it registers by name: decision 060). Auth is built after the integrations.
   */
  linking?: AuthLinking;
  /** A community's reads of the accounts members linked there; the rest of the shop reads its link rows only through them. */
  links?: MemberLinkReads;
  /** The shop's mail, on the integration that sends it (decision 065); the dependencies hand it on. */
  mail?: ShopMail;
  /** Posts an operator's announcement where its members read (decision 050); answers 'posted', 'off' or 'failed: …'. */
  announce?: (announcement: AnnouncementPost) => Promise<string>;
};

/** An announcement as an integration posts it; `link` is where members read more. */
export type AnnouncementPost = { title: string; body: string; scriptId: string | null; plans: readonly string[]; link: string };

export type IntegrationDescriptor = {
  name: string;
  /** How the doctor's lines name it. */
  title: string;
  build: (context: IntegrationContext) => Integration;
  /** Proves the live configuration works (`npm run doctor`, and a production start). */
  doctor: (config: Config, options: { timeoutMs?: number; apiBaseUrl?: string }) => Promise<IntegrationCheck[]>;
  /**
   * A community's set-up reminder (decision 056): the mail kind `setup_<name>`, its switch in the
   * console and the member's Settings, sent while its built integration answers `links`.
   */
  reminder?: SetupReminder;
};

/** The set-up reminders of these integrations, by name. */
export const reminderTexts = (descriptors: readonly Pick<IntegrationDescriptor, 'name' | 'reminder'>[]): SetupReminders =>
  Object.fromEntries(descriptors.flatMap(({ name, reminder }) => (reminder ? [[name, reminder]] : [])));
