import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderRoutes, resetAfterTest, stubApi, stubLocation } from '@client/test/render';
import { TelegramConnection } from './telegram-connection';

afterEach(() => resetAfterTest());

const open = () => renderRoutes([{ path: '/dashboard/discord', element: <TelegramConnection /> }], { path: '/dashboard/discord' });
const card = () => screen.findByRole('region', { name: 'Your Telegram account' });

describe("the member's Telegram card", () => {
  it('Connect Telegram opens the deep link to the bot', async () => {
    const location = stubLocation();
    const api = stubApi({
      'GET /api/telegram': { body: { connected: false, available: true } },
      'POST /api/telegram/link': { body: { url: '/sandbox/telegram?start=tok', expiresAt: new Date().toISOString() } },
    });
    open();
    await userEvent.click(await within(await card()).findByRole('button', { name: 'Connect Telegram' }));
    expect(api.callsTo('POST', '/api/telegram/link')).toHaveLength(1);
    expect(location.assign).toHaveBeenCalledWith('/sandbox/telegram?start=tok');
    location.restore();
  });

  it('says who is connected and offers the invite of each chat not joined yet', async () => {
    stubApi({
      'GET /api/telegram': {
        body: {
          connected: true,
          username: 'alice_trader',
          status: 'synced',
          lastError: null,
          chats: [
            { chatId: '-1', title: 'VIP Signals', inviteLink: 'https://t.me/+abc' },
            { chatId: '-2', title: 'Announcements', inviteLink: null },
          ],
        },
      },
    });
    open();
    const region = await card();
    expect(await within(region).findByText('@alice_trader')).toBeInTheDocument();
    expect(within(region).getByRole('button', { name: 'Join VIP Signals' })).toBeInTheDocument();
    expect(within(within(region).getByRole('list', { name: 'Your Telegram chats' })).getByText('Joined')).toBeInTheDocument();
  });

  it('shows nothing in a shop that offers no Telegram', async () => {
    const api = stubApi({ 'GET /api/telegram': { body: { connected: false, available: false } } });
    open();
    // the card shows while the status loads, and goes once the shop says it offers no Telegram
    await waitFor(() => expect(api.callsTo('GET', '/api/telegram').length).toBeGreaterThan(0));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Your Telegram account' })).toBeNull());
  });
});
