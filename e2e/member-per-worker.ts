import { test as base, type BrowserContext } from '@playwright/test';
import { createMember } from './member';

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/**
 * `test` for journeys that only read what a paying member sees: one member is bought per worker
 * (createMember, through the app's own API) and every test opens in a fresh browser context
 * already signed in as that member, so the tests of a file run side by side instead of one after
 * another behind a shared page. A test that ends the member's session (signing out) signs in
 * again first with `member.email` and TEST_PASSWORD, so the shared session stays valid.
 */
export const test = base.extend<{ member: { email: string } }, { workerMember: { email: string; storageState: StorageState } }>({
  workerMember: [
    async ({ browser }, use, workerInfo) => {
      const context = await browser.newContext({ baseURL: workerInfo.project.use.baseURL });
      const { email } = await createMember(await context.newPage());
      const storageState = await context.storageState();
      await context.close();
      await use({ email, storageState });
    },
    { scope: 'worker' },
  ],
  storageState: async ({ workerMember }, use) => use(workerMember.storageState),
  member: async ({ workerMember }, use) => use({ email: workerMember.email }),
});
