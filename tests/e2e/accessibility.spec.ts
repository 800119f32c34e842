import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { E2E_A11Y_ADMIN_EMAIL } from './playwright.config.js';
import { signInThroughApi, uniqueId } from './session.js';

/**
 * axe-core on every page, signed out and signed in (a creator and an admin), at desktop and phone
 * size: no violation of WCAG 2.1 A/AA or axe's best practices may remain.
 */
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const SIGNED_OUT = ['/', '/pricing', '/login'];
const CREATOR = ['/', '/videos', '/settings', '/pricing'];
const ADMIN = ['/admin', '/admin/users', '/admin/health'];

async function expectNoViolations(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('.rs-splash')).toHaveCount(0);
  await page.locator('main, [role="main"], .rs-login').first().waitFor();
  // Let lazy pages and their first data settle.
  await page.waitForLoadState('networkidle');
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const summary = results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    targets: violation.nodes
      .slice(0, 5)
      .map((node) => `${node.target.join(' ')} :: ${node.failureSummary?.split('\n').slice(0, 2).join(' ')}`),
  }));
  expect.soft(summary, `${path}: ${JSON.stringify(summary, null, 2)}`).toEqual([]);
}

for (const viewport of VIEWPORTS) {
  test.describe(`accessibility at ${viewport.name} size`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('signed out pages have no axe violations', async ({ page }) => {
      for (const path of SIGNED_OUT) await expectNoViolations(page, path);
    });

    test("a creator's pages have no axe violations", async ({ page }) => {
      await signInThroughApi(page, `axe-${uniqueId()}@e2e.reelsmith.test`, 'Axe Creator');
      for (const path of CREATOR) await expectNoViolations(page, path);
    });

    test('the admin pages have no axe violations', async ({ page }) => {
      await signInThroughApi(page, E2E_A11Y_ADMIN_EMAIL, 'Axe Admin', { verifyEmail: true });
      for (const path of ADMIN) await expectNoViolations(page, path);
    });
  });
}

test('a skip link is the first Tab stop and moves focus to the main content', async ({ page }) => {
  await page.goto('/');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  // Before the app has started, the prerendered first paint is inert (a Tab lands on the browser):
  // wait until the app has replaced it.
  await expect(page.locator('.rs-prerender')).toHaveCount(0);
  await skip.waitFor({ state: 'attached' });
  await page.keyboard.press('Tab');
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();
});
