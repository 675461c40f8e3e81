import { MessagesSquare, Tv } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Spinner } from '@client/components/ui/spinner';
import { AdminLayout, type IntegrationPage } from '@client/features/admin/admin-layout';
import { SandboxToolsPage } from '@client/features/admin/sandbox-tools';
import type { ContentPreview } from '@shared/content-studio';
import { GuideArticle } from '@client/features/guides/components/guide-view';
import { Documentation } from '@client/features/guides/components/feature-documentation';
import { StrategyArticle } from '@client/features/strategies/components/strategy-detail';
import { AdminDiscordPage } from '@client/features/discord/admin-discord-page';
import { useDiscordRoleNames } from '@client/features/discord/discord-roles';
import { AdminTradingViewPage } from '@client/features/tradingview/admin-tradingview-page';

// The mailbox keeps its own chunk (it is also /sandbox/mailbox): loaded when /admin/sandbox opens.
const AdminTelegramPage = lazy(() => import('@client/features/telegram/admin-telegram-page').then((m) => ({ default: m.AdminTelegramPage })));

/**
 * The integrations' console pages, one entry each, in the server registry's order (integrations.ts):
 * TradingView and Discord in the console's chunk, Telegram its own; the member page names Discord's
 * roles through Discord's part.
 */
const INTEGRATION_PAGES: readonly IntegrationPage[] = [
  { path: 'tradingview', label: 'TradingView', icon: Tv, element: <AdminTradingViewPage /> },
  { path: 'discord', label: 'Discord', icon: MessagesSquare, element: <AdminDiscordPage />, useGivenNames: useDiscordRoleNames },
  {
    path: 'telegram',
    label: 'Telegram',
    element: (
      <Suspense fallback={<Spinner label="Loading..." />}>
        <AdminTelegramPage />
      </Suspense>
    ),
  },
];

const SandboxMailbox = lazy(() => import('@client/features/sandbox/sandbox-mailbox-page').then((m) => ({ default: m.SandboxMailboxPage })));

/** /admin/sandbox: the sandbox tools with the sandbox mailbox below them (two features meet here, in app/). */
function AdminSandboxPage() {
  return (
    <SandboxToolsPage
      mailbox={
        <Suspense fallback={<Spinner label="Loading mails..." />}>
          <SandboxMailbox />
        </Suspense>
      }
    />
  );
}

/** A draft as members will read it: the guides' and strategies' own components (three features meet here). */
function renderContentPreview(preview: ContentPreview) {
  if (preview.kind === 'guide') return <GuideArticle guide={preview.guide} />;
  if (preview.kind === 'strategy') return <StrategyArticle strategy={preview.strategy} />;
  return <Documentation feature={preview.feature} />;
}

/** The operator console under /admin, with the sandbox page that needs the sandbox feature, the integrations' pages and the content preview. */
export function AdminConsole() {
  return <AdminLayout sandboxPage={<AdminSandboxPage />} integrationPages={INTEGRATION_PAGES} contentPreview={renderContentPreview} />;
}
