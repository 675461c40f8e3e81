import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { createMember } from './member';

// VIP Discord, delivered: a buyer pays, connects Discord on the sandbox's consent page and gets the
// managed role in the sandbox guild; when the plan ends (portal: cancel, then the period's end) the
// role is taken away. The guild is read where a demo reads it, GET /api/sandbox/discord/guild.

type Guild = { roles: { id: string; name: string }[]; members: { id: string; username: string; roles: string[] }[] };

async function rolesOf(page: Page, username: string): Promise<string[] | null> {
  const guild = (await (await page.request.get('/api/sandbox/discord/guild')).json()) as Guild;
  const member = guild.members.find((each) => each.username === username);
  if (!member) return null;
  return member.roles.map((id) => guild.roles.find((role) => role.id === id)?.name ?? id);
}

test('a buyer connects Discord and gets the VIP role; when the plan ends the role goes', async ({ page }) => {
  test.slow();
  const username = `vip_${Date.now().toString(36)}`;
  await createMember(page);

  await page.goto('/dashboard/discord');
  await expect(page.getByRole('button', { name: 'Join Discord' }).or(page.getByRole('link', { name: 'Join Discord' })).first()).toBeVisible();
  await page.getByRole('button', { name: 'Connect Discord' }).click();

  await page.waitForURL(/\/sandbox\/discord\/authorize/);
  await page.getByLabel('Discord username').fill(username);
  await page.getByRole('button', { name: 'Authorize' }).click();

  await page.waitForURL(/\/dashboard\/discord/);
  await expect(page.getByText('Connected as')).toBeVisible();
  await expect(page.getByText(username, { exact: true })).toBeVisible();
  await expect.poll(() => rolesOf(page, username), { timeout: 15_000 }).toEqual(['VIP']);

  // the plan ends: canceled in the sandbox portal, then its period runs out
  await page.goto('/dashboard/settings?section=subscription');
  await page.getByRole('button', { name: 'Manage Subscription' }).click();
  await page.waitForURL(/\/sandbox\/portal\//);
  await page.getByRole('button', { name: 'Cancel plan' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel plan' }).click();
  await expect(page.getByRole('button', { name: 'Resume plan' })).toBeVisible();
  await page.getByRole('button', { name: 'Simulate period end' }).click();

  await expect.poll(() => rolesOf(page, username), { timeout: 30_000 }).toEqual([]);
});
