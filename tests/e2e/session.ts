import { expect, type Page } from '@playwright/test';
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
