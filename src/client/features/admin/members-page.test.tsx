import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemberList } from '@shared/admin-contract';
import { deferredReply, renderWithAuth, resetAfterTest, stubApi } from '@client/test/render';
import { OPERATOR_CONSOLE_ROUTES } from '@client/test/fixtures';
import { AdminLayout } from './admin-layout';

afterEach(resetAfterTest);

const PATH = '/api/admin/members';

const member = (email: string): MemberList['members'][number] => ({
  id: email,
  email,
  tradingviewUsername: null,
  status: 'active',
  plan: 'monthly',
  createdAt: '2026-11-01T00:00:00.000Z',
  isOperator: false,
});
const list = (...emails: string[]): MemberList => ({ members: emails.map(member), page: 1, pageSize: 25, total: emails.length });

describe('the Members page', () => {
  it('keeps the list shown before a search dimmed and busy until the answer replaces it', async () => {
    const answer = deferredReply();
    const api = stubApi({
      ...OPERATOR_CONSOLE_ROUTES,
      [`GET ${PATH}`]: (call) => (call.search.includes('q=') ? answer.route() : { body: list('ada@example.com', 'bob@example.com') }),
    });
    renderWithAuth([{ path: '/admin/*', element: <AdminLayout /> }], { path: '/admin/members' });
    expect(await screen.findByText('2 in all · page 1 of 1')).toBeVisible();
    expect(screen.getByRole('table')).toHaveAttribute('aria-busy', 'false');

    await userEvent.type(screen.getByLabelText('Search members'), 'bob@');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await expect.poll(() => api.callsTo('GET', PATH).map((call) => call.search)).toContain('?q=bob%40&page=1');
    // the earlier answer, still on screen, says it is not the search's
    expect(screen.getByRole('table')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('link', { name: 'ada@example.com' })).toBeVisible();

    answer.resolve({ body: list('bob@example.com') });
    expect(await screen.findByText('1 in all · page 1 of 1')).toBeVisible();
    expect(screen.getByRole('table')).toHaveAttribute('aria-busy', 'false');
    expect(screen.queryByRole('link', { name: 'ada@example.com' })).toBeNull();
  });
});
