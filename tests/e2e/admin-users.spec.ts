import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { mailedLink } from './mailbox.js';
import { E2E_OPS_ADMIN_EMAIL } from './playwright.config.js';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const SCREENSHOTS = join(process.cwd(), 'test-results', 'admin-screenshots');
const PHONE = { width: 390, height: 844 };

async function signUpAndIn(page: Page, name: string, email: string, password: string, options: { verifyEmail?: boolean } = {}) {
  await page.goto('/login');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByLabel('Full Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Account created successfully!')).toBeVisible();
  if (options.verifyEmail) {
    // ADMIN_EMAILS applies to a verified address only: open the mailed link first.
    await page.goto(await mailedLink(email, '/verify-email'));
    await expect(page.getByText('Your e-mail address is verified.')).toBeVisible();
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
  }
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByText(`Welcome back, ${name}!`)).toBeVisible();
}

async function shoot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

test('an admin finds a creator, suspends them with a reason, sees it in the audit log, and the creator is signed out', async ({
  browser,
}) => {
  const creatorEmail = `creator-${unique()}@example.com`;
  const creatorContext = await browser.newContext();
  const creator = await creatorContext.newPage();
  await signUpAndIn(creator, 'Meera Nair', creatorEmail, 'creator-password');
  await expect(creator.getByRole('navigation').getByRole('link', { name: 'My Videos' })).toBeVisible();

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signUpAndIn(admin, 'Ops Admin', E2E_OPS_ADMIN_EMAIL, 'ops-admin-password', { verifyEmail: true });
  await admin.getByRole('navigation').getByRole('link', { name: 'User Management' }).click();
  await expect(admin).toHaveTitle(/User Management/);
  await expect(admin.getByText(/^\d+ users?$/)).toBeVisible();
  await shoot(admin, 'users-desktop');

  await admin.getByLabel('Search').fill(creatorEmail.slice(0, 14));
  await expect(admin.getByText('1 user', { exact: true })).toBeVisible();
  await admin.getByRole('button', { name: `Open Meera Nair (${creatorEmail})` }).click();
  await expect(admin.getByRole('heading', { name: 'Meera Nair' })).toBeVisible();
  await expect(admin.getByText('1 active session')).toBeVisible();
  await shoot(admin, 'user-detail-desktop');

  await admin.getByRole('button', { name: 'Suspend' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Suspend Meera Nair?' });
  await expect(dialog).toBeVisible();
  // No reason, no action.
  await dialog.getByRole('button', { name: 'Suspend' }).click();
  await expect(dialog.getByText(/Give a reason for this action/)).toBeVisible();
  await dialog.getByLabel('Reason (kept in the audit log)').fill('Chargeback fraud reported by the bank');
  await shoot(admin, 'suspend-dialog-desktop');
  await dialog.getByRole('button', { name: 'Suspend' }).click();
  await expect(admin.getByText(`${creatorEmail} is suspended and signed out everywhere.`)).toBeVisible();
  await expect(admin.getByText('Reason: Chargeback fraud reported by the bank')).toBeVisible();

  // The creator's open studio is signed out at once (its socket was closed by the server).
  await expect(creator.getByRole('navigation').getByRole('link', { name: 'My Videos' })).toHaveCount(0, { timeout: 10_000 });
  expect(await creator.evaluate(() => localStorage.getItem('token'))).toBeNull();
  // And signing in again is refused with a clear message.
  await creator.goto('/login');
  await creator.getByLabel('Email').fill(creatorEmail);
  await creator.getByLabel('Password', { exact: true }).fill('creator-password');
  await creator.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(creator.getByText('This account is suspended. Contact support if you think this is a mistake.').first()).toBeVisible();

  await admin.goto('/admin/audit');
  await expect(admin).toHaveTitle(/Audit Log/);
  const row = admin.getByRole('row').filter({ hasText: creatorEmail });
  await expect(row).toContainText('Suspended');
  await expect(row).toContainText('Chargeback fraud reported by the bank');
  await expect(row).toContainText(E2E_OPS_ADMIN_EMAIL);
  await shoot(admin, 'audit-desktop');

  await admin.setViewportSize(PHONE);
  await shoot(admin, 'audit-phone');
  await admin.goto('/admin/users');
  await expect(admin.getByText(/^\d+ users?$/)).toBeVisible();
  await shoot(admin, 'users-phone');
  await admin.getByRole('button', { name: `Open Meera Nair (${creatorEmail})` }).click();
  await expect(admin.getByRole('button', { name: 'Reactivate' })).toBeVisible();
  await shoot(admin, 'user-detail-phone');

  await creatorContext.close();
  await adminContext.close();
});

test('System Health shows real figures for every part', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(E2E_OPS_ADMIN_EMAIL);
  await page.getByLabel('Password', { exact: true }).fill('ops-admin-password');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.getByRole('navigation').getByRole('link', { name: 'System Health' }).click();
  await expect(page).toHaveTitle(/System Health/);

  const card = (name: string) => page.getByRole('region', { name, exact: true });
  await expect(card('Database')).toContainText('SQLite');
  await expect(card('Database')).toContainText(/\d+ of \d+/);
  await expect(card('Queue')).toContainText('Embedded');
  await expect(card('Workers')).toContainText('running');
  await expect(card('ffmpeg')).toContainText(/Version\s*\d/);
  await expect(card('Disk (DATA_DIR)')).toContainText(/\d+(\.\d)? GB free of/);
  await expect(card('Storage')).toContainText('Local files');
  await expect(card('Providers')).toContainText('offline');
  await expect(card('Database').getByRole('img', { name: /Last hour: latency, ms/ })).toBeVisible();
  await shoot(page, 'health-desktop');
  await page.setViewportSize(PHONE);
  await shoot(page, 'health-phone');
});
