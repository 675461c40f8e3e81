import { MailIcon, CommunityIcon } from './icons';
import { LEGAL_LINKS } from '@shared/legal-pages';
import { useSiteSettings } from '@client/lib/site-settings';
import { PageLink } from '@client/lib/page-nav';
import { useLandingVariant } from '../landing-variant';
import { scrollToSection, scrollToTopSoon, SECTION_IDS } from '../scroll';
import { Brand } from '@client/components/brand';
import { StaticHtml } from '@client/lib/kept-html';

const linkClass = 'text-sm text-foreground/70 transition-colors hover:text-white';

/** Footer: legal links keep from=eu on the EU variant and scroll to the top 100 ms after a click. */
export function SiteFooter() {
  const { brandName, companyName, companyState, supportEmail, discordInviteUrl, docsUrl } = useSiteSettings();
  const variant = useLandingVariant();
  const year = new Date().getFullYear();

  return (
    <footer className="border-t border-white/5 bg-black/30">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-[1.4fr_1fr_1fr_1fr]">
        <StaticHtml>
          <Brand sandboxTag={false} />
          <p className="mt-4 max-w-xs text-sm leading-relaxed text-foreground/60">
            Invite-only TradingView indicators, strategy guides and a community of traders.
          </p>
          <p className="mt-4 text-xs text-foreground/70">
            {brandName} is operated by {companyName}, a company registered in {companyState}, USA.
          </p>
        </StaticHtml>

        <nav aria-label="Product">
          <h2 className="text-sm font-semibold text-white">Product</h2>
          <ul className="mt-4 space-y-3">
            <li>
              <button type="button" className={linkClass} onClick={() => scrollToSection(SECTION_IDS.prices)}>
                Prices
              </button>
            </li>
            <li>
              <button type="button" className={linkClass} onClick={() => scrollToSection(SECTION_IDS.testimonials)}>
                Testimonials
              </button>
            </li>
            <li>
              <a href={docsUrl} target="_blank" rel="noopener noreferrer" className={linkClass}>
                Guide
              </a>
            </li>
          </ul>
        </nav>

        <nav aria-label="Legal">
          <h2 className="text-sm font-semibold text-white">Legal</h2>
          <ul className="mt-4 space-y-3">
            {LEGAL_LINKS.map((link) => (
              <li key={link.path}>
                <PageLink to={variant.withFrom(link.path)} className={linkClass} onClick={scrollToTopSoon}>
                  {link.label}
                </PageLink>
              </li>
            ))}
          </ul>
        </nav>

        <StaticHtml>
          <h2 className="text-sm font-semibold text-white">Support</h2>
          <ul className="mt-4 space-y-3">
            <li>
              <a href={`mailto:${supportEmail}`} className={`${linkClass} inline-flex items-center gap-2 break-all`}>
                <MailIcon className="h-4 w-4 flex-none" />
                {supportEmail}
              </a>
            </li>
            <li>
              <a href={discordInviteUrl} target="_blank" rel="noopener noreferrer" className={`${linkClass} inline-flex items-center gap-2`}>
                <CommunityIcon className="h-4 w-4 flex-none" />
                Discord
              </a>
            </li>
          </ul>
        </StaticHtml>
      </div>

      <div className="border-t border-white/5">
        <StaticHtml className="mx-auto max-w-7xl space-y-3 px-4 py-6 text-xs leading-relaxed text-foreground/70 sm:px-6">
          <p>
            Trading involves substantial risk of loss. Our indicators are educational tools, not financial advice, and past performance does not guarantee future results.
            TradingView is a trademark of TradingView, Inc.; {brandName} is an independent vendor and is not affiliated with TradingView.
          </p>
          <p>
            © {year} {companyName}. All rights reserved.
          </p>
        </StaticHtml>
      </div>
    </footer>
  );
}
