// The integrations' console parts (decision 046: an integration is one unit), handed to the console
// by the app shell, which registers them (src/client/app/admin-console.tsx): each one's page under
// /admin/<path> with its nav entry and, for a community whose given things (roles, chats) only the
// console can name, the hook that names them on the member page. The console itself names none.
import type { LucideIcon } from 'lucide-react';
import { createContext, useContext, type ReactNode } from 'react';

/** A community's given ids by name (null: unknown, shown by id), and a note said once above them. */
export type CommunityNames = { named: (ids: readonly string[]) => { id: string; name: string | null }[]; notice: ReactNode };

/** `path`: the integration's name, its page's address under /admin/ (the member page's community of that name). */
export type IntegrationPage = {
  path: string;
  label: string;
  /** Its nav icon; a plug when none. */
  icon?: LucideIcon;
  element: ReactNode;
  /** Names what the community gives, asked by the console (`enabled`: the member linked an account there); else the answer's names. */
  useGivenNames?: (enabled: boolean) => CommunityNames;
};

const Pages = createContext<readonly IntegrationPage[]>([]);

export function IntegrationPagesProvider({ pages, children }: { pages: readonly IntegrationPage[]; children: ReactNode }) {
  return <Pages.Provider value={pages}>{children}</Pages.Provider>;
}

/** The console part of the integration `name`, if the app registered one. */
export const useIntegrationPage = (name: string): IntegrationPage | undefined => useContext(Pages).find((page) => page.path === name);
