// /refer: Refer & earn for a signed-in person without a plan (the member area needs one); members
// find the same page at /dashboard/affiliate.
import { Navigate } from 'react-router';
import { Link } from 'react-router';
import { Brand } from '@client/components/brand';
import { PageSpinner } from '@client/components/ui/spinner';
import { useAuth } from '@client/lib/auth-state';
import { AffiliatePage } from './affiliate-page';

export function ReferPage() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <PageSpinner label="Loading..." />;
  if (!user) return <Navigate to={`/auth?redirect=${encodeURIComponent('/refer')}`} replace />;
  return (
    <div className="min-h-screen px-6 py-8">
      <Link to="/" className="mb-8 inline-flex">
        <Brand />
      </Link>
      <AffiliatePage />
    </div>
  );
}
