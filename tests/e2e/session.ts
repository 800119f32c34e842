import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { mailedLink } from './mailbox.js';

export const uniqueId = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const PASSWORD = 'first-hour-secret';

export interface SignedInUser {
  id: string;
  name: string;
  email: string;
  role: 'admin' | 'user';
  token: string;
}

/**
 * Registers (or, for an existing e-mail, signs in) through the API and stores the session the way
 * the studio persists it, so a test starts on a signed-in page without walking the login form.
 */
export async function signInThroughApi(
  page: Page,
  email: string,
  name = 'First Hour',
  options: { verifyEmail?: boolean } = {},
): Promise<SignedInUser> {
  const register = await page.request.post('/auth/register', { data: { name, email, password: PASSWORD } });
  expect([200, 201, 409]).toContain(register.status());
  if (options.verifyEmail && register.status() !== 409) {
    // ADMIN_EMAILS grants admin to a verified address only: open the mailed link's token first.
    const token = new URL(await mailedLink(email, '/verify-email'), 'http://e2e.invalid').searchParams.get('token');
    const verified = await page.request.post('/auth/verify-email', { data: { token } });
    expect(verified.status(), await verified.text()).toBe(200);
  }
  const login = await page.request.post('/auth/login', { data: { email, password: PASSWORD } });
  expect(login.status(), await login.text()).toBe(200);
  const { user, token } = (await login.json()) as { user: Omit<SignedInUser, 'token'>; token: string };
  await page.addInitScript(
    ({ user, token }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('reelsmith-auth', JSON.stringify({ state: { user, token, apiKey: null, isAuthenticated: true }, version: 0 }));
    },
    { user, token },
  );
  return { ...user, token };
}

export const bearer = (user: SignedInUser) => ({ Authorization: `Bearer ${user.token}` });

/**
 * Buys a plan for the account of `token` through the test checkout, as the pricing dialog does:
 * create the order, pay it, verify the payment. `origin` prefixes the paths for a request context
 * without the studio as its base URL (the extension's, a partner page's).
 */
export async function subscribeThroughTestCheckout(
  request: APIRequestContext,
  token: string,
  options: { planId?: string; origin?: string } = {},
): Promise<void> {
  const { planId = 'pro_plan', origin = '' } = options;
  const headers = { Authorization: `Bearer ${token}` };
  const order = await request.post(`${origin}/payments/create-order`, { headers, data: { planId, currency: 'INR' } });
  expect(order.ok(), await order.text()).toBe(true);
  const created = (await order.json()) as { requiresPayment: boolean; order: { orderId: string } };
  expect(created.requiresPayment).toBe(true);
  const paid = await request.post(`${origin}/payments/test-checkout/pay`, {
    headers,
    data: { orderId: created.order.orderId, outcome: 'success' },
  });
  expect(paid.ok(), await paid.text()).toBe(true);
  const payment = (await paid.json()) as { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string };
  const verified = await request.post(`${origin}/payments/verify-payment`, {
    headers,
    data: {
      orderId: payment.razorpay_order_id,
      paymentId: payment.razorpay_payment_id,
      signature: payment.razorpay_signature,
      planId,
      currency: 'INR',
    },
  });
  expect(verified.ok(), await verified.text()).toBe(true);
}
