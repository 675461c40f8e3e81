import { Outlet, ScrollRestoration } from 'react-router';
import { Toaster } from '@client/components/ui/toaster';
import { SandboxMarker } from './sandbox-marker';

export function RootLayout() {
  return (
    <>
      <Outlet />
      <SandboxMarker />
      <Toaster />
      <ScrollRestoration />
    </>
  );
}
