import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { resetAfterTest } from '@client/test/render';
import { mockApi, renderSettings } from './settings-test-kit';

afterEach(resetAfterTest);

const CARDS = {
  account: 'My Account',
  subscription: 'Subscription',
  security: 'Security',
  upgrade: 'Change Plan',
} as const;

async function shownCards() {
  // Every page shows at least one card; wait for the page, then read which regions exist.
  await screen.findByRole('heading', { level: 1, name: 'Settings' });
  return Object.entries(CARDS)
    .filter(([, name]) => screen.queryByRole('region', { name }) !== null)
    .map(([card]) => card);
}

describe('settings page section filter', () => {
  it.each([
    ['?section=all', ['account', 'subscription', 'security', 'upgrade']],
    ['?section=account', ['account']],
    ['?section=subscription', ['subscription']],
    ['?section=upgrade', ['upgrade']],
    ['', ['account', 'subscription', 'security', 'upgrade']],
    ['?section=billing', ['account', 'subscription', 'security', 'upgrade']],
    ['?section=', ['account', 'subscription', 'security', 'upgrade']],
  ])('/dashboard/settings%s shows %j', async (query, expected) => {
    mockApi();
    renderSettings(`/dashboard/settings${query}`);
    expect(await shownCards()).toEqual(expected);
  });

  it('the section tabs switch the visible cards and mark the current one', async () => {
    mockApi();
    const user = userEvent.setup();
    const { router } = renderSettings('/dashboard/settings?section=account');
    const nav = await screen.findByRole('navigation', { name: 'Settings sections' });
    expect(within(nav).getByRole('link', { name: 'My Account' })).toHaveAttribute('aria-current', 'page');

    await user.click(within(nav).getByRole('link', { name: 'Change Plan' }));
    expect(router.state.location.search).toBe('?section=upgrade');
    expect(await shownCards()).toEqual(['upgrade']);
    expect(within(nav).getByRole('link', { name: 'Change Plan' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'My Account' })).not.toHaveAttribute('aria-current');

    await user.click(within(nav).getByRole('link', { name: 'Overview' }));
    expect(await shownCards()).toEqual(['account', 'subscription', 'security', 'upgrade']);
  });
});
