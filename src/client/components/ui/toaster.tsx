import { Toaster as Sonner } from 'sonner';

export function Toaster() {
  return <Sonner theme="dark" position="top-right" richColors closeButton />;
}
