import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { SiteSettingsProvider } from '@client/lib/site-settings';
import { AuthProvider } from '@client/lib/auth-state';

export function Providers({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <SiteSettingsProvider>
        <AuthProvider>{children}</AuthProvider>
      </SiteSettingsProvider>
    </QueryClientProvider>
  );
}
