import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderRoutes, TEST_SITE_SETTINGS } from '@client/test/render';
import { RouterNavProvider } from '@client/lib/router-nav';
import { ChatWidget } from './chat-widget';

// Regression: with no CHAT_URL the 500 px panel held two links and was half empty.
describe('support chat panel without a chat address', () => {
  it('offers every way to reach support: e-mail, Discord, the guides, common questions and the response time', async () => {
    renderRoutes([{ path: '/', element: <RouterNavProvider><ChatWidget /></RouterNavProvider> }]);
    await userEvent.click(screen.getByRole('button', { name: 'Open support chat' }));
    const panel = screen.getByRole('dialog', { name: 'Support chat' });

    expect(within(panel).getByRole('link', { name: /Email us/ })).toHaveAttribute('href', `mailto:${TEST_SITE_SETTINGS.supportEmail}`);
    expect(within(panel).getByRole('link', { name: /Join our Discord/ })).toHaveAttribute('href', TEST_SITE_SETTINGS.discordInviteUrl);
    expect(within(panel).getByRole('link', { name: /Read the guides/ })).toHaveAttribute('href', TEST_SITE_SETTINGS.docsUrl);
    expect(within(panel).getByRole('button', { name: /Common questions/ })).toBeInTheDocument();
    expect(panel).toHaveTextContent('We reply within 24 hours on business days.');
  });

  it('closes and goes to the FAQ from "Common questions"', async () => {
    const { router } = renderRoutes([{ path: '/', element: <RouterNavProvider><ChatWidget /></RouterNavProvider> }]);
    await userEvent.click(screen.getByRole('button', { name: 'Open support chat' }));
    await userEvent.click(screen.getByRole('button', { name: /Common questions/ }));
    expect(screen.queryByRole('dialog', { name: 'Support chat' })).not.toBeInTheDocument();
    // No FAQ section on this test page: the widget navigates to the landing's #faq instead.
    expect(router.state.location.hash).toBe('#faq');
  });
});
