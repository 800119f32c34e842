// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { MESSAGES, STORAGE_KEYS, type Plan, type User } from '@reelsmith/contracts';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from '../platform.js';
import {
  renderStudio,
  renderWithStudio,
  testPlatform,
  testUser,
  type FakeHandler,
  type RecordedRequest,
} from '../testing/render-studio.js';
import { useEffect } from 'react';
import { useJobService } from '../shared/jobs/jobs-context.js';
import { PlanArea } from './plan-area.js';
import { PlanCard } from './plan-grid.js';

afterEach(() => {
  cleanup();
  toast.remove();
});

const plan = (id: Plan['id'], name: string, price: number, videoLimit: number): Plan => ({
  id,
  name,
  price,
  currency: 'INR',
  videoLimit,
  features: ['One', 'Two', 'Three', 'Four', 'Five'],
  hasGst: true,
  gstAmount: Math.round(price * 18) / 100,
  totalAmount: Math.round(price * 118) / 100,
});
const PLANS = [
  plan('essentials_plan', 'Essentials', 199, 10),
  plan('starter_plan', 'Starter', 499, 30),
  plan('basic_plan', 'Basic', 999, 75),
  plan('pro_plan', 'Pro', 1999, -1),
];

const subscriptionOf = (planId: Plan['id'], status: 'active' | 'cancelled' | 'expired', used = 3) => ({
  subscription: {
    planId,
    planName: PLANS.find((p) => p.id === planId)!.name,
    status,
    cancelled_at: status === 'cancelled' ? '2026-03-20T00:00:00.000Z' : null,
    cancelledAt: status === 'cancelled' ? '2026-03-20T00:00:00.000Z' : null,
    startDate: '2026-03-10T12:00:00.000Z',
    endDate: '2026-04-10T12:00:00.000Z',
    videoLimit: PLANS.find((p) => p.id === planId)!.videoLimit,
    currency: 'INR',
  },
  usage: { videosThisMonth: used },
});
const NONE = { subscription: null, usage: { videosThisMonth: 0 } };

function signedInPlatform(overrides: Parameters<typeof testPlatform>[0] = {}) {
  return testPlatform({
    storage: new MemoryStorage([
      [STORAGE_KEYS.authStore, JSON.stringify({ state: { user: testUser, token: 't', apiKey: 'k', isAuthenticated: true }, version: 0 })],
    ]),
    ...overrides,
  });
}

/** The create-order answer of the TEST MODE checkout: an order to pay, with its proration when it has one. */
const testCheckoutOrder = (
  order: { orderId: string; amount: number; currency: string; plan: object },
  proration: object | null = null,
) => ({
  body: { order, razorpayKeyId: null, checkoutMode: 'test', proration, requiresPayment: true, message: null },
});
/** What the TEST MODE checkout's "Pay successfully" answers for an order. */
const testPayment = (orderId: string, paymentId: string, signature: string) => ({
  body: { razorpay_payment_id: paymentId, razorpay_order_id: orderId, razorpay_signature: signature },
});
const ESSENTIALS_IN_USD = {
  amount: 499,
  currency: 'USD',
  plan: { name: 'Essentials', price: 4.99, hasGst: false, gstAmount: 0, totalAmount: 4.99 },
};

function server(state: { subscription: unknown }, extra: FakeHandler = () => undefined): FakeHandler {
  return (r: RecordedRequest) => {
    const custom = extra(r);
    if (custom) return custom;
    if (r.path === '/auth/profile') return { body: { user: testUser as User } };
    if (r.path === '/payments/subscription') return { body: state.subscription };
    if (r.path === '/payments/plans') return { body: { currency: r.query.get('currency'), plans: PLANS } };
    if (r.path === '/extension-api/location/pricing')
      return { body: { success: true, pricing: { currency: 'INR' }, location: { country: 'India', countryCode: 'IN' } } };
    if (r.path === '/api/analytics/events') return { body: { accepted: 1 } };
    if (r.path === '/api/videos') return { body: { jobs: [] } };
    if (r.path === '/api/storage/stats')
      return { body: { totalVideos: 7, totalBytes: 1000, tierConfig: { description: 'Videos are kept for 30 days' } } };
    return undefined;
  };
}

describe('PlanCard', () => {
  const renderCard = (subscription: ReturnType<typeof subscriptionOf>['subscription'] | null, target = PLANS[2]!) =>
    renderWithStudio(
      <PlanCard plan={target} subscription={subscription as never} pending={false} busy={false} onChoose={() => undefined} />,
    );

  it('shows price, limit and only the first 4 features', () => {
    renderCard(null, PLANS[3]);
    const card = screen.getByRole('article', { name: 'Pro plan' });
    expect(within(card).getByText('₹1,999')).toBeInTheDocument();
    expect(within(card).getByText('Unlimited')).toBeInTheDocument();
    expect(
      within(card)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['One', 'Two', 'Three', 'Four']);
    expect(within(card).getByRole('button', { name: 'Choose Pro' })).toBeEnabled();
  });

  it('shows Current Plan (disabled) with an Active chip', () => {
    renderCard(subscriptionOf('basic_plan', 'active').subscription);
    expect(screen.getByRole('button', { name: 'Current Plan' })).toBeDisabled();
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(screen.getByText('75 videos/month')).toBeInTheDocument();
  });

  it('shows the cancelled and expired chips with Reactivate and Renew', () => {
    renderCard(subscriptionOf('basic_plan', 'cancelled').subscription);
    expect(screen.getByText('Cancelled - Valid until Apr 10, 2026')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reactivate Plan' })).toBeEnabled();
    cleanup();
    renderCard(subscriptionOf('basic_plan', 'expired').subscription);
    expect(screen.getByText('Expired on Apr 10, 2026')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Renew Plan' })).toBeEnabled();
  });

  it('disables a lower plan while a higher one is active', () => {
    renderCard(subscriptionOf('pro_plan', 'active').subscription, PLANS[0]);
    expect(screen.getByRole('button', { name: 'Downgrade Not Allowed' })).toBeDisabled();
  });
});

describe('Pricing page', () => {
  it('shows the price, 18% GST and total of every INR plan before checkout', async () => {
    renderStudio({ path: '/pricing', handler: server({ subscription: NONE }) });
    const cards = await screen.findAllByRole('article');
    for (const card of cards) {
      expect(card).toHaveTextContent(/\+ GST \(18%\) ₹[\d,]+\.\d\d/);
      expect(card).toHaveTextContent(/Total ₹[\d,]+\.\d\d\/month/);
    }
  });

  it('shows the page to visitors and sends a visitor who chooses a plan to /login', async () => {
    const { requests } = renderStudio({ path: '/pricing', handler: server({ subscription: NONE }) });
    expect(await screen.findByRole('heading', { name: 'Choose Your Perfect Plan' })).toBeInTheDocument();
    expect(await screen.findByText('Prices in Indian Rupees (₹)')).toBeInTheDocument();
    expect(screen.getByText('*Exclusive of taxes')).toBeInTheDocument();
    expect(screen.getByText(/Secure payments powered by Razorpay/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Back to Studio/ })).toHaveAttribute('href', '/');
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Starter' }));
    expect(await screen.findByRole('tab', { name: 'Sign In' })).toBeInTheDocument();
    expect(requests.some((r) => r.path === '/payments/create-order')).toBe(false);
  });

  it('prices in dollars when the location says so', async () => {
    renderStudio({
      path: '/pricing',
      handler: server({ subscription: NONE }, (r) =>
        r.path === '/extension-api/location/pricing'
          ? { body: { success: true, pricing: { currency: 'USD' }, location: { country: 'Germany', countryCode: 'DE' } } }
          : undefined,
      ),
    });
    expect(await screen.findByText('Prices in US Dollars ($)')).toBeInTheDocument();
  });

  it('buys a plan through the TEST MODE checkout: GST confirmation, checkout, verification, refresh', async () => {
    const state = { subscription: NONE as unknown };
    const handler = server(state, (r) => {
      if (r.path === '/payments/create-order')
        return testCheckoutOrder({
          orderId: 'order_test_1',
          amount: 58_882,
          currency: 'INR',
          plan: { name: 'Starter', price: 499, hasGst: true, gstAmount: 89.82, totalAmount: 588.82 },
        });
      if (r.path === '/payments/test-checkout/pay') return testPayment('order_test_1', 'pay_test_1', 'f'.repeat(64));
      if (r.path === '/payments/verify-payment') {
        state.subscription = subscriptionOf('starter_plan', 'active', 0);
        return { body: { success: true, subscription: (state.subscription as ReturnType<typeof subscriptionOf>).subscription } };
      }
      return undefined;
    });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { requests } = renderStudio({ path: '/pricing', handler, platform: signedInPlatform() });
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Choose Starter' }));

    // The product's own dialog asks, never the browser's confirm().
    const question = await screen.findByRole('dialog', { name: 'Confirm payment' });
    expect(question).toHaveTextContent('GST (18%): ₹89.82');
    expect(question).toHaveTextContent('Total: ₹588.82');
    expect(confirm).not.toHaveBeenCalled();
    confirm.mockRestore();
    await u.click(within(question).getByRole('button', { name: 'Proceed to payment' }));
    const checkout = await screen.findByRole('dialog', { name: 'Test checkout' });
    expect(within(checkout).getByText('TEST MODE')).toBeInTheDocument();
    expect(within(checkout).getByText('₹588.82')).toBeInTheDocument();
    await u.click(within(checkout).getByRole('button', { name: 'Pay successfully' }));

    expect(await screen.findByText(MESSAGES.paymentSuccess)).toBeInTheDocument();
    expect(requests.find((r) => r.path === '/payments/verify-payment')?.body).toEqual({
      orderId: 'order_test_1',
      paymentId: 'pay_test_1',
      signature: 'f'.repeat(64),
      planId: 'starter_plan',
      currency: 'INR',
    });
    expect(requests.find((r) => r.path === '/payments/test-checkout/pay')?.body).toEqual({ orderId: 'order_test_1', outcome: 'success' });
    // After buying, the page returns to the studio.
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Choose Your Perfect Plan' })).not.toBeInTheDocument());
  });

  it('does nothing more when the confirmation is declined, and shows the server message when the order fails', async () => {
    let orders = 0;
    const handler = server({ subscription: subscriptionOf('starter_plan', 'active') }, (r) => {
      if (r.path !== '/payments/create-order') return undefined;
      orders += 1;
      if (orders === 2) return { status: 409, body: { statusCode: 409, error: 'Conflict', message: MESSAGES.downgradeNotAllowed } };
      return testCheckoutOrder(
        {
          orderId: 'order_test_2',
          amount: 30_000,
          currency: 'INR',
          plan: { name: 'Basic', price: 254.24, hasGst: true, gstAmount: 45.76, totalAmount: 300 },
        },
        {
          isProrated: true,
          description: 'Upgrade from Starter to Basic for the remaining 15 days of your billing period: ₹254.24',
          amount: 254.24,
          breakdown: {
            calculation: '(₹999.00 - ₹499.00) × 15/31 days = ₹241.94',
            remainingDays: 15,
            currentPlan: 'Starter',
            newPlan: 'Basic',
          },
        },
      );
    });
    const { requests } = renderStudio({ path: '/pricing', handler, platform: signedInPlatform() });
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Upgrade to Basic' }));
    const question = await screen.findByRole('dialog', { name: 'Confirm payment' });
    expect(question).toHaveTextContent('remaining 15 days');
    await u.click(within(question).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Confirm payment' })).not.toBeInTheDocument());
    expect(screen.queryByRole('dialog', { name: 'Test checkout' })).not.toBeInTheDocument();
    expect(requests.some((r) => r.path === '/payments/test-checkout/pay')).toBe(false);

    await u.click(screen.getByRole('button', { name: 'Upgrade to Pro' }));
    expect(await screen.findByText(MESSAGES.downgradeNotAllowed)).toBeInTheDocument();
  });

  it.each([
    ['refuses the signature', { status: 400, body: { statusCode: 400, error: 'Bad Request', message: 'Invalid payment signature' } }],
    ['answers success false', { body: { success: false, subscription: null } }],
  ])('shows the verification failure message and keeps the plan unchanged when the verification %s', async (_, verification) => {
    const handler = server({ subscription: NONE }, (r) => {
      if (r.path === '/payments/create-order') return testCheckoutOrder({ orderId: 'order_test_3', ...ESSENTIALS_IN_USD });
      if (r.path === '/payments/test-checkout/pay') return testPayment('order_test_3', 'pay_x', 'e'.repeat(64));
      if (r.path === '/payments/verify-payment') return verification;
      return undefined;
    });
    renderStudio({ path: '/pricing', handler, platform: signedInPlatform() });
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Choose Essentials' }));
    // USD without GST or proration: nothing to confirm.
    await u.click(within(await screen.findByRole('dialog', { name: 'Test checkout' })).getByRole('button', { name: 'Pay successfully' }));
    expect(await screen.findByText(MESSAGES.verificationFailed)).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Confirm payment' })).not.toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.paymentSuccess)).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Choose Your Perfect Plan' })).toBeInTheDocument();
  });

  it('reactivates without payment when the server says nothing is owed', async () => {
    const state = { subscription: subscriptionOf('basic_plan', 'cancelled') as unknown };
    const handler = server(state, (r) => {
      if (r.path !== '/payments/create-order') return undefined;
      state.subscription = subscriptionOf('basic_plan', 'active');
      return {
        body: {
          order: null,
          razorpayKeyId: null,
          checkoutMode: 'test',
          proration: null,
          requiresPayment: false,
          message: 'Your Basic plan is active again until Apr 10, 2026. No payment is needed.',
        },
      };
    });
    renderStudio({ path: '/pricing', handler, platform: signedInPlatform() });
    await userEvent.click(await screen.findByRole('button', { name: 'Reactivate Plan' }));
    // The date reads like every other billing date ('Cancelled - Valid until Apr 10, 2026'), not as the server's ISO day.
    expect(await screen.findByText('Your Basic plan is active again until Apr 10, 2026. No payment is needed.')).toBeInTheDocument();
    expect(screen.queryByText(/2026-04-10/)).not.toBeInTheDocument();
  });

  it('confirms and verifies an upgrade in the currency of the subscription, not the one the page shows', async () => {
    const usdEssentials = {
      ...subscriptionOf('essentials_plan', 'active', 1),
      subscription: { ...subscriptionOf('essentials_plan', 'active', 1).subscription, currency: 'USD' },
    };
    const state = { subscription: usdEssentials as unknown };
    const handler = server(state, (r) => {
      if (r.path === '/payments/create-order')
        return testCheckoutOrder(
          {
            orderId: 'order_test_5',
            amount: 500,
            currency: 'USD',
            plan: { name: 'Starter', price: 5, hasGst: false, gstAmount: 0, totalAmount: 5 },
          },
          {
            isProrated: true,
            description: 'Upgrade from Essentials to Starter for the remaining 31 days of your billing period: $5.00',
            amount: 5,
            breakdown: {
              calculation: '($9.99 - $4.99) × 31/31 days = $5.00',
              remainingDays: 31,
              currentPlan: 'Essentials',
              newPlan: 'Starter',
            },
          },
        );
      if (r.path === '/payments/test-checkout/pay') return testPayment('order_test_5', 'pay_test_5', 'd'.repeat(64));
      if (r.path === '/payments/verify-payment')
        return {
          body: {
            success: true,
            subscription: { ...usdEssentials.subscription, planId: 'starter_plan', planName: 'Starter', videoLimit: 30 },
          },
        };
      return undefined;
    });
    const { requests } = renderStudio({ path: '/pricing', handler, platform: signedInPlatform() });
    const u = userEvent.setup();
    expect(await screen.findByText('Prices in Indian Rupees (₹)')).toBeInTheDocument();
    await u.click(await screen.findByRole('button', { name: 'Upgrade to Starter' }));

    const question = await screen.findByRole('dialog', { name: 'Confirm payment' });
    const summary = question.textContent ?? '';
    expect(summary).toContain('($9.99 - $4.99) × 31/31 days = $5.00');
    expect(summary).toContain('Prorated amount: $5.00');
    expect(summary).toContain('Total: $5.00');
    expect(summary).not.toMatch(/₹|GST/);
    await u.click(within(question).getByRole('button', { name: 'Proceed to payment' }));
    await u.click(within(await screen.findByRole('dialog', { name: 'Test checkout' })).getByRole('button', { name: 'Pay successfully' }));
    expect(await screen.findByText(MESSAGES.paymentSuccess)).toBeInTheDocument();
    expect(requests.find((r) => r.path === '/payments/create-order')?.body).toEqual({ planId: 'starter_plan', currency: 'INR' });
    expect(requests.find((r) => r.path === '/payments/verify-payment')?.body).toMatchObject({ planId: 'starter_plan', currency: 'USD' });
  });
});

describe('PlanArea', () => {
  const FREE_VIDEO_LEFT = { canGenerate: true, isFreeVideo: true, reason: null };
  async function renderArea(subscription: unknown, { desktop = true, canGenerate = FREE_VIDEO_LEFT as unknown } = {}) {
    window.matchMedia = ((query: string) => ({
      matches: desktop && query.includes('min-width: 900px'),
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    })) as never;
    const handler = server({ subscription }, (r) => (r.path === '/payments/can-generate' ? { body: canGenerate } : undefined));
    const rendered = renderWithStudio(<PlanArea />, { handler, path: '/' });
    await act(async () => {
      rendered.services.authStore.setState({
        user: testUser,
        token: 't',
        isAuthenticated: true,
        isLoading: false,
        subscription: subscription as never,
      });
    });
    return rendered;
  }

  it('shows the plan chip, usage over the limit, Manage Plan and the storage line', async () => {
    await renderArea(subscriptionOf('starter_plan', 'active', 4));
    expect(screen.getByText('Starter')).toBeInTheDocument();
    expect(screen.getByLabelText('Videos used this month')).toHaveTextContent('4 / 30');
    expect(await screen.findByText('7 videos stored · Videos are kept for 30 days')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Manage Plan' }));
    expect(await screen.findByRole('dialog', { name: 'Choose Your Plan' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Current Plan' })).toBeDisabled();
  });

  it('says a video being made beside the stored count, not only "0 videos stored"', async () => {
    const steps = Object.fromEntries(
      ['setup', 'story', 'voice', 'images', 'video'].map((step) => [step, { status: 'pending', progress: 0 }]),
    );
    const making = {
      id: 'j-making',
      status: 'processing',
      progress: 40,
      currentStep: 'images',
      stepProgress: 10,
      params: { topic: 'Owls' },
      created_at: '2026-11-22T10:00:00.000Z',
      result: null,
      error: null,
      steps,
    };
    function AreaWithActiveJob() {
      const service = useJobService();
      useEffect(() => service.store.getState().mergeServerJobs([making as never]), [service]);
      return <PlanArea />;
    }
    const handler = server({ subscription: subscriptionOf('starter_plan', 'active', 4) }, (r) =>
      r.path === '/payments/can-generate' ? { body: FREE_VIDEO_LEFT } : undefined,
    );
    const rendered = renderWithStudio(<AreaWithActiveJob />, { handler, path: '/' });
    await act(async () => {
      rendered.services.authStore.setState({
        user: testUser,
        token: 't',
        isAuthenticated: true,
        isLoading: false,
        subscription: subscriptionOf('starter_plan', 'active', 4) as never,
      });
    });
    expect(await screen.findByText('7 videos stored · 1 being made · Videos are kept for 30 days')).toBeInTheDocument();
  });

  it('shows ∞ for an unlimited plan', async () => {
    await renderArea(subscriptionOf('pro_plan', 'active', 120));
    expect(screen.getByLabelText('Videos used this month')).toHaveTextContent('120 / ∞');
  });

  it('shows the cancelled, expired and no-plan states', async () => {
    await renderArea(subscriptionOf('basic_plan', 'cancelled'));
    expect(screen.getByText('Cancelled - Access until Apr 10, 2026')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reactivate Plan' })).toBeInTheDocument();
    cleanup();
    await renderArea(subscriptionOf('basic_plan', 'expired'));
    expect(screen.getByText('Expired on Apr 10, 2026')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Renew Plan' })).toBeInTheDocument();
    cleanup();
    await renderArea(NONE);
    expect(screen.getByRole('button', { name: 'Upgrade Plan' })).toBeInTheDocument();
  });

  it('offers the free video until it is used, then says it is used (from the can-generate answer)', async () => {
    const fresh = await renderArea(NONE);
    await waitFor(() => expect(fresh.requests.some((r) => r.path === '/payments/can-generate')).toBe(true));
    expect(await screen.findByText('Free plan: one free 30-second video')).toBeInTheDocument();
    cleanup();
    const used = await renderArea(NONE, { canGenerate: { canGenerate: false, isFreeVideo: false, reason: MESSAGES.subscriptionRequired } });
    expect(await screen.findByText('Free video used · choose a plan to make more')).toBeInTheDocument();
    expect(screen.queryByText('Free plan: one free 30-second video')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upgrade Plan' })).toBeInTheDocument();
    // It reads the studio's can-generate query once; it does not poll.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(used.requests.filter((r) => r.path === '/payments/can-generate')).toHaveLength(1);
  });

  it('tolerates a missing storage stats endpoint', async () => {
    window.matchMedia = ((query: string) => ({
      matches: true,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    })) as never;
    const rendered = renderWithStudio(<PlanArea />, {
      handler: server({ subscription: NONE }, (r) =>
        r.path === '/api/storage/stats' ? { status: 404, body: { statusCode: 404, error: 'Not Found', message: 'Not found' } } : undefined,
      ),
    });
    await act(async () => {
      rendered.services.authStore.setState({
        user: testUser,
        token: 't',
        isAuthenticated: true,
        isLoading: false,
        subscription: NONE as never,
      });
    });
    expect(screen.getByRole('button', { name: 'Upgrade Plan' })).toBeInTheDocument();
    await waitFor(() => expect(rendered.requests.some((r) => r.path === '/api/storage/stats')).toBe(true));
    expect(screen.queryByText(/stored/)).not.toBeInTheDocument();
  });
});
