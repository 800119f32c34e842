import { expect, test, type Page } from '@playwright/test';
import { mailedLink } from './mailbox.js';
import { E2E_ADMIN_EMAIL } from './playwright.config.js';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function signUp(page: Page, name: string, email: string, password: string) {
  await page.goto('/login');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByLabel('Full Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await page.getByRole('button', { name: 'Create Account' }).click();
}

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

test('sign-up shows each validation message and blocks the call', async ({ page }) => {
  await page.goto('/login');
  await expect(page).toHaveTitle(/Login/);
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Name is required')).toBeVisible();
  await expect(page.getByText('Email is required')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeVisible();
  await expect(page.getByText('Please confirm your password')).toBeVisible();

  await page.getByLabel('Full Name').fill('A');
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel('Password', { exact: true }).fill('123');
  await page.getByLabel('Confirm Password').fill('1234');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Name must be at least 2 characters')).toBeVisible();
  await expect(page.getByText('Invalid email address')).toBeVisible();
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
});

test('a creator signs up, signs in, sees the greeting and menus, and logs out', async ({ page }) => {
  const email = `creator-${unique()}@example.com`;
  await signUp(page, 'Asha Verma', email, 'correct-horse');

  // Registration returns to Sign In with the e-mail prefilled and does not sign in.
  await expect(page.getByText('Account created successfully!')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Email')).toHaveValue(email);

  // A wrong password gets the one message that does not say which part was wrong.
  await page.getByLabel('Password', { exact: true }).fill('wrong-password');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid email or password' })).toBeVisible();

  await signIn(page, email, 'correct-horse');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Welcome back, Asha Verma!')).toBeVisible();
  await expect(page).toHaveTitle(/Video Studio/);

  const nav = page.getByRole('navigation');
  for (const item of ['Studio', 'My Videos', 'Batch', 'Pricing', 'Settings']) {
    await expect(nav.getByRole('link', { name: item })).toBeVisible();
  }
  await expect(nav.getByRole('link', { name: 'Admin Dashboard' })).toHaveCount(0);
  await expect(page.getByText(email).first()).toBeVisible();

  await nav.getByRole('link', { name: 'My Videos' }).click();
  await expect(page).toHaveTitle(/My Videos/);
  await page.goto('/no-such-page');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/$/);

  // The session survives a reload.
  await page.reload();
  await expect(page.getByText('Welcome back, Asha Verma!')).toBeVisible();

  await page.getByRole('button', { name: /account menu/i }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(
    page
      .getByRole('link', { name: 'Sign In' })
      .or(page.getByRole('button', { name: 'Sign In' }))
      .first(),
  ).toBeVisible();
  await expect(page.getByRole('navigation').getByRole('link', { name: 'My Videos' })).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('an admin sees the admin menu and its pages', async ({ page }) => {
  await signUp(page, 'Admin Person', E2E_ADMIN_EMAIL, 'admin-password');
  await expect(page.getByText('Account created successfully!')).toBeVisible();
  // ADMIN_EMAILS applies to a verified address only: open the mailed link first.
  await page.goto(await mailedLink(E2E_ADMIN_EMAIL, '/verify-email'));
  await expect(page.getByText('Your e-mail address is verified.')).toBeVisible();
  await page.goto('/login');
  await signIn(page, E2E_ADMIN_EMAIL, 'admin-password');
  const nav = page.getByRole('navigation');
  await expect(nav.getByRole('link', { name: 'Admin Dashboard' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'User Management' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'System Health' })).toBeVisible();
  await nav.getByRole('link', { name: 'Admin Dashboard' }).click();
  await expect(page).toHaveTitle(/Admin Dashboard/);
  // The dashboard reads the real server: offline providers, a running queue, this tab's socket.
  await expect(page.getByText('Healthy', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('Running', { exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Voice Providers' }).click();
  await expect(page.getByText('Voice samples', { exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Queue Management' }).click();
  await expect(page.getByText(/Success rate/i).first()).toBeVisible();
});

test('a visitor sees the studio, pricing and the legal pages', async ({ page, context }) => {
  await page.goto('/somewhere-unknown');
  await expect(page).toHaveTitle(/Video Studio/);
  const nav = page.getByRole('navigation');
  await expect(nav.getByRole('link', { name: 'Studio' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Pricing' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'My Videos' })).toHaveCount(0);

  const [terms] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: 'Terms & Conditions' }).click()]);
  await terms.waitForLoadState();
  await expect(terms.locator('h1')).toContainText(/Terms/);
});
