import { defineConfig } from 'vitest/config';

/**
 * Unit tests sit beside the code (the repository's tools in scripts/ too, a package's bench harnesses in its bench/);
 * integration tests live in tests/integration.
 * React component tests opt into jsdom with a `// @vitest-environment jsdom` first line.
 * tests/e2e is Playwright's, not vitest's.
 */
export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.{ts,tsx}',
      'packages/*/bench/**/*.test.ts',
      'src/**/*.test.{ts,tsx}',
      'scripts/**/*.test.ts',
      'tests/integration/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', 'dist/**', 'tests/e2e/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // In CI a missing Redis fails the run instead of skipping the scale-mode suites.
    globalSetup: ['tests/integration/require-scale-services.ts'],
    // Component tests wait 5 s, not 1 s, for what they find (a loaded CI machine).
    setupFiles: ['tests/setup/testing-library-timeout.ts'],
    // Tests never reach Wikimedia: a test that exercises research points the pipeline at the fake itself.
    // A server a test builds narrates with espeak-ng's voices unless the test names another provider
    // (the natural voices, the default of `npm start`, are tested with the tests' tiny model).
    env: { RESEARCH_PROVIDER: 'off', VOICE_PROVIDER: 'offline' },
  },
});
