import { PageLink } from '@client/lib/page-nav';
import { useSiteSettings } from '@client/lib/site-settings';
import { LegalLayout, useLegalOrigin } from './components/legal-layout';

export const TERMS_EFFECTIVE_DATE = 'June 13, 2025';

export function TermsPage() {
  const { brandName, companyName, companyState, supportEmail } = useSiteSettings();
  const { withFrom } = useLegalOrigin();
  return (
    <LegalLayout
      title="Terms of Service"
      effective={TERMS_EFFECTIVE_DATE}
      intro={
        <p>
          These terms are the agreement between you and {companyName} ("{brandName}", "we", "us"), a company registered in {companyState}, USA. They apply to
          our website, our member area and the TradingView indicators we license to you. By buying a plan or creating an account you accept them.
        </p>
      }
    >
      <section>
        <h2>1. Who may use the service</h2>
        <p>You must be 18 or older and able to enter a binding contract to buy a plan or hold an account. One account is for one person; do not share your login or your indicator access.</p>
      </section>

      <section>
        <h2>2. What you get</h2>
        <p>
          A plan gives you a personal, non-transferable, non-exclusive licence to use our invite-only indicators on TradingView and to read the guides, strategies and
          community channels of the member area while your plan is active. The indicators, their code, the guides and all other content remain our property.
        </p>
        <ul>
          <li>Do not copy, resell, publish, decompile or try to reproduce the indicators or their logic.</li>
          <li>Do not redistribute member-only guides, strategies or community content.</li>
          <li>Do not interfere with the service, probe it for weaknesses or access it by automated means.</li>
        </ul>
        <p>We improve the indicators regularly and may change, replace or retire individual features, provided the service as a whole keeps its substance.</p>
      </section>

      <section>
        <h2>3. TradingView</h2>
        <p>
          The indicators run on TradingView, an independent third party that we do not own or control. You need your own TradingView account and you are bound by
          TradingView's terms. We grant access to the TradingView username you give us; access is usually granted within minutes, and a wrong username delays it.
          We are not responsible for TradingView's availability, its plan limits, or changes TradingView makes to its platform.
        </p>
      </section>

      <section>
        <h2>4. Plans, billing and renewal</h2>
        <ul>
          <li>Monthly, Quarterly and Yearly plans are subscriptions. They renew automatically at the end of each billing period, at the price shown when you bought, until you cancel.</li>
          <li>Lifetime plans are a single payment and do not renew.</li>
          <li>Prices are shown in US dollars at checkout. Payments are processed by our card payment provider; we never receive your full card number.</li>
          <li>If a renewal payment fails we may retry it; if it keeps failing your access ends with the paid period.</li>
          <li>When you switch between plans, the credit for your unused time and the amount due are shown before you confirm.</li>
        </ul>
      </section>

      <section>
        <h2>5. Cancellation</h2>
        <p>
          You can cancel a subscription at any time from the subscription settings of your account, without a cancellation fee. Cancelling stops future renewals:
          you keep access until the end of the period you have already paid for, after which access to the indicators and the member area is removed.
        </p>
      </section>

      <section>
        <h2>6. Refunds</h2>
        <p>
          Because access to digital products is delivered immediately, all purchases are non-refundable, except where a refund is required by applicable law. This
          does not limit any rights you have as a consumer that cannot be waived. If you believe you were charged in error, contact us at{' '}
          <a href={`mailto:${supportEmail}`}>{supportEmail}</a> and we will look into it.
        </p>
      </section>

      <section>
        <h2>7. Not financial advice</h2>
        <p>
          Our indicators, guides and community content are educational tools for technical analysis. They are not investment, financial or trading advice, and no
          signal is a recommendation to buy or sell. Trading carries a high risk of loss and past results do not guarantee future results. You alone decide your
          trades and bear their outcome. See our <PageLink to={withFrom('/disclaimer')}>Disclaimer</PageLink>.
        </p>
      </section>

      <section>
        <h2>8. Your account</h2>
        <p>
          Keep your password secret and tell us promptly if you suspect someone else used your account. We may suspend or end access without refund if you breach
          these terms, share access, or use the service unlawfully; where reasonable we will tell you first and give you a chance to respond.
        </p>
      </section>

      <section>
        <h2>9. Liability</h2>
        <p>
          The service is provided "as is" and "as available". To the extent the law allows, we are not liable for trading losses, lost profits or indirect damages,
          and our total liability for any claim is limited to the amount you paid us in the twelve months before the claim. Nothing in these terms excludes
          liability that cannot be excluded by law.
        </p>
      </section>

      <section>
        <h2>10. Changes to these terms</h2>
        <p>
          We may update these terms. Material changes are announced by e-mail or in the member area at least 14 days before they apply to your next renewal. If
          you do not agree, you can cancel before the change takes effect.
        </p>
      </section>

      <section>
        <h2>11. Governing law</h2>
        <p>
          These terms are governed by the laws of the State of {companyState}, USA, without regard to its conflict-of-law rules. Mandatory consumer protections of
          the country you live in still apply.
        </p>
      </section>

      <section>
        <h2>12. Contact</h2>
        <p>
          Questions about these terms: <a href={`mailto:${supportEmail}`}>{supportEmail}</a>, or see our <PageLink to={withFrom('/contact')}>Contact</PageLink> page.
        </p>
      </section>
    </LegalLayout>
  );
}
