import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '@client/lib/cn';
import { Brand } from '@client/components/brand';

/** The dark, centred shell of the pages around a purchase: brand on top, content below. */
export function PaymentLayout({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <main className="relative min-h-screen overflow-hidden px-4 py-10 sm:py-14">
      <div aria-hidden="true" className="pointer-events-none absolute inset-x-0 top-[-20%] mx-auto h-[480px] max-w-3xl rounded-full bg-primary/10 blur-3xl" />
      <div className={cn('relative mx-auto w-full', wide ? 'max-w-5xl' : 'max-w-lg')}>
        <Link
          to="/"
          className="mx-auto mb-10 flex w-fit rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary/60"
        >
          <Brand />
        </Link>
        {children}
      </div>
    </main>
  );
}

/** A card with an icon, a title and a message: loading, timeout, invalid session, errors. */
export function NoticeCard({ icon, title, children, actions }: { icon: ReactNode; title: string; children?: ReactNode; actions?: ReactNode }) {
  return (
    <section className="rounded-2xl border border-border bg-card/90 p-8 text-center shadow-2xl shadow-black/40 backdrop-blur">
      <div className="mx-auto mb-5 flex h-14 w-14 items-center justify-center rounded-full bg-white/5">{icon}</div>
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      {children ? <div className="mt-3 text-sm leading-relaxed text-muted">{children}</div> : null}
      {actions ? <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">{actions}</div> : null}
    </section>
  );
}
