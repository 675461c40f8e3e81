import { NotFound } from '@client/components/not-found';

export function NotFoundPage() {
  return <NotFound />;
}
