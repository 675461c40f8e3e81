import { useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, CheckCircle2, Loader2, RefreshCw } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type ComponentProps, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { GetPaymentDetailsResponse, PaymentUserStatus } from '@shared/api-contract';
import {
  ACCOUNT_CREATION_TEXTS,
  ACTIVATION_TEXTS,
  PAYMENT_LOGIN_TEXTS,
  PAYMENT_PAGE_TEXTS,
  accountCreationError,
  activationError,
  isDuplicatePayment,
  paymentDetailsError,
  paymentLoginError,
  subscriptionActivationError,
  type Toast,
} from '@shared/error-messages';
import { isRecurring } from '@shared/plans';
import { PAYMENT_VERIFICATION_TIMEOUT_MS, REDIRECT_DELAYS_MS } from '@shared/timing';
import { VALIDATION_TOASTS } from '@shared/validation';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { ApiRequestError } from '@client/lib/api/api-client';
import { toErrorInput } from '@client/lib/api/error-input';
import { AuthRequestError } from '@client/lib/auth-request';
import { SESSION_QUERY_KEY, useAuth, type SessionUser } from '@client/lib/auth-state';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { useSiteSettings } from '@client/lib/site-settings';
import { trackPurchaseOnce, useMetaPixel } from '@client/lib/tracking';
import { useActivateSubscription } from './api/activate-subscription';
import { NoPaymentDataError, usePaymentDetails } from './api/get-payment-details';
import { postPaymentCleanup } from './api/post-payment-cleanup';
import { useSignInWithPassword } from './api/sign-in';
import { useVerifyPayment } from './api/verify-payment';
import { CREATE_ACCOUNT_TEXTS, CreateAccountForm } from './components/create-account-form';
import { LOGIN_FORM_TEXTS, LoginForm } from './components/login-form';
import { NextSteps, OrderSummary } from './components/order-summary';
import { NoticeCard, PaymentLayout } from './components/payment-layout';
import { UsernameForm } from './components/username-form';

export const PAYMENT_SUCCESS_TEXTS = {
  loadingAuth: 'Loading authentication...',
  loadingDetails: 'Loading payment details...',
  processing: 'Processing your payment...',
  timeoutBody: 'We could not load your payment in time. Your payment is safe: please retry in a moment.',
  retry: 'Retry',
  backHome: 'Back to Homepage',
  heading: 'Payment Successful!',
  thanks: 'Thank you for your purchase.',
  existingTv: {
    title: 'Activate Your Subscription',
    description: 'Enter your TradingView username so we can give it access to the indicators.',
    submit: 'Activate Subscription',
    busy: 'Activating...',
  },
  newTv: {
    title: 'Activate Premium Access',
    description: 'Your account is ready. Enter your TradingView username so we can give it access to the indicators.',
    submit: 'Activate Premium Access',
    busy: 'Activating...',
  },
  autoActivating: 'Activating your subscription...',
  autoFailed: 'We could not activate your subscription automatically.',
  tryAgain: 'Try Again',
  done: { title: "You're all set!", description: 'Taking you to your dashboard...' },
  manualLogin: { title: 'Account created', description: 'Taking you to the sign-in page...' },
} as const;

// Where the page is after details arrived: what the server said, or what the buyer just did.
type Override = PaymentUserStatus | 'processing' | 'done' | 'manual_login';

/** Timeouts that die with the page (a buyer who leaves must not be redirected later). */
function useLater() {
  const timers = useRef<number[]>([]);
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((timer) => window.clearTimeout(timer));
  }, []);
  return useCallback((ms: number, action: () => void) => {
    timers.current.push(window.setTimeout(action, ms));
  }, []);
}

const signInPath = (email: string, sessionId: string) =>
  // Back here after signing in, so the username step is not skipped.
  `/auth?email=${encodeURIComponent(email)}&redirect=${encodeURIComponent(`/payment-success?session_id=${sessionId}`)}`;

function detailsErrorToast(error: unknown): Toast {
  if (error instanceof NoPaymentDataError) return { title: PAYMENT_PAGE_TEXTS.loadDetailsTitle, description: PAYMENT_PAGE_TEXTS.noPaymentData };
  return paymentDetailsError(toErrorInput(error));
}

/**
 * /payment-success?session_id=…: loads the paid session, then by userStatus
 * creates the account, logs the owner in, asks for the TradingView username or activates on its
 * own, and sends the member to the dashboard.
 */
export function PaymentSuccessPage() {
  useMetaPixel();
  const [params] = useSearchParams();
  const sessionId = params.get('session_id')?.trim() || null;
  // Present when the buyer came from the mailed "Finish setting up" link (any browser).
  const proof = params.get('proof')?.trim() || null;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const later = useLater();
  const { isLoading: authLoading, refreshSession, refreshAccess } = useAuth();
  const details = usePaymentDetails(sessionId, proof, !authLoading);
  const verify = useVerifyPayment();
  const signIn = useSignInWithPassword();
  const activation = useActivateSubscription();
  const [override, setOverride] = useState<Override | null>(null);
  const [timedOut, setTimedOut] = useState(false);
  const [autoError, setAutoError] = useState<string | null>(null);
  const autoStarted = useRef(false);

  // no session id: nothing to show
  const toldInvalid = useRef(false);
  useEffect(() => {
    if (sessionId || toldInvalid.current) return;
    toldInvalid.current = true;
    notifyError(VALIDATION_TOASTS.invalidPaymentSession);
  }, [sessionId]);

  // 15 s to load, then the timeout screen
  const waiting = sessionId !== null && details.data === undefined && !details.isError;
  useEffect(() => {
    if (!waiting) return;
    const timer = window.setTimeout(() => {
      setTimedOut(true);
      notifyError(PAYMENT_PAGE_TEXTS.timeoutToast);
    }, PAYMENT_VERIFICATION_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [waiting]);

  const toldError = useRef<unknown>(null);
  useEffect(() => {
    if (!details.isError || details.data !== undefined || toldError.current === details.error) return;
    toldError.current = details.error;
    notifyError(detailsErrorToast(details.error));
  }, [details.isError, details.error, details.data]);

  // One purchase conversion per payment session (remembered per session id).
  useEffect(() => {
    if (sessionId && details.data) trackPurchaseOnce(sessionId, details.data.amountTotal, details.data.currency);
  }, [sessionId, details.data]);

  const payment = details.data;

  /** Activation succeeded: the member goes to the dashboard once access is re-read. */
  const finish = useCallback(
    (toast: Toast, signedIn: boolean, paid: GetPaymentDetailsResponse) => {
      // A one-time purchase ends the recurring plans it replaces (usually done already by the server).
      if (!isRecurring(paid.planType)) void postPaymentCleanup({ email: paid.email, newPlanType: paid.planType });
      if (!signedIn) {
        notifySuccess(PAYMENT_PAGE_TEXTS.accountCreatedLoginManually);
        setOverride('manual_login');
        later(REDIRECT_DELAYS_MS.afterAutoLoginFailure, () => void navigate(signInPath(paid.email, sessionId ?? '')));
        return;
      }
      notifySuccess(toast);
      setOverride('done');
      // The access answer cached before the purchase was linked says "no": ask again meanwhile.
      const refreshed = refreshAccess().catch(() => false);
      later(REDIRECT_DELAYS_MS.afterActivation, () => void refreshed.then(() => navigate('/dashboard')));
    },
    [later, navigate, refreshAccess, sessionId],
  );

  /** Links the purchase (and the username, when given); the error text for the form, or null. */
  const activate = useCallback(
    async (paid: GetPaymentDetailsResponse, username?: string): Promise<string | null> => {
      if (!sessionId) {
        notifyError(PAYMENT_PAGE_TEXTS.missingSession);
        return PAYMENT_PAGE_TEXTS.missingSession.description;
      }
      try {
        // The mailed link's proof goes along: in a browser that did not pay, it is what lets the purchase be linked.
        const result = await activation.mutateAsync({ sessionId, ...(proof ? { proof } : {}), ...(username ? { tradingviewUsername: username } : {}) });
        finish(username ? ACTIVATION_TEXTS.success : PAYMENT_PAGE_TEXTS.activated, result.signedIn, paid);
        return null;
      } catch (error) {
        const input = toErrorInput(error);
        const toast = username ? activationError(input) : subscriptionActivationError(input);
        notifyError(toast);
        return toast.description;
      }
    },
    [activation, finish, sessionId, proof],
  );

  const createAccount = async (password: string) => {
    if (!sessionId || !payment) {
      notifyError(PAYMENT_PAGE_TEXTS.missingSession);
      return;
    }
    let result: { email: string; signedIn: boolean };
    try {
      result = await verify.mutateAsync(proof ? { sessionId, password, proof } : { sessionId, password });
    } catch (error) {
      notifyError(error instanceof ApiRequestError ? accountCreationError(toErrorInput(error)) : { title: ACCOUNT_CREATION_TEXTS.thrownTitle, description: ACCOUNT_CREATION_TEXTS.default });
      return;
    }
    let signedIn = result.signedIn;
    if (signedIn) {
      await refreshSession();
      const session = queryClient.getQueryData<{ user: SessionUser } | null>(SESSION_QUERY_KEY);
      signedIn = session?.user.email.toLowerCase() === result.email.toLowerCase();
    }
    if (!signedIn) {
      notifySuccess(PAYMENT_PAGE_TEXTS.accountCreatedLoginManually);
      setOverride('manual_login');
      later(REDIRECT_DELAYS_MS.afterAutoLoginFailure, () => void navigate(signInPath(result.email, sessionId)));
      return;
    }
    notifySuccess(PAYMENT_PAGE_TEXTS.accountCreated);
    setOverride('new_needs_tv');
  };

  const logIn = async (password: string) => {
    if (!payment) return;
    try {
      await signIn.mutateAsync({ email: payment.email, password });
    } catch (error) {
      notifyError(error instanceof AuthRequestError ? paymentLoginError(error.input) : { ...PAYMENT_LOGIN_TEXTS.loginError });
      return;
    }
    notifySuccess(PAYMENT_LOGIN_TEXTS.success);
    // Signed in now: clear the status and look again, the server decides what is next.
    setOverride('processing');
    await refreshSession();
    later(REDIRECT_DELAYS_MS.afterLoginReevaluate, () => {
      void details.refetch().then((result) => {
        if (result.isError) notifyError(detailsErrorToast(result.error));
        setOverride(null);
      });
    });
  };

  const status: Override | undefined = override ?? payment?.userStatus;

  // existing_complete: signed in with a username on file, so activation needs nothing from the buyer.
  useEffect(() => {
    if (status !== 'existing_complete' || !payment || autoStarted.current) return;
    autoStarted.current = true;
    void activate(payment).then(setAutoError);
  }, [status, payment, activate]);

  if (!sessionId) {
    return (
      <PaymentLayout>
        <NoticeCard
          icon={<AlertTriangle aria-hidden="true" className="h-7 w-7 text-warning" />}
          title={VALIDATION_TOASTS.invalidPaymentSession.title}
          actions={
            <Button onClick={() => void navigate('/')} variant="secondary">
              {PAYMENT_SUCCESS_TEXTS.backHome}
            </Button>
          }
        >
          {VALIDATION_TOASTS.invalidPaymentSession.description}
        </NoticeCard>
      </PaymentLayout>
    );
  }

  if (!payment) {
    if (details.isError) {
      const toast = detailsErrorToast(details.error);
      // A second payment while the buyer holds a subscription was refunded: nothing to retry.
      const refunded = isDuplicatePayment(toErrorInput(details.error));
      const actions = refunded ? (
        <Button onClick={() => void navigate('/')} variant="secondary">
          {PAYMENT_SUCCESS_TEXTS.backHome}
        </Button>
      ) : (
        <RetryButton />
      );
      return (
        <PaymentLayout>
          <NoticeCard icon={<AlertTriangle aria-hidden="true" className={refunded ? 'h-7 w-7 text-warning' : 'h-7 w-7 text-danger'} />} title={toast.title} actions={actions}>
            <p>{toast.description}</p>
            <SupportLine />
          </NoticeCard>
        </PaymentLayout>
      );
    }
    if (timedOut) {
      return (
        <PaymentLayout>
          <NoticeCard icon={<AlertTriangle aria-hidden="true" className="h-7 w-7 text-warning" />} title={PAYMENT_PAGE_TEXTS.timeoutScreen} actions={<RetryButton />}>
            <p>{PAYMENT_SUCCESS_TEXTS.timeoutBody}</p>
            <SupportLine />
          </NoticeCard>
        </PaymentLayout>
      );
    }
    return (
      <PaymentLayout>
        <div className="flex min-h-[40vh] items-center justify-center">
          <Spinner label={authLoading ? PAYMENT_SUCCESS_TEXTS.loadingAuth : PAYMENT_SUCCESS_TEXTS.loadingDetails} />
        </div>
      </PaymentLayout>
    );
  }

  return (
    <PaymentLayout wide>
      <header className="mb-8 text-center">
        <div className="mx-auto mb-4 flex h-14 w-14 items-center justify-center rounded-full bg-primary/15">
          <CheckCircle2 aria-hidden="true" className="h-8 w-8 text-primary" />
        </div>
        <h1 className="text-3xl font-bold tracking-tight">{PAYMENT_SUCCESS_TEXTS.heading}</h1>
        <p className="mt-2 text-muted">{PAYMENT_SUCCESS_TEXTS.thanks}</p>
      </header>
      <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_320px]">
        <section className="rounded-2xl border border-border bg-card/90 p-6 shadow-2xl shadow-black/40 sm:p-8">
          <Step
            status={status}
            payment={payment}
            busy={{ verify: verify.isPending, signIn: signIn.isPending, activate: activation.isPending }}
            autoError={autoError}
            onCreate={createAccount}
            onLogin={logIn}
            onActivate={(username) => activate(payment, username)}
            onRetryAuto={() => void activate(payment).then(setAutoError)}
          />
        </section>
        <aside className="space-y-6">
          <OrderSummary details={payment} />
          <NextSteps />
        </aside>
      </div>
    </PaymentLayout>
  );
}

type StepProps = {
  status: Override | undefined;
  payment: GetPaymentDetailsResponse;
  busy: { verify: boolean; signIn: boolean; activate: boolean };
  autoError: string | null;
  onCreate: (password: string) => Promise<void>;
  onLogin: (password: string) => Promise<void>;
  onActivate: (username: string) => Promise<string | null>;
  onRetryAuto: () => void;
};

/** The one thing the buyer does next, by userStatus. */
function Step({ status, payment, busy, autoError, onCreate, onLogin, onActivate, onRetryAuto }: StepProps) {
  // Only the session id, from another browser: nothing here may create or link an account.
  if (!payment.emailProven && (status === 'new' || status === 'existing_needs_login')) {
    return (
      <StepFrame title={PAYMENT_PAGE_TEXTS.useMailedLink.title} description={PAYMENT_PAGE_TEXTS.useMailedLink.description}>
        <p className="text-sm text-muted">{payment.email}</p>
      </StepFrame>
    );
  }
  switch (status) {
    case 'new':
      return (
        <StepFrame title={CREATE_ACCOUNT_TEXTS.title} description={CREATE_ACCOUNT_TEXTS.description}>
          <CreateAccountForm email={payment.email} busy={busy.verify} onCreate={onCreate} />
        </StepFrame>
      );
    case 'existing_needs_login':
      return (
        <StepFrame title={LOGIN_FORM_TEXTS.title} description={LOGIN_FORM_TEXTS.description}>
          <LoginForm email={payment.email} busy={busy.signIn} onLogin={onLogin} />
        </StepFrame>
      );
    case 'existing_needs_tv':
      return (
        <UsernameStep texts={PAYMENT_SUCCESS_TEXTS.existingTv} emptyToast={VALIDATION_TOASTS.missingTradingViewUsername} busy={busy.activate} onActivate={onActivate} />
      );
    case 'new_needs_tv':
      return (
        <UsernameStep texts={PAYMENT_SUCCESS_TEXTS.newTv} emptyToast={VALIDATION_TOASTS.usernameRequired} busy={busy.activate} onActivate={onActivate} />
      );
    case 'existing_complete':
      if (autoError && !busy.activate) {
        return (
          <StepFrame title={PAYMENT_PAGE_TEXTS.activationFailedTitle} description={PAYMENT_SUCCESS_TEXTS.autoFailed}>
            <p role="alert" className="mb-6 text-sm text-danger">
              {autoError}
            </p>
            <Button size="lg" className="w-full" onClick={onRetryAuto}>
              {PAYMENT_SUCCESS_TEXTS.tryAgain}
            </Button>
          </StepFrame>
        );
      }
      return <Centered>{PAYMENT_SUCCESS_TEXTS.autoActivating}</Centered>;
    case 'done':
      return (
        <div className="py-8 text-center">
          <CheckCircle2 aria-hidden="true" className="mx-auto mb-4 h-10 w-10 text-primary" />
          <h2 className="text-xl font-semibold">{PAYMENT_SUCCESS_TEXTS.done.title}</h2>
          <p className="mt-2 inline-flex items-center gap-2 text-sm text-muted">
            <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" />
            {PAYMENT_SUCCESS_TEXTS.done.description}
          </p>
        </div>
      );
    case 'manual_login':
      return (
        <div className="py-8 text-center">
          <h2 className="text-xl font-semibold">{PAYMENT_SUCCESS_TEXTS.manualLogin.title}</h2>
          <p className="mt-2 text-sm text-muted">{PAYMENT_PAGE_TEXTS.accountCreatedLoginManually.description}</p>
          <p className="mt-2 text-sm text-muted">{PAYMENT_SUCCESS_TEXTS.manualLogin.description}</p>
        </div>
      );
    default:
      return <Centered>{PAYMENT_SUCCESS_TEXTS.processing}</Centered>;
  }
}

function StepFrame({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <div>
      <h2 className="text-xl font-semibold tracking-tight">{title}</h2>
      <p className="mb-6 mt-2 text-sm text-muted">{description}</p>
      {children}
    </div>
  );
}

type UsernameStepProps = Pick<ComponentProps<typeof UsernameForm>, 'emptyToast' | 'busy' | 'onActivate'> & {
  texts: (typeof PAYMENT_SUCCESS_TEXTS)['existingTv' | 'newTv'];
};

/** The TradingView username step; an existing and a new account see different words. */
function UsernameStep({ texts, ...form }: UsernameStepProps) {
  return (
    <StepFrame title={texts.title} description={texts.description}>
      <UsernameForm submitLabel={texts.submit} busyLabel={texts.busy} {...form} />
    </StepFrame>
  );
}

function Centered({ children }: { children: string }) {
  return (
    <div className="flex min-h-48 items-center justify-center">
      <Spinner label={children} />
    </div>
  );
}

function RetryButton() {
  return (
    <Button onClick={() => window.location.reload()}>
      <RefreshCw aria-hidden="true" className="h-4 w-4" />
      {PAYMENT_SUCCESS_TEXTS.retry}
    </Button>
  );
}

function SupportLine() {
  const { supportEmail } = useSiteSettings();
  return (
    <p className="mt-3">
      Need help? Write to{' '}
      <a href={`mailto:${supportEmail}`} className="text-primary underline-offset-4 hover:underline">
        {supportEmail}
      </a>
      .
    </p>
  );
}
