import { PageLink } from '@client/lib/page-nav';
import { useSiteSettings } from '@client/lib/site-settings';
import { LegalLayout, useLegalOrigin } from './components/legal-layout';

export function DisclaimerPage() {
  const { brandName, companyName, supportEmail } = useSiteSettings();
  const { withFrom } = useLegalOrigin();
  return (
    <LegalLayout
      title="Disclaimer"
      intro={
        <p>
          {brandName} provides technical-analysis indicators and educational material. Please read this page before you use them to make trading decisions.
        </p>
      }
    >
      <section>
        <h2>Educational purposes only</h2>
        <p>
          Our indicators, signals, guides, strategies, examples and community discussions are for educational and informational purposes only. They are not
          financial, investment, tax or legal advice, and nothing we publish is a recommendation to buy, sell or hold any financial instrument. {companyName} is not
          a registered investment adviser or broker-dealer.
        </p>
      </section>

      <section>
        <h2>Trading involves risk</h2>
        <p>
          Trading stocks, forex, futures, options, cryptocurrencies and other instruments carries a high level of risk and may not be suitable for everyone. You can
          lose some or all of the money you invest, and leveraged products can lose more than your deposit. Only trade with money you can afford to lose, and
          consider advice from an independent, licensed professional.
        </p>
      </section>

      <section>
        <h2>No guarantee of results</h2>
        <p>
          Past performance, back-tests and examples on charts do not guarantee future results. Signals are calculated from price data and can be wrong; markets can
          move against any analysis. Testimonials reflect the experience of individual members and are not typical or guaranteed outcomes.
        </p>
      </section>

      <section>
        <h2>Your decisions</h2>
        <p>
          You are solely responsible for your trading decisions and their results. We accept no liability for losses arising from the use of our indicators or
          content.
        </p>
      </section>

      <section>
        <h2>Third-party platforms</h2>
        <p>
          Our indicators run on TradingView, an independent third-party platform. TradingView is a trademark of TradingView, Inc.; we are not affiliated with,
          endorsed by or sponsored by TradingView. Data shown on charts comes from TradingView and its data providers and may be delayed or inaccurate.
        </p>
      </section>

      <section>
        <h2>Questions</h2>
        <p>
          Write to <a href={`mailto:${supportEmail}`}>{supportEmail}</a>. The full rules of the service are in our{' '}
          <PageLink to={withFrom('/terms-of-service')}>Terms of Service</PageLink>.
        </p>
      </section>
    </LegalLayout>
  );
}
