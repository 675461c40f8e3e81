import { useMutation } from '@tanstack/react-query';
import { ArrowLeft, Loader2, Lock, LogOut, RotateCcw, Sparkles } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router';
import { currentPrices } from '@shared/campaign';
import { CHECKOUT_TEXTS } from '@shared/error-messages';
import { isEuPlan, planDisplayName, type PlanType } from '@shared/plans';
import { CHOOSE_ANOTHER_PLAN, premiumRequiredVariantForPlan } from '@shared/premium-required';
import { Brand } from '@client/components/brand';
import { Button } from '@client/components/ui/button';
import { PageSpinner } from '@client/components/ui/spinner';
import { checkoutRequest, createCheckout, MissingCheckoutUrlError } from '@client/lib/api/checkout';
import { useSubscription } from '@client/lib/api/subscription';
import { useAuth } from '@client/lib/auth-state';
import { notifyError } from '@client/lib/notify';
import { useSiteSettings } from '@client/lib/site-settings';
import { useSale } from '@client/lib/use-sale';
import { clickIds, trackInitiateCheckout, useMetaPixel } from '@client/lib/tracking';

export const PREMIUM_REQUIRED_TEXTS = {
  title: 'Premium Access Required',
  loading: 'Loading...',
  getAccess: 'Get Premium Access',
  backHome: 'Back to Homepage',
  signOut: 'Sign Out',
} as const;

// The sign-in page brings the user back here afterwards.
export const SIGN_IN_PATH = '/auth?redirect=/premium-access-required';
const PRICING_PATH = '/#prices';

/** Starts the reactivation checkout; resolves with where to send the browser. */
const startCheckout = ({ plan, email }: { plan: PlanType; email: string }) =>
  // An EU plan came from the EU page: a canceled checkout returns there.
  createCheckout(checkoutRequest({ planType: plan, email, originPage: isEuPlan(plan) ? '/eu' : '/', clickIds: clickIds() }));

/**
 * /premium-access-required: a signed-in user without access learns why, by their history
 * (none, a Lifetime purchase with an issue, or a lapsed plan), and can buy or reactivate.
 */
export function PremiumAccessRequiredPage() {
  useMetaPixel();
  const navigate = useNavigate();
  const { user, isLoading, premium, signOut } = useAuth();
  const settings = useSiteSettings();
  const prices = currentPrices(settings, useSale().running);
  const subscription = useSubscription();
  const checkout = useMutation({
    mutationFn: startCheckout,
    onSuccess: ({ url, sessionId }, { plan }) => {
      trackInitiateCheckout({ planName: planDisplayName(plan), planType: plan, value: (prices[plan] ?? 0) / 100, eventId: sessionId });
      window.location.assign(url);
    },
    onError: (error) => notifyError(error instanceof MissingCheckoutUrlError ? CHECKOUT_TEXTS.noCheckoutUrl : CHECKOUT_TEXTS.reactivationFailed),
  });

  useEffect(() => {
    if (!isLoading && !user) void navigate(SIGN_IN_PATH, { replace: true });
  }, [isLoading, user, navigate]);

  // Access came back (renewed elsewhere, or a stale link): the dashboard is where this user belongs.
  useEffect(() => {
    if (user && premium.hasAccess === true) void navigate('/dashboard', { replace: true });
  }, [user, premium.hasAccess, navigate]);

  if (isLoading || !user || subscription.isPending) return <PageSpinner label={PREMIUM_REQUIRED_TEXTS.loading} />;

  // A failed read shows the general message: it never blames a plan the user may not have.
  const variant = premiumRequiredVariantForPlan(subscription.data?.latestPlanType ?? null);
  const goToPricing = () => void navigate(PRICING_PATH);

  return (
    <main className="relative flex min-h-screen items-center justify-center overflow-hidden px-4 py-12">
      <div aria-hidden="true" className="pointer-events-none absolute inset-x-0 top-[-20%] mx-auto h-[480px] max-w-3xl rounded-full bg-primary/10 blur-3xl" />
      <div className="relative w-full max-w-lg">
        <Link to="/" className="mx-auto mb-10 flex w-fit rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary/60">
          <Brand />
        </Link>
        <section className="rounded-2xl border border-border bg-card/90 p-8 text-center shadow-2xl shadow-black/40 backdrop-blur">
          <div className="mx-auto mb-5 flex h-14 w-14 items-center justify-center rounded-full bg-warning/10">
            <Lock aria-hidden="true" className="h-7 w-7 text-warning" />
          </div>
          <h1 className="text-2xl font-semibold tracking-tight">{PREMIUM_REQUIRED_TEXTS.title}</h1>
          <p className="mt-3 text-sm leading-relaxed text-muted">{variant.message}</p>
          <p className="mt-2 text-xs text-muted">
            Signed in as <span className="font-medium text-foreground">{user.email}</span>
          </p>

          <div className="mt-8 flex flex-col gap-3">
            {variant.kind === 'none' ? (
              <Button size="lg" onClick={goToPricing}>
                <Sparkles aria-hidden="true" className="h-4 w-4" />
                {PREMIUM_REQUIRED_TEXTS.getAccess}
              </Button>
            ) : null}
            {variant.kind === 'lapsed' ? (
              <Button size="lg" disabled={checkout.isPending} onClick={() => checkout.mutate({ plan: variant.plan, email: user.email })}>
                {checkout.isPending ? <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" /> : <RotateCcw aria-hidden="true" className="h-4 w-4" />}
                {variant.actions[0]}
              </Button>
            ) : null}
            {variant.kind !== 'none' ? (
              <Button size="lg" variant={variant.kind === 'lifetime' ? 'primary' : 'outline'} onClick={goToPricing}>
                {CHOOSE_ANOTHER_PLAN}
              </Button>
            ) : null}
          </div>

          <div className="mt-6 flex flex-col justify-center gap-2 border-t border-border pt-6 sm:flex-row">
            <Button variant="ghost" onClick={() => void navigate('/')}>
              <ArrowLeft aria-hidden="true" className="h-4 w-4" />
              {PREMIUM_REQUIRED_TEXTS.backHome}
            </Button>
            <Button variant="ghost" onClick={() => void signOut('/')}>
              <LogOut aria-hidden="true" className="h-4 w-4" />
              {PREMIUM_REQUIRED_TEXTS.signOut}
            </Button>
          </div>
        </section>
      </div>
    </main>
  );
}
