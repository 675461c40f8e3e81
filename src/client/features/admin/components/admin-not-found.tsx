import { Link } from 'react-router';

/** An unknown page inside the console (an operator page not installed yet, a mistyped address). */
export function AdminNotFound() {
  return (
    <div className="space-y-2">
      <h1 className="text-2xl font-bold text-white">Page not found</h1>
      <Link to="/admin" className="text-primary hover:underline">
        Back to the overview
      </Link>
    </div>
  );
}
