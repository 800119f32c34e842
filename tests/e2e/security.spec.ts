import { expect, test, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mailedLink } from './mailbox.js';

const unique = (label: string) => `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@e2e.reelsmith.test`;

async function signUp(page: Page, name: string, email: string, password: string) {
  await page.goto('/login');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByLabel('Full Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Account created successfully!')).toBeVisible();
}

test('sign-up sends a verification link; opening it verifies the address once', async ({ page }) => {
  const email = unique('verify');
  await signUp(page, 'Vera Fied', email, 'first-password');
  await expect(page.getByText(`We sent a verification link to ${email}`)).toBeVisible();
  const link = await mailedLink(email, '/verify-email');
  await page.goto(link);
  await expect(page.getByRole('status')).toHaveText('Your e-mail address is verified.');
  // The link is single-use.
  await page.goto(link);
  await expect(page.getByRole('alert')).toContainText('invalid, used or expired');
});

test('"Forgot password?" on the Sign In tab mails a link that sets a new password', async ({ page }) => {
  const email = unique('forgot');
  await signUp(page, 'Fern Gotten', email, 'old-password');
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(/we sent it a link to reset the password/)).toBeVisible();

  await page.goto(await mailedLink(email, '/reset-password'));
  await page.getByLabel('New password', { exact: true }).fill('new-password-1');
  await page.getByLabel('Confirm new password').fill('new-password-2');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel('Confirm new password').fill('new-password-1');
  // Keys are revoked by default; keeping them is the opt-in.
  await expect(page.getByLabel(/Keep my API keys working/)).not.toBeChecked();
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText(/Your password was reset/)).toBeVisible();

  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('old-password');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('alert').first()).toContainText('Invalid email or password');
  await page.getByLabel('Password', { exact: true }).fill('new-password-1');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByText('Welcome back, Fern Gotten!')).toBeVisible();
});

test.describe('a production server without Razorpay keys', () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const port = Number(process.env.E2E_PORT ?? 8181) + 2;
  let server: ChildProcess;

  test.beforeAll(async () => {
    server = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
      cwd: root,
      stdio: 'ignore',
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'reelsmith-e2e-prod-')),
        // Production never generates the encryption key; the operator gives it.
        ENCRYPTION_KEY: 'e2e-production-encryption-key-0123456789',
        LOG_LEVEL: 'warn',
        GALLERY_EXAMPLES: 'off',
        RESEARCH_PROVIDER: 'off',
      },
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) break;
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) throw new Error('the production server did not start');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });
  test.afterAll(() => {
    server?.kill('SIGTERM');
  });

  test('says payments are not configured instead of activating plans for free', async ({ page }) => {
    await page.goto(`http://127.0.0.1:${port}/pricing`);
    await expect(page.getByRole('status').filter({ hasText: 'Payments are not configured' })).toBeVisible();
    for (const button of await page.getByRole('button', { name: /Get Started|Subscribe|Choose|Upgrade/i }).all())
      await expect(button).toBeDisabled();
  });
});
