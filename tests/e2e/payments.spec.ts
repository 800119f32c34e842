import { expect, test, type Page } from '@playwright/test';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

// An Indian browser (no GeoIP match for 127.0.0.1, so the time zone decides): INR prices with GST.
test.use({ timezoneId: 'Asia/Kolkata', locale: 'en-IN' });

async function signUpAndIn(page: Page, name: string, email: string, password: string) {
  await page.goto('/login');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByLabel('Full Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Account created successfully!')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByText(`Welcome back, ${name}!`)).toBeVisible();
}

/** The end date as the studio shows it (en-US short date in the browser's time zone). */
async function shownEndDate(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const response = await fetch('/payments/subscription', { headers: { authorization: `Bearer ${localStorage.getItem('token')}` } });
    const { subscription } = (await response.json()) as { subscription: { endDate: string } };
    return new Date(subscription.endDate).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
  });
}

test('a creator buys a plan through the TEST MODE checkout, then cancels it in Settings', async ({ page }) => {
  await signUpAndIn(page, 'Kavya Iyer', `buyer-${unique()}@example.com`, 'correct-horse');
  await expect(page.getByRole('button', { name: 'Upgrade Plan' })).toBeVisible();

  await page.goto('/pricing');
  await expect(page.getByRole('heading', { name: 'Choose Your Perfect Plan' })).toBeVisible();
  await expect(page.getByText('Prices in Indian Rupees (₹)')).toBeVisible();
  await expect(page.getByText('*Exclusive of taxes')).toBeVisible();
  const starter = page.getByRole('article', { name: 'Starter plan' });
  await expect(starter.getByText('₹499')).toBeVisible();

  // The card shows GST and the total before checkout; the summary is confirmed in the product's dialog, not the browser's.
  await expect(starter.getByText('+ GST (18%) ₹89.82')).toBeVisible();
  await expect(starter.getByText('Total ₹588.82/month')).toBeVisible();
  const browserDialogs: string[] = [];
  page.on('dialog', (dialog) => {
    browserDialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await starter.getByRole('button', { name: 'Choose Starter' }).click();
  const question = page.getByRole('dialog', { name: 'Confirm payment' });
  await expect(question).toContainText('GST (18%): ₹89.82');
  await expect(question).toContainText('Total: ₹588.82');
  await question.getByRole('button', { name: 'Proceed to payment' }).click();

  const checkout = page.getByRole('dialog', { name: 'Test checkout' });
  await expect(checkout).toBeVisible();
  await expect(checkout.getByText('TEST MODE')).toBeVisible();
  await expect(checkout.getByText('₹588.82')).toBeVisible();
  expect(browserDialogs).toEqual([]);
  await checkout.getByRole('button', { name: 'Pay successfully' }).click();

  await expect(page.getByText('Payment successful! Your subscription is now active.')).toBeVisible();
  // Back in the studio: the plan chip and this month's usage.
  await expect(page).toHaveURL(/\/$/);
  const planArea = page.getByRole('region', { name: 'Your plan' });
  await expect(planArea.getByText('Starter', { exact: true })).toBeVisible();
  await expect(planArea.getByLabel('Videos used this month')).toContainText('/ 30');
  await expect(planArea.getByRole('button', { name: 'Manage Plan' })).toBeVisible();

  await page.goto('/pricing');
  await expect(page.getByRole('article', { name: 'Starter plan' }).getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  await expect(page.getByRole('article', { name: 'Starter plan' }).getByText('Active', { exact: true })).toBeVisible();
  await expect(
    page.getByRole('article', { name: 'Essentials plan' }).getByRole('button', { name: 'Downgrade Not Allowed' }),
  ).toBeDisabled();

  // Cancel in Settings > Preferences > Danger Zone.
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Preferences' }).click();
  await page.getByRole('button', { name: 'Cancel Subscription' }).click();
  const cancelDialog = page.getByRole('dialog', { name: 'Cancel Subscription' });
  await expect(cancelDialog.getByRole('button', { name: 'Confirm Cancellation' })).toBeDisabled();
  await cancelDialog.getByLabel('Reason for cancellation').fill('Testing the cancellation');
  await cancelDialog.getByRole('button', { name: 'Confirm Cancellation' }).click();
  await expect(page.getByText('Subscription cancelled successfully.', { exact: false })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel Subscription' })).toHaveCount(0);

  const endDate = await shownEndDate(page);
  await page.goto('/');
  await expect(page.getByText(`Cancelled - Access until ${endDate}`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reactivate Plan' })).toBeVisible();
  await page.goto('/pricing');
  await expect(page.getByText(`Cancelled - Valid until ${endDate}`)).toBeVisible();
  await expect(page.getByRole('article', { name: 'Starter plan' }).getByRole('button', { name: 'Reactivate Plan' })).toBeEnabled();
});

test('a failed test payment activates nothing', async ({ page }) => {
  await signUpAndIn(page, 'Arjun Rao', `failing-${unique()}@example.com`, 'correct-horse');
  await page.goto('/pricing');
  await page.getByRole('button', { name: 'Choose Essentials' }).click();
  await page.getByRole('dialog', { name: 'Confirm payment' }).getByRole('button', { name: 'Proceed to payment' }).click();
  const checkout = page.getByRole('dialog', { name: 'Test checkout' });
  await checkout.getByRole('button', { name: 'Fail payment' }).click();
  await expect(checkout.getByRole('alert')).toContainText('TEST MODE: the payment failed');
  await page.keyboard.press('Escape');
  await expect(checkout).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Choose Essentials' })).toBeEnabled();
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Upgrade Plan' })).toBeVisible();
});
