import { Clock, Mail, MessagesSquare, ReceiptText } from 'lucide-react';
import { useSiteSettings } from '@client/lib/site-settings';
import { LegalLayout } from './components/legal-layout';

export function ContactPage() {
  const { companyName, companyState, supportEmail, discordInviteUrl } = useSiteSettings();
  return (
    <LegalLayout title="Contact" intro={<p>Questions about a plan, your access or your account? We are glad to help.</p>}>
      <div className="grid gap-4 md:grid-cols-2">
        <a href={`mailto:${supportEmail}`} className="group rounded-2xl border border-white/10 bg-card p-6 !no-underline transition hover:border-primary/50">
          <Mail className="h-6 w-6 text-primary" aria-hidden="true" />
          <span className="mt-4 block text-lg font-semibold text-white">Email support</span>
          <span className="mt-1 block break-all text-primary">{supportEmail}</span>
          <span className="mt-2 block text-sm text-foreground/70">Best for billing, account and access questions.</span>
        </a>
        <a href={discordInviteUrl} target="_blank" rel="noopener noreferrer" className="group rounded-2xl border border-white/10 bg-card p-6 !no-underline transition hover:border-primary/50">
          <MessagesSquare className="h-6 w-6 text-primary" aria-hidden="true" />
          <span className="mt-4 block text-lg font-semibold text-white">Discord</span>
          <span className="mt-1 block text-primary">Open a support ticket</span>
          <span className="mt-2 block text-sm text-foreground/70">Members can also ask the community about setups and settings.</span>
        </a>
      </div>

      <section>
        <h2 className="flex items-center gap-2">
          <Clock className="h-5 w-5 text-primary" aria-hidden="true" />
          Response times
        </h2>
        <p>We reply within 24 hours on business days (Monday to Friday, excluding US public holidays). Messages sent at the weekend are answered on the next business day.</p>
      </section>

      <section>
        <h2 className="flex items-center gap-2">
          <ReceiptText className="h-5 w-5 text-primary" aria-hidden="true" />
          Help us help you faster
        </h2>
        <ul>
          <li>Write from the e-mail address you used at checkout.</li>
          <li>For access problems, include your TradingView username exactly as it appears on your TradingView profile.</li>
          <li>For billing questions, include the date and amount of the payment.</li>
        </ul>
      </section>

      <section>
        <h2>Company</h2>
        <p>
          {companyName}, a company registered in {companyState}, USA. Please contact us by e-mail first; we do not offer phone support.
        </p>
      </section>
    </LegalLayout>
  );
}
