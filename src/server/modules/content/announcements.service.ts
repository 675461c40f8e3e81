import { isContentVisible, type AdminAnnouncement, type Announcement, type MemberAnnouncements, type MemberStanding, type PostAnnouncementRequest, postAnnouncementRequestSchema } from '@shared/content-studio';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import type { AnnouncementPost } from '../../integration';
import {
  announcementMailsOn,
  insertAnnouncement,
  listAnnouncements,
  markRead,
  queueAnnouncementMails,
  readIds,
  setAnnouncementDelivery,
  setAnnouncementMails,
  type AnnouncementRow,
} from './announcements.repository';

// What's new: an operator's update (e.g. "Pro V2 2.3: remove and re-add the indicator"), shown to
// members with access (on the plans it names) with an unread badge, mailed through the outbox to
// those who did not turn such mails off, and posted by each integration that announces (a
// community's channel or chats).

const toAnnouncement = (row: AnnouncementRow): Announcement => ({
  id: row.id,
  title: row.title,
  body: row.body,
  scriptId: row.scriptId,
  plans: row.plans,
  publishedAt: row.publishedAt.toISOString(),
});

export function createAnnouncements(deps: {
  db: Db;
  /** The integrations that post announcements, by name. */
  broadcasters?: readonly { name: string; announce: (announcement: AnnouncementPost) => Promise<string> }[];
  kickMailer: () => void;
  publicUrl: string;
  clock: () => Date;
  logger: Logger;
}) {
  const { db, clock, logger } = deps;

  const visibleTo = (rows: AnnouncementRow[], member: MemberStanding, now: Date) =>
    rows.filter((row) => isContentVisible({ plans: row.plans, dripDays: 0, visibleFrom: row.publishedAt }, member, now));

  /** Each integration's answer; one that throws is a failure of its own, never the announcement's. */
  const postToIntegrations = async (row: AnnouncementRow): Promise<Record<string, string>> => {
    const posts: Record<string, string> = {};
    for (const broadcaster of deps.broadcasters ?? []) {
      posts[broadcaster.name] = await broadcaster
        .announce({ title: row.title, body: row.body, scriptId: row.scriptId, plans: row.plans, link: `${deps.publicUrl}/dashboard` })
        .catch((error: unknown) => {
          logger.warn({ err: error, announcement: row.id, integration: broadcaster.name }, 'the announcement was not posted');
          return `failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300);
        });
    }
    return posts;
  };

  return {
    async post(request: PostAnnouncementRequest, by: string): Promise<AdminAnnouncement> {
      const input = postAnnouncementRequestSchema.parse(request);
      const row = await insertAnnouncement(db, { ...input, plans: [...new Set(input.plans)], createdBy: by, at: clock() });
      let mailsQueued = 0;
      let discord = 'off';
      let posts: Record<string, string> = {};
      if (input.notify) {
        mailsQueued = await queueAnnouncementMails(db, row);
        if (mailsQueued > 0) deps.kickMailer();
        // Discord's answer keeps the column and field it had before the integrations' `posts` came
        ({ discord = 'off', ...posts } = await postToIntegrations(row));
      }
      await setAnnouncementDelivery(db, row.id, { mailsQueued, discordStatus: discord, posts });
      return { ...toAnnouncement(row), createdBy: by, mailsQueued, discord, posts };
    },

    async list(): Promise<AdminAnnouncement[]> {
      return (await listAnnouncements(db)).map((row) => ({ ...toAnnouncement(row), createdBy: row.createdBy, mailsQueued: row.mailsQueued, discord: row.discordStatus, posts: row.posts }));
    },

    async forMember(userId: string, member: MemberStanding): Promise<MemberAnnouncements> {
      const rows = visibleTo(await listAnnouncements(db, 20), member, clock());
      const read = await readIds(db, userId, rows.map((row) => row.id));
      const announcements = rows.map((row) => ({ ...toAnnouncement(row), read: read.has(row.id) }));
      return { announcements, unread: announcements.filter((announcement) => !announcement.read).length };
    },

    /** Everything the member can see now counts as read. */
    async markAllRead(userId: string, member: MemberStanding): Promise<MemberAnnouncements> {
      const rows = visibleTo(await listAnnouncements(db, 20), member, clock());
      await markRead(db, userId, rows.map((row) => row.id), clock());
      return { announcements: rows.map((row) => ({ ...toAnnouncement(row), read: true })), unread: 0 };
    },

    mailsOn: (userId: string) => announcementMailsOn(db, userId),
    setMails: (userId: string, on: boolean) => setAnnouncementMails(db, userId, on, clock()),
  };
}

export type Announcements = ReturnType<typeof createAnnouncements>;
