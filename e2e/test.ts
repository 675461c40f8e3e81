import { test as base, type BrowserContext } from '@playwright/test';
import { createMember } from './member';

export { expect } from '@playwright/test';

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;
type WorkerMember = { email: string; storageState: StorageState };

/**
 * The `test` of every journey. One fixture chain for all files, because Playwright gives a file
 * whose worker fixtures differ from the file before it a new worker (a Node process and a
 * browser): with a second `test` for the member area's files, a run of 127 journeys started 11.
 *
 * Journeys that only read what a paying member sees ask for the worker's member with
 * `test.use({ signedInAsWorkerMember: true })`: one member is bought per worker (createMember,
 * through the app's own API), on the first test that asks, and each such test opens in a fresh
 * browser context already signed in as that member, so the tests of a file run side by side
 * instead of one after another behind a shared page. A test that ends the member's session
 * (signing out) signs in again first with `member.email` and TEST_PASSWORD, so the shared session
 * stays valid.
 */
export const test = base.extend<{ signedInAsWorkerMember: boolean; member: { email: string } }, { workerMember: () => Promise<WorkerMember> }>({
  // a worker whose journeys never ask for the member buys none
  workerMember: [
    async ({ browser }, use, workerInfo) => {
      let bought: Promise<WorkerMember> | undefined;
      const buy = async () => {
        const context = await browser.newContext({ baseURL: workerInfo.project.use.baseURL });
        try {
          const { email } = await createMember(await context.newPage());
          return { email, storageState: await context.storageState() };
        } finally {
          await context.close();
        }
      };
      await use(() => (bought ??= buy()));
    },
    { scope: 'worker' },
  ],
  signedInAsWorkerMember: [false, { option: true }],
  storageState: async ({ signedInAsWorkerMember, workerMember, storageState }, use) => use(signedInAsWorkerMember ? (await workerMember()).storageState : storageState),
  member: async ({ workerMember }, use) => use({ email: (await workerMember()).email }),
});
