import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderRoutes, resetAfterTest, stubApi } from '@client/test/render';
import { AccessChangesCard } from './access-changes-card';

afterEach(resetAfterTest);

const renderCard = () => renderRoutes([{ path: '/admin', element: <AccessChangesCard /> }], { path: '/admin' });

describe('AccessChangesCard', () => {
  it('says all is delivered when no subscriber has a change waiting', async () => {
    stubApi({ 'GET /api/admin/access-changes': { body: { subscribers: [] } } });
    renderCard();
    expect(screen.getByRole('heading', { name: 'Access changes' })).toBeVisible();
    expect(await screen.findByText('All delivered.')).toBeVisible();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('lists per subscriber what waits, what fails, since when and the last error', async () => {
    const oldest = new Date(Date.now() - 3 * 60 * 60 * 1000).toISOString();
    stubApi({
      'GET /api/admin/access-changes': {
        body: {
          subscribers: [
            { subscriber: 'discord', waiting: 4, failing: 2, oldest, lastError: 'Discord answered 503' },
            { subscriber: 'mail', waiting: 1, failing: 0, oldest, lastError: null },
          ],
        },
      },
    });
    renderCard();
    const table = await screen.findByRole('table', { name: 'Access changes waiting per subscriber' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['Discord', '4', '2', expect.stringMatching(/\(3 h\)$/), 'Discord answered 503'],
      ['Mail', '1', '0', expect.stringMatching(/\(3 h\)$/), '—'],
    ]);
    expect(screen.queryByText('All delivered.')).toBeNull();
  });

  it('says so when the backlog cannot be read', async () => {
    stubApi({ 'GET /api/admin/access-changes': { status: 500, body: { error: { code: 'internal', message: 'boom' } } } });
    renderCard();
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load the access changes.');
  });
});
