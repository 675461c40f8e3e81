import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { createMember } from './member';

// Telegram follows payment in the sandbox: a buyer pays, links Telegram through the bot's deep link
// on the sandbox Telegram's page, joins the managed chat with the invite made for them (the chat's
// members read where a demo reads them, GET /api/sandbox/telegram/chats); the plan ends (portal:
// cancel, then the period's end) and they are out of the chat; asking to join again is declined.

type Chats = { chats: { id: string; title: string; members: { id: string; username: string }[] }[] };

async function membersOfVip(page: Page): Promise<string[]> {
  const answer = (await (await page.request.get('/api/sandbox/telegram/chats')).json()) as Chats;
  return answer.chats.find((chat) => chat.title === 'VIP Signals')?.members.map((member) => member.username) ?? [];
}

test('a buyer links Telegram, joins the VIP chat, and is out of it when the plan ends', async ({ page }) => {
  test.slow();
  const username = `tg_${Date.now().toString(36)}`;
  await createMember(page);

  await page.goto('/dashboard/discord');
  const card = page.getByRole('region', { name: 'Your Telegram account' });
  await card.getByRole('button', { name: 'Connect Telegram' }).click();

  // the sandbox Telegram plays the user who opened t.me/<bot>?start=<token>
  await page.waitForURL(/\/sandbox\/telegram\?start=/);
  await page.getByLabel('Telegram username').fill(username);
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByRole('status')).toHaveText(`Connected as @${username}. Your invites are in the member area.`);
  await page.getByRole('link', { name: 'Back to the member area' }).click();

  await page.waitForURL(/\/dashboard\/discord/);
  await expect(card.getByText(`Connected as @${username}`)).toBeVisible();
  await card.getByRole('button', { name: 'Join VIP Signals' }).click({ timeout: 30_000 });

  await page.waitForURL(/\/sandbox\/telegram\?invite=/);
  await expect(page.getByLabel('Telegram username')).toHaveValue(username);
  await page.getByRole('button', { name: 'Join chat' }).click();
  await expect(page.getByRole('status')).toHaveText('You joined VIP Signals.');
  expect(await membersOfVip(page)).toContain(username);

  // the plan ends: canceled in the sandbox portal, then its period runs out
  await page.goto('/dashboard/settings?section=subscription');
  await page.getByRole('button', { name: 'Manage Subscription' }).click();
  await page.waitForURL(/\/sandbox\/portal\//);
  await page.getByRole('button', { name: 'Cancel plan' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel plan' }).click();
  await expect(page.getByRole('button', { name: 'Resume plan' })).toBeVisible();
  await page.getByRole('button', { name: 'Simulate period end' }).click();
  await expect.poll(() => membersOfVip(page), { timeout: 30_000 }).not.toContain(username);

  // still linked, without access: a request to join is declined
  await page.goto('/sandbox/telegram');
  await page.getByLabel('Telegram username').fill(username);
  await page.getByRole('button', { name: 'Use this username' }).click();
  await page.getByRole('button', { name: 'Ask to join VIP Signals' }).click();
  await expect(page.getByRole('status')).toHaveText('Your request to join VIP Signals was declined.');
  expect(await membersOfVip(page)).not.toContain(username);
});
