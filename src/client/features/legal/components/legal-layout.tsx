import { ArrowLeft } from 'lucide-react';
import { useEffect, type ReactNode } from 'react';
import { LEGAL_LINKS, legalPageTitle } from '@shared/legal-pages';
import { Brand } from '@client/components/brand';
import { PageLink, usePageNav } from '@client/lib/page-nav';
import { useSiteSettings } from '@client/lib/site-settings';

/** from=eu: 'Back to Homepage' leads to /eu and links between legal pages keep the parameter. */
export function useLegalOrigin() {
  const isEu = new URLSearchParams(usePageNav().search).get('from') === 'eu';
  return { home: isEu ? '/eu' : '/', withFrom: (path: string) => (isEu ? `${path}?from=eu` : path) };
}

function BackToHomepage() {
  const { home } = useLegalOrigin();
  return (
    <PageLink
      to={home}
      className="inline-flex h-10 items-center gap-2 rounded-lg border border-white/15 px-4 text-sm font-semibold text-white transition-colors hover:bg-white/10"
    >
      <ArrowLeft className="h-4 w-4" aria-hidden="true" />
      Back to Homepage
    </PageLink>
  );
}

/** Frame of the static legal and contact pages: brand bar, title, effective date, readable text column. */
export function LegalLayout({ title, effective, intro, children }: { title: string; effective?: string; intro?: ReactNode; children: ReactNode }) {
  const { brandName, companyName, companyState } = useSiteSettings();
  const { home, withFrom } = useLegalOrigin();
  useEffect(() => {
    document.title = legalPageTitle(title, brandName);
  }, [title, brandName]);

  return (
    <div className="min-h-screen bg-[radial-gradient(ellipse_at_top,rgba(34,197,94,0.08),transparent_50%)]">
      <header className="border-b border-white/5">
        <div className="mx-auto flex h-16 max-w-4xl items-center justify-between px-4 sm:px-6">
          <PageLink to={home} className="rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary/60">
            <Brand />
          </PageLink>
          <BackToHomepage />
        </div>
      </header>

      <main className="mx-auto max-w-4xl px-4 py-12 sm:px-6 md:py-16">
        <h1 className="text-3xl font-bold tracking-tight text-white md:text-4xl">{title}</h1>
        {effective ? <p className="mt-3 text-sm text-muted">Effective date: {effective}</p> : null}
        {intro ? <div className="mt-6 text-lg leading-relaxed text-foreground/80">{intro}</div> : null}
        <div className="legal-prose mt-10 space-y-10 text-[15px] leading-relaxed text-foreground/80 [&_a]:text-primary [&_a]:underline-offset-4 hover:[&_a]:underline [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-white [&_li]:ml-5 [&_li]:list-disc [&_li]:pl-1 [&_p+p]:mt-3 [&_section>*+*]:mt-3 [&_strong]:text-white [&_ul]:space-y-2">
          {children}
        </div>
      </main>

      <footer className="border-t border-white/5">
        <div className="mx-auto flex max-w-4xl flex-col gap-4 px-4 py-8 text-sm sm:px-6 md:flex-row md:items-center md:justify-between">
          <nav aria-label="Legal">
            <ul className="flex flex-wrap gap-x-5 gap-y-2">
              {LEGAL_LINKS.map((link) => (
                <li key={link.path}>
                  <PageLink to={withFrom(link.path)} className="text-foreground/70 hover:text-white">
                    {link.label}
                  </PageLink>
                </li>
              ))}
            </ul>
          </nav>
          <p className="text-foreground/50">
            © {new Date().getFullYear()} {companyName}, registered in {companyState}, USA
          </p>
        </div>
      </footer>
    </div>
  );
}
