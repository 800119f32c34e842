import { defineConfig } from 'vitest/config';

/**
 * Test files that measure wall-clock time against a bound (the event loop answering within 1 s while
 * untrusted input is processed, a budget of seconds against a baseline run, a worker's grace period).
 * They run after the others, one file at a time, so another file's renders never eat into their bounds.
 */
const TIMED_FILES = [
  'tests/integration/server-untrusted-input.test.ts',
  'tests/integration/server-sources.test.ts',
  'tests/integration/server-research.test.ts',
  'tests/integration/server-drain.test.ts',
  'tests/integration/server-storyboard.test.ts',
  'tests/integration/server-account-security.test.ts',
  'tests/integration/webhooks-limits.test.ts',
  'tests/integration/batches.test.ts',
  'packages/server/src/storyboard/svg-logo.test.ts',
  'packages/server/src/sources/resolve-source.test.ts',
  'packages/pipeline/src/story/told-apart.test.ts',
  'packages/pipeline/src/sandbox/worker-pool.test.ts',
  'packages/pipeline/src/providers/http.test.ts',
];

/**
 * Unit tests sit beside the code (the repository's tools in scripts/ too); integration tests live in tests/integration.
 * React component tests opt into jsdom with a `// @vitest-environment jsdom` first line.
 * tests/e2e is Playwright's, not vitest's.
 *
 * Vitest's default is one worker less than the cores: one on this 2-core machine kind, so the suite ran
 * file after file while most files wait on servers, databases and child processes. With two workers, and the
 * timed files one at a time after them, the unit run took 583 s here instead of 822 s (all 232 files passing).
 */
export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', 'dist/**', 'tests/e2e/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // In CI a missing Redis fails the run instead of skipping the scale-mode suites.
    globalSetup: ['tests/integration/require-scale-services.ts'],
    // Tests never reach Wikimedia: a test that exercises research points the pipeline at the fake itself.
    env: { RESEARCH_PROVIDER: 'off' },
    projects: [
      {
        extends: true,
        test: {
          name: 'parallel',
          include: [
            'packages/*/src/**/*.test.{ts,tsx}',
            'src/**/*.test.{ts,tsx}',
            'scripts/**/*.test.ts',
            'tests/integration/**/*.test.ts',
          ],
          exclude: ['**/node_modules/**', 'dist/**', 'tests/e2e/**', ...TIMED_FILES],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'timed',
          include: TIMED_FILES,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
