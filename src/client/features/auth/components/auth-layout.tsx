import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Brand } from '@client/components/brand';

type AuthLayoutProps = {
  title: string;
  description?: ReactNode;
  /** A way back shown above the card, e.g. 'Back to Homepage'. */
  back?: { to: string; label: string };
  children: ReactNode;
  footer?: ReactNode;
};

/** The centred card on the dark theme that every account screen shares. */
export function AuthLayout({ title, description, back, children, footer }: AuthLayoutProps) {
  return (
    <main className="relative flex min-h-screen items-center justify-center overflow-hidden px-4 py-12">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-[-20%] mx-auto h-[480px] max-w-3xl rounded-full bg-primary/10 blur-3xl"
      />
      <div className="relative w-full max-w-md">
        {back ? (
          <Link
            to={back.to}
            className="mb-6 inline-flex items-center gap-2 rounded-md text-sm text-muted transition-colors hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary/60"
          >
            <ArrowLeft aria-hidden="true" className="h-4 w-4" />
            {back.label}
          </Link>
        ) : null}
        <div className="rounded-2xl border border-border bg-card/90 p-8 shadow-2xl shadow-black/40 backdrop-blur">
          <div className="mb-8 flex flex-col items-center text-center">
            <p className="mb-6">
              <Brand />
            </p>
            <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
            {description ? <div className="mt-2 text-sm text-muted">{description}</div> : null}
          </div>
          {children}
        </div>
        {footer ? <div className="mt-6 text-center text-sm text-muted">{footer}</div> : null}
      </div>
    </main>
  );
}
