import { useContext } from 'react';
import { Link } from 'react-router';
import { AuthContext } from '@client/lib/auth-context';
import { Brand } from './brand';

const LINK = 'text-primary underline-offset-4 hover:underline';

/**
 * The 404 screen: for unknown routes, and for pages that must not reveal they exist (sandbox-only
 * pages in production). It offers the way home, the pricing and, to a signed-in member, the dashboard.
 */
export function NotFound() {
  // read without useAuth: the screen also shows where no auth state is provided
  const user = useContext(AuthContext)?.user ?? null;
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 px-6 text-center">
      <Link to="/" className="mb-6 rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary/60">
        <Brand />
      </Link>
      <p className="text-7xl font-bold text-primary">404</p>
      <h1 className="text-2xl font-semibold">Oops! Page not found</h1>
      <nav aria-label="Where to go" className="flex flex-wrap items-center justify-center gap-x-6 gap-y-2">
        <Link to="/" className={LINK}>
          Return to Home
        </Link>
        <Link to="/#prices" className={LINK}>
          See pricing
        </Link>
        {user ? (
          <Link to="/dashboard" className={LINK}>
            Go to your dashboard
          </Link>
        ) : null}
      </nav>
    </main>
  );
}
