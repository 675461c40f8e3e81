import { PageLink } from '@client/lib/page-nav';
import { useSiteSettings } from '@client/lib/site-settings';
import { LegalLayout, useLegalOrigin } from './components/legal-layout';

export const PRIVACY_EFFECTIVE_DATE = 'June 30, 2025';

export function PrivacyPage() {
  const { brandName, brandSlug, companyName, companyState, supportEmail } = useSiteSettings();
  const { withFrom } = useLegalOrigin();
  return (
    <LegalLayout
      title="Privacy Policy"
      effective={PRIVACY_EFFECTIVE_DATE}
      intro={
        <p>
          This policy explains what personal data {companyName} ("{brandName}", "we"), a company registered in {companyState}, USA, collects when you visit our
          website or use our service, why, how long we keep it and what rights you have. We collect only what we need to sell and deliver the service.
        </p>
      }
    >
      <section>
        <h2>1. Data we collect</h2>
        <ul>
          <li>
            <strong>Account data:</strong> your e-mail address and a password (stored only as a secure hash).
          </li>
          <li>
            <strong>TradingView username:</strong> needed to grant you access to the invite-only indicators.
          </li>
          <li>
            <strong>Purchase data:</strong> the plan, amount, currency and dates of your payments. Card details are entered on our payment provider's page and
            never reach our servers.
          </li>
          <li>
            <strong>Support messages:</strong> what you send us by e-mail, chat or Discord.
          </li>
          <li>
            <strong>Technical data:</strong> IP address, browser type and the pages requested, recorded in access logs for security and troubleshooting.
          </li>
        </ul>
      </section>

      <section>
        <h2>2. Why we use it</h2>
        <ul>
          <li>To create your account, take payment and deliver the indicators (performing our contract with you).</li>
          <li>To keep the service secure, prevent fraud and abuse, and fix problems (our legitimate interest).</li>
          <li>To answer your questions and send service messages such as receipts and password resets.</li>
          <li>
            If you start a checkout with your e-mail address and leave it unfinished, to send you one reminder with a link back to it: at most one a week, never
            once you have bought, and each with a link to unsubscribe from these reminders.
          </li>
          <li>To meet accounting, tax and other legal obligations.</li>
        </ul>
        <p>We do not sell your personal data.</p>
      </section>

      <section>
        <h2>3. Cookies and advertising measurement</h2>
        <p>
          We use a necessary cookie to keep you signed in. When we run advertising, our site may also load the Meta Pixel and set the first-party cookies
          <code className="mx-1 rounded bg-white/10 px-1">_fbp</code>and<code className="mx-1 rounded bg-white/10 px-1">_fbc</code>(kept for 90 days) so we can
          measure which ads lead to purchases. You can block or delete these cookies in your browser settings at any time; the service works without them.
        </p>
        <p data-testid="visit-counting">
          We count visits to our landing pages ourselves, without third-party scripts: per day, how many times a page was opened, and the campaign tags
          (such as <code className="mx-1 rounded bg-white/10 px-1">utm_source</code>) or referral code of the address it was opened from. We do not store your IP
          address for this: to tell a returning browser from a new one on the same day we use a one-way hash of the address and browser type, mixed with a random
          value that changes every day and is never stored. Crawlers are not counted. When the address carried campaign tags, the first-party cookie
          <code className="mx-1 rounded bg-white/10 px-1">{brandSlug}.utm</code>keeps them for 30 days so that a purchase can be credited to the campaign.
        </p>
      </section>

      <section>
        <h2>4. Who we share it with</h2>
        <ul>
          <li>Our card payment provider, to process payments and subscriptions.</li>
          <li>TradingView, to which we send your TradingView username to grant indicator access. TradingView is an independent third party with its own privacy policy.</li>
          <li>Hosting, e-mail delivery and support-chat providers that process data on our behalf under confidentiality and data-protection terms.</li>
          <li>Authorities, where the law requires it.</li>
        </ul>
        <p>Some of these providers process data in the United States or other countries; where required we rely on appropriate safeguards such as standard contractual clauses.</p>
      </section>

      <section>
        <h2>5. How long we keep it</h2>
        <ul>
          <li>Access logs are kept for 30–90 days, then deleted.</li>
          <li>Account data is kept while your account is in use. Inactive accounts, with no active plan and no sign-in, are deleted after 12 months.</li>
          <li>Payment records are kept as long as tax and accounting law requires.</li>
        </ul>
      </section>

      <section>
        <h2>6. Security</h2>
        <p>
          Connections are encrypted, passwords are hashed, sessions use secure cookies that scripts cannot read, and access to personal data is limited to people
          who need it. No system is perfectly secure; if a breach affects you we will tell you as the law requires.
        </p>
      </section>

      <section>
        <h2>7. Your rights</h2>
        <p>
          Depending on where you live you may ask for a copy of your data, its correction or deletion, restrict or object to its use, or receive it in a portable
          format. You can also complain to your local data-protection authority. Write to <a href={`mailto:${supportEmail}`}>{supportEmail}</a>; we answer within
          30 days.
        </p>
      </section>

      <section>
        <h2>8. Children</h2>
        <p>The service is only for people aged 18 or older. We do not knowingly collect data from anyone younger.</p>
      </section>

      <section>
        <h2>9. Changes</h2>
        <p>
          We will post any change to this policy here with a new effective date, and e-mail members about material changes. See also our{' '}
          <PageLink to={withFrom('/terms-of-service')}>Terms of Service</PageLink>.
        </p>
      </section>
    </LegalLayout>
  );
}
