import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, chromiumPath } from './chromium.js';
import { fakePublishingEnv } from '../../packages/server/src/testing/fake-publishing-platforms.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const port = Number(process.env.E2E_PORT ?? 8181);
/** The fakes of Google + YouTube, TikTok and Instagram (publishing.spec.ts) on this port and the two after it. */
const publishingPort = port + 1100;
// Workers re-evaluate this file; the environment carries the first evaluation's folder to them.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'reelsmith-e2e-'));
export const E2E_ADMIN_EMAIL = 'admin@e2e.reelsmith.test';
/** A second admin for admin-users.spec.ts, so its sign-up never collides with auth.spec.ts's. */
export const E2E_OPS_ADMIN_EMAIL = 'ops@e2e.reelsmith.test';
/** The accessibility spec's admin: its own account, so auth.spec's admin sign-up is the first. */
export const E2E_A11Y_ADMIN_EMAIL = 'a11y-admin@e2e.reelsmith.test';
/** library.spec.ts's admin, who suspends a creator there. */
export const E2E_LIBRARY_ADMIN_EMAIL = 'library-admin@e2e.reelsmith.test';

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  // A real SMTP server for account e-mail (verification, password reset); see mailbox.ts.
  globalSetup: './mailbox.ts',
  outputDir: join(root, 'test-results'),
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
    screenshot: 'only-on-failure',
    viewport: { width: 1280, height: 800 },
  },
  webServer: [
    {
      command: `node --import tsx packages/server/src/testing/fake-publishing-main.ts`,
      cwd: root,
      url: `http://127.0.0.1:${publishingPort}/__health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { FAKE_PUBLISHING_PORT: String(publishingPort) },
    },
    {
      // The compiled server, as `npm start` runs it (scripts/node-bundle.mjs builds it when stale).
      command: `node scripts/run-server.mjs main`,
      cwd: root,
      url: `http://127.0.0.1:${port}/ready`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: process.env.E2E_DATA_DIR,
        ADMIN_EMAILS: `${E2E_ADMIN_EMAIL},${E2E_OPS_ADMIN_EMAIL},${E2E_A11Y_ADMIN_EMAIL},${E2E_LIBRARY_ADMIN_EMAIL}`,
        LOG_LEVEL: 'warn',
        // The embed spec's partner page (another port, so another origin).
        EMBED_ALLOWED_ORIGINS: `http://127.0.0.1:${Number(process.env.E2E_PARTNER_PORT ?? port + 10)}`,
        // Every sign-in of the whole suite comes from 127.0.0.1: one address's per-minute limit would be the suite's.
        RATE_LIMIT_AUTH_MAX: '1000',
        SMTP_URL: `smtp://127.0.0.1:${port + 1000}`,
        MAIL_FROM: 'Reelsmith <no-reply@e2e.reelsmith.test>',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        // The source specs make videos from pages served on this machine (127.0.0.1), which the address guard refuses otherwise.
        SOURCE_ALLOW_PRIVATE: 'true',
        // The example videos cost three renders of CPU; gallery.spec.ts runs a server of its own that makes them.
        GALLERY_EXAMPLES: 'off',
        // The suite never reaches Wikimedia (research.spec.ts runs a server of its own against the fake).
        RESEARCH_PROVIDER: 'off',
        // The suite never fetches the natural voices' model (326 MB from Hugging Face): their voices narrate with espeak-ng.
        VOICE_MODEL_URL: 'off',
        // A fresh install narrates with the natural voices (espeak-ng speaks for them without the model); the
        // suite walks espeak-ng's own voices and their previews, which it can make here.
        VOICE_PROVIDER: 'offline',
        // Publishing goes to the local fakes (publishing.spec.ts connects YouTube through the fake's consent page).
        ...fakePublishingEnv(publishingPort),
      },
    },
  ],
});
