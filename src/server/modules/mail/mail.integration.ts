// Mail as one integration (decision 065, the shape of decisions 046, 060 and 064): the sender (SMTP
// with SMTP_URL, else the sandbox outbox), the outbox worker that renders and sends each mail, the
// schedule of timed mails (the finish-setup reminder, the pause notice), its subscriber (the mails a
// change of plan or access calls for, last of the registry's), the sandbox mailbox's route and the
// doctor's check. It has no console card: no member links anything here. Auth, the console and
// many modules write mails too: the built integration hands them its sender and worker (`mail`).
//
// Typed by what it takes rather than by integration.ts's types: auth and the catalogue, which that
// contract names, write mails through this module, so importing it would close an import circle.
// The registry's line (integrations.ts) checks that the descriptor fits.
import { Hono, type MiddlewareHandler } from 'hono';
import type { AccessSubscriber } from '@shared/access-changes';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { AuthVariables } from '../../http/session-user';
import type { Logger } from '../../logger';
import { accessMails } from './access-mails';
import { createMailSchedule } from './mail-schedule';
import type { MailContext } from './mail-templates';
import { checkMail } from './mail-doctor';
import type { MailPort } from './mail.port';
import { mailboxRoutes } from './mailbox.routes';
import { createMailer, type Mailer } from './mailer';
import { createOutboxMail } from './outbox-mail';
import { createSmtpMail } from './smtp-mail';

const TITLE = 'Mail';

type Routes = Hono<{ Variables: AuthVariables }>;

/** What building the mail integration takes from the integrations' context. */
type MailBuildContext = {
  config: Config;
  db: Db;
  logger: Logger;
  clock: () => Date;
  finishSetupUrl: (sessionId: string, writtenAt: Date) => string;
  mailSender?: MailPort;
  setupReminders: MailContext['setupReminders'];
  offeredSteps: MailContext['offeredSteps'];
};

/** The built mail integration. */
export type MailIntegration = {
  name: 'mail';
  title: string;
  sandbox: boolean;
  subscriber: AccessSubscriber;
  loops: { start: () => void; stop: () => Promise<void> }[];
  runOnce: () => Promise<void>;
  routes: (context: { sandboxReaders: MiddlewareHandler<{ Variables: AuthVariables }> }) => { api: Routes; admin: Routes };
  mail: { sender: MailPort; mailer: Mailer };
};

export const mailIntegration = {
  name: 'mail',
  title: TITLE,
  build({ config, db, logger, clock, finishSetupUrl, mailSender, setupReminders, offeredSteps }: MailBuildContext): MailIntegration {
    const settings = config.integrations.mail;
    const sender = mailSender ?? (settings.kind === 'smtp' ? createSmtpMail(settings.url, settings.from) : createOutboxMail(logger, { logLinks: config.env === 'development' }));
    const mailer = createMailer({
      db,
      sender,
      logger,
      clock,
      context: { brand: config.site.brandName, publicUrl: config.publicUrl, supportEmail: config.site.supportEmail, finishSetupUrl, setupReminders, offeredSteps },
    });
    const schedule = createMailSchedule({ db, clock, logger, mailer });
    return {
      name: 'mail',
      title: TITLE,
      sandbox: sender.kind === 'outbox',
      subscriber: accessMails({ db, mailer }),
      // the outbox worker and the timed mails' schedule
      loops: [mailer, schedule],
      runOnce: async () => {
        await mailer.runOnce();
      },
      // the sandbox mailbox only while the outbox is the sender, never beside SMTP
      routes: ({ sandboxReaders }) => ({
        api: sender.kind === 'outbox' ? mailboxRoutes({ db, readers: sandboxReaders }) : new Hono<{ Variables: AuthVariables }>(),
        admin: new Hono<{ Variables: AuthVariables }>(),
      }),
      mail: { sender, mailer },
    };
  },
  // the SMTP server and the sender (the outbox: one line saying so)
  doctor: (config: Config, options: { timeoutMs?: number }) => checkMail(config.integrations.mail, options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
};
