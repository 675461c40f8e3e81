// The Stripe Tax checks of npm run doctor against the Stripe-shaped server: tax off says nothing,
// the sandbox says it runs on its VAT table, and with Stripe: active or not, registered or not, and
// prices taxed as PRICES_INCLUDE_TAX says.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { FAKE_PRICES, startFakeStripe, STRIPE_TEST_ENV, type FakeStripe } from '../test-support/fake-stripe-server';
import { hasProblems, type Check } from '../doctor-report';
import { runDoctor } from './run-doctor';

let stripe: FakeStripe;
beforeEach(async () => {
  stripe = await startFakeStripe();
  stripe.tax.registrations = ['DE'];
});
afterEach(async () => {
  await stripe.close();
});

const taxLines = async (env: Record<string, string>) => {
  const checks = await runDoctor(loadConfig(env), { stripeConnection: { host: '127.0.0.1', port: stripe.port, protocol: 'http' }, timeoutMs: 2_000 });
  return checks.filter((check) => check.service === 'Tax');
};
const problems = (checks: Check[]) => checks.filter((check) => check.status === 'problem');

describe('without STRIPE_TAX', () => {
  it('has no tax line and asks Stripe nothing about tax', async () => {
    expect(await taxLines(STRIPE_TEST_ENV)).toEqual([]);
    expect(stripe.requests.some((request) => request.path.startsWith('/v1/tax/'))).toBe(false);
  });
});

describe('STRIPE_TAX in the sandbox', () => {
  it('says tax runs on the sandbox VAT table', async () => {
    expect(await taxLines({ STRIPE_TAX: 'true', PRICES_INCLUDE_TAX: 'true' })).toEqual([
      { service: 'Tax', status: 'sandbox', message: 'STRIPE_TAX: the sandbox charges the standard VAT of EU billing countries (src/shared/vat.ts), prices including it' },
    ]);
  });
});

describe('STRIPE_TAX with Stripe', () => {
  const env = { ...STRIPE_TEST_ENV, STRIPE_TAX: 'true' };

  it('passes when Stripe Tax is active, registered and the prices are exclusive by default', async () => {
    const checks = await taxLines(env);
    expect(checks).toEqual([
      { service: 'Tax', status: 'ok', message: 'Stripe Tax is active' },
      { service: 'Tax', status: 'ok', message: 'Stripe Tax collects tax in DE (active registrations)' },
      { service: 'Tax', status: 'ok', message: 'every price is tax-exclusive (PRICES_INCLUDE_TAX unset)' },
    ]);
    expect(hasProblems(checks)).toBe(false);
  });

  it('Stripe Tax not activated: says what is missing and where to fill it in', async () => {
    stripe.tax.settings.status = 'pending';
    const [settings] = problems(await taxLines(env));
    expect(settings?.message).toBe('STRIPE_TAX is on but Stripe Tax is not active (missing: head_office): checkouts with automatic tax are refused');
    expect(settings?.fix).toBe('fill in the head office address and the defaults at https://dashboard.stripe.com/test/settings/tax');
  });

  it('no registration: Stripe Tax would collect nothing', async () => {
    stripe.tax.registrations = [];
    expect(problems(await taxLines(env))).toEqual([
      {
        service: 'Tax',
        status: 'problem',
        message: 'Stripe Tax has no active registration: it collects no tax anywhere, every checkout shows $0 tax',
        fix: 'add a registration for each country or state where you must collect tax at https://dashboard.stripe.com/test/tax/registrations',
      },
    ]);
  });

  it('PRICES_INCLUDE_TAX against exclusive prices: names each price that disagrees', async () => {
    const [behavior] = problems(await taxLines({ ...env, PRICES_INCLUDE_TAX: 'true' }));
    expect(behavior?.message).toMatch(/^the prices should be tax-inclusive \(PRICES_INCLUDE_TAX=true\): STRIPE_PRICE_MONTHLY price_monthly is exclusive; /);
  });

  it("a price's own tax behavior wins over the account's default", async () => {
    await stripe.close();
    const prices = Object.fromEntries(Object.entries(FAKE_PRICES).map(([id, price]) => [id, { ...price, taxBehavior: 'inclusive' as const }]));
    stripe = await startFakeStripe({ prices });
    stripe.tax.registrations = ['FR'];
    expect(problems(await taxLines({ ...env, PRICES_INCLUDE_TAX: 'true' }))).toEqual([]);
    expect(problems(await taxLines(env)).map((check) => check.message)).toEqual([expect.stringMatching(/^the prices should be tax-exclusive/)]);
  });
});
