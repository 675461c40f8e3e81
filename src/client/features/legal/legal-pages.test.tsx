import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { DEFAULT_REGULAR_PRICES, DEFAULT_SALE_LABEL } from '@shared/campaign';
import { ADVERTISED_PRICES } from '@shared/plans';
import type { SiteSettings } from '@shared/site';
import { RouterNavProvider } from '@client/lib/router-nav';
import { SiteSettingsProvider } from '@client/lib/site-settings';
import { ContactPage } from './contact-page';
import { DisclaimerPage } from './disclaimer-page';
import { PrivacyPage } from './privacy-page';
import { TermsPage } from './terms-page';

const SETTINGS: SiteSettings = {
  brandName: 'Candlewise',
  brandSlug: 'candlewise',
  brandLogoUrl: '/favicon.svg',
  supportEmail: 'help@vendor.test',
  companyName: 'Vendor Trading LLC',
  companyState: 'New Mexico',
  discordInviteUrl: 'https://discord.gg/vendor',
  docsUrl: 'https://docs.vendor.test',
  chatUrl: null,
  saleEndsAt: '2099-01-01T00:00:00',
  metaPixelId: null,
  prices: { ...ADVERTISED_PRICES },
  saleLabel: DEFAULT_SALE_LABEL,
  regularPrices: { ...DEFAULT_REGULAR_PRICES },
  sandbox: [],
};

function renderPage(page: ReactNode, path: string) {
  return render(
    <SiteSettingsProvider initial={SETTINGS}>
      <MemoryRouter initialEntries={[path]}>
        <RouterNavProvider>{page}</RouterNavProvider>
      </MemoryRouter>
    </SiteSettingsProvider>,
  );
}

const PAGES = [
  { name: 'Disclaimer', page: <DisclaimerPage />, path: '/disclaimer' },
  { name: 'Terms of Service', page: <TermsPage />, path: '/terms-of-service' },
  { name: 'Privacy Policy', page: <PrivacyPage />, path: '/privacy-policy' },
  { name: 'Contact', page: <ContactPage />, path: '/contact' },
];

describe('legal and contact pages', () => {
  it.each(PAGES)('$name leads back to / normally and to /eu with from=eu', ({ name, page, path }) => {
    const { unmount } = renderPage(page, path);
    expect(screen.getByRole('heading', { level: 1, name })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Homepage' })).toHaveAttribute('href', '/');
    unmount();
    renderPage(page, `${path}?from=eu`);
    expect(screen.getByRole('link', { name: 'Back to Homepage' })).toHaveAttribute('href', '/eu');
    expect(screen.getByRole('navigation', { name: 'Legal' }).querySelector('a[href="/privacy-policy?from=eu"]')).not.toBeNull();
  });

  it('terms: effective date, company, age, renewal, cancellation, refunds, advice and TradingView', () => {
    renderPage(<TermsPage />, '/terms-of-service');
    const text = document.body.textContent ?? '';
    expect(text).toContain('Effective date: June 13, 2025');
    expect(text).toContain('Vendor Trading LLC');
    expect(text).toContain('registered in New Mexico');
    expect(text).toContain('18 or older');
    expect(text).toMatch(/renew automatically .* until you cancel/);
    expect(text).toContain('you keep access until the end of the period you have already paid for');
    expect(text).toContain('all purchases are non-refundable, except where a refund is required by applicable law');
    expect(text).toContain('not investment, financial or trading advice');
    expect(text).toContain('independent third party');
    expect(screen.getAllByRole('link', { name: 'help@vendor.test' })[0]).toHaveAttribute('href', 'mailto:help@vendor.test');
  });

  it('privacy: effective date and retention periods', () => {
    renderPage(<PrivacyPage />, '/privacy-policy');
    const text = document.body.textContent ?? '';
    expect(text).toContain('Effective date: June 30, 2025');
    expect(text).toContain('Access logs are kept for 30–90 days');
    expect(text).toContain('Inactive accounts, with no active plan and no sign-in, are deleted after 12 months');
    expect(text).toContain('18 or older');
  });

  it('contact: configured e-mail, Discord and the reply time', () => {
    renderPage(<ContactPage />, '/contact');
    expect(screen.getByRole('link', { name: /Email support/ })).toHaveAttribute('href', 'mailto:help@vendor.test');
    expect(screen.getByRole('link', { name: /Discord/ })).toHaveAttribute('href', 'https://discord.gg/vendor');
    expect(document.body.textContent).toContain('We reply within 24 hours on business days');
  });

  it('disclaimer: educational, not financial advice', () => {
    renderPage(<DisclaimerPage />, '/disclaimer');
    expect(document.body.textContent).toMatch(/educational and informational purposes only\. They are not\s+financial, investment/);
  });
});
