import { Link } from 'react-router';
import { Brand } from './brand';

/** The 404 screen: for unknown routes, and for pages that must not reveal they exist (sandbox-only pages in production). */
export function NotFound() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 px-6 text-center">
      <Link to="/" className="mb-6 rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary/60">
        <Brand />
      </Link>
      <p className="text-7xl font-bold text-primary">404</p>
      <h1 className="text-2xl font-semibold">Oops! Page not found</h1>
      <Link to="/" className="text-primary underline-offset-4 hover:underline">
        Return to Home
      </Link>
    </main>
  );
}
