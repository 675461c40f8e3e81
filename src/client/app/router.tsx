import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { PageSpinner } from '@client/components/ui/spinner';
import { EuLandingPage, LandingPage } from '@client/features/landing/landing-page';
import { NotFoundPage } from '@client/features/not-found/not-found-page';
import { RouterNavProvider } from '@client/lib/router-nav';
import { PriceListOrNotFound } from './price-list-route';
import { RootLayout } from './root-layout';

// Every screen but the landing page is its own chunk, so the landing page never downloads
// dashboard, auth or settings code. The landing page's first view (header and hero, ~6 kB) is in
// the entry chunk: a lazy route would only start downloading after the entry ran, delaying LCP.
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    // Opening a lazy route directly makes the router wait for its chunk before the first render;
    // without a fallback React Router warns on every such page load and renders nothing meanwhile.
    hydrateFallbackElement: <PageSpinner label="Loading..." />,
    children: [
      { path: '/', element: <LandingPage /> },
      { path: '/eu', element: <EuLandingPage /> },
      { path: '/auth', lazy: () => import('@client/features/auth/auth-page').then((m) => ({ Component: m.AuthPage })) },
      { path: '/forgot-password', lazy: () => import('@client/features/auth/forgot-password-page').then((m) => ({ Component: m.ForgotPasswordPage })) },
      { path: '/reset-password', lazy: () => import('@client/features/auth/reset-password-page').then((m) => ({ Component: m.ResetPasswordPage })) },
      { path: '/operator-invitation', lazy: () => import('@client/features/auth/operator-invitation-page').then((m) => ({ Component: m.OperatorInvitationPage })) },
      { path: '/payment-success', lazy: () => import('@client/features/payment/payment-success-page').then((m) => ({ Component: m.PaymentSuccessPage })) },
      { path: '/payment-canceled', lazy: () => import('@client/features/payment/payment-canceled-page').then((m) => ({ Component: m.PaymentCanceledPage })) },
      { path: '/refer', lazy: () => import('@client/features/affiliates/refer-page').then((m) => ({ Component: m.ReferPage })) },
      { path: '/premium-access-required', lazy: () => import('@client/features/premium/premium-access-required-page').then((m) => ({ Component: m.PremiumAccessRequiredPage })) },
      {
        // The legal pages navigate through the page port, which their pre-rendered entry fills without the router.
        element: (
          <RouterNavProvider>
            <Outlet />
          </RouterNavProvider>
        ),
        children: [
          { path: '/disclaimer', lazy: () => import('@client/features/legal/disclaimer-page').then((m) => ({ Component: m.DisclaimerPage })) },
          { path: '/terms-of-service', lazy: () => import('@client/features/legal/terms-page').then((m) => ({ Component: m.TermsPage })) },
          { path: '/privacy-policy', lazy: () => import('@client/features/legal/privacy-page').then((m) => ({ Component: m.PrivacyPage })) },
          { path: '/contact', lazy: () => import('@client/features/legal/contact-page').then((m) => ({ Component: m.ContactPage })) },
        ],
      },
      {
        path: '/dashboard',
        lazy: () => import('@client/features/dashboard/dashboard-layout').then((m) => ({ Component: m.DashboardLayout })),
        children: [
          { index: true, element: <Navigate to="/dashboard/guides" replace /> },
          { path: 'guides', lazy: () => import('@client/features/guides/guides-page').then((m) => ({ Component: m.GuidesPage })) },
          { path: 'strategies', lazy: () => import('@client/features/strategies/strategies-page').then((m) => ({ Component: m.StrategiesPage })) },
          // The community page: Discord's, with the Telegram integration's card below (features meet here).
          {
            path: 'discord',
            lazy: () =>
              Promise.all([import('@client/features/dashboard/discord-page'), import('@client/features/telegram/telegram-connection')]).then(([discord, telegram]) => ({
                Component: () => (
                  <discord.DiscordPage>
                    <telegram.TelegramConnection />
                  </discord.DiscordPage>
                ),
              })),
          },
          { path: 'affiliate', lazy: () => import('@client/features/affiliates/affiliate-page').then((m) => ({ Component: m.AffiliatePage })) },
          { path: 'settings', lazy: () => import('@client/features/settings/settings-page').then((m) => ({ Component: m.SettingsPage })) },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      // The operator console: its own chunk (with its chart library), never loaded by buyers.
      { path: '/admin/*', lazy: () => import('./admin-console').then((m) => ({ Component: m.AdminConsole })) },
      { path: '/sandbox/checkout/:sessionId', lazy: () => import('@client/features/sandbox/sandbox-checkout-page').then((m) => ({ Component: m.SandboxCheckoutPage })) },
      { path: '/sandbox/portal/:customerId', lazy: () => import('@client/features/sandbox/sandbox-portal-page').then((m) => ({ Component: m.SandboxPortalPage })) },
      { path: '/sandbox/discord/authorize', lazy: () => import('@client/features/sandbox/sandbox-discord-authorize-page').then((m) => ({ Component: m.SandboxDiscordAuthorizePage })) },
      { path: '/sandbox/telegram', lazy: () => import('@client/features/telegram/sandbox-telegram-page').then((m) => ({ Component: m.SandboxTelegramPage })) },
      { path: '/sandbox/mailbox', lazy: () => import('@client/features/sandbox/sandbox-mailbox-page').then((m) => ({ Component: m.SandboxMailboxPage })) },
      // a price list the vendor added is served at /{slug}; any other address is not found
      { path: '*', element: <PriceListOrNotFound /> },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
