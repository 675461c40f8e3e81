import { Outlet, ScrollRestoration } from 'react-router';
import { Toaster } from '@client/components/ui/toaster';

export function RootLayout() {
  return (
    <>
      <Outlet />
      <Toaster />
      <ScrollRestoration />
    </>
  );
}
