import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import type { ESLint, Linter } from 'eslint';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/**
 * The layers of the brief, checked on every `npm test`:
 *   contracts ← pipeline ← server;   contracts ← studio ← src/* (web, popup, side panel, worker).
 * Each package is imported through the entry points its package.json `exports` lists, never by file.
 */

const PACKAGES = ['contracts', 'pipeline', 'server', 'studio', 'sdk', 'mcp'] as const;
/** Tests and what only they use: they may import the root's devDependencies (vitest, testing-library, fakes). */
const TEST_FILES = ['**/*.test.ts', '**/*.test.tsx', '**/testing/**', '**/*-test-*.ts', '**/*-test-*.tsx'];
type PackageName = (typeof PACKAGES)[number];

const DEEP_IMPORT = {
  group: [
    '@reelsmith/*/**',
    '!@reelsmith/server/testing',
    '!@reelsmith/pipeline/testing',
    '!@reelsmith/sdk/embed',
    '!@reelsmith/studio/embed',
    '!@reelsmith/studio/api-client',
    '!@reelsmith/studio/popup',
    '!@reelsmith/studio/sign-in',
    '!@reelsmith/studio/caption-style-picker',
  ],
  message: 'Import a package through the entry points its package.json "exports" lists, not one of its files.',
};

/** import-x/no-extraneous-dependencies against the package.json files in `dirs` (devDependencies only where `dev`). */
function declaredDependencies(dirs: string[], dev: boolean): Linter.RulesRecord {
  return { 'import-x/no-extraneous-dependencies': ['error', { packageDir: dirs, devDependencies: dev }] };
}

/** no-restricted-imports for code that may use only `allowed` of our packages. */
function onlyPackages(allowed: readonly PackageName[], why: string): Linter.RulesRecord {
  const forbidden = PACKAGES.filter((name) => !allowed.includes(name));
  return {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...(forbidden.length
            ? [{ group: forbidden.flatMap((name) => [`@reelsmith/${name}`, `@reelsmith/${name}/**`]), message: why }]
            : []),
          DEEP_IMPORT,
        ],
      },
    ],
  };
}

export default defineConfig(
  { ignores: ['dist/**', 'packages/*/dist/**', 'test-results/**', 'playwright-report/**', '**/node_modules/**', 'public/**'] },
  tseslint.configs.recommended,
  {
    // Typed linting: each file is linted with the program of its nearest tsconfig.json; the bench
    // scripts outside packages/pipeline/bench/tsconfig.json belong to none (the type check leaves
    // them out), so they get a default program.
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['packages/server/bench/*.ts', 'packages/pipeline/bench/{picture,quality,render}-bench.ts'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A promise nobody awaits loses its rejection; `void` marks the few that are meant to run on their own.
      '@typescript-eslint/no-floating-promises': 'error',
      // React ignores what an event handler returns, so an async handler in a JSX attribute is fine; it catches its own failures.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      // A switch over a union names every member (or has a default): a member added to the union shows every switch to extend.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    rules: {
      // `_name` marks a binding kept for its position (a destructured field left out on purpose).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      ...onlyPackages(PACKAGES, ''),
      // A module names what it gives: `export *` hides the names from the reader and lets every new
      // export of the other module through unseen (the contracts' index test checks the same).
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ExportAllDeclaration',
          message: '`export *` hides which names a module gives: list them (`export { a, type B } from …`).',
        },
      ],
    },
  },
  {
    files: ['**/*.tsx', 'packages/studio/src/**/*.ts', 'src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks as unknown as ESLint.Plugin },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // A migration is written against the schema of its day, not today's Database type (Kysely's advice).
    files: ['packages/server/src/db/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['packages/contracts/src/**'],
    rules: onlyPackages([], 'The contracts package is the bottom layer: it imports nothing of ours.'),
  },
  {
    files: ['packages/pipeline/src/**'],
    rules: onlyPackages(['contracts'], 'The pipeline builds on the contracts only.'),
  },
  {
    files: ['packages/server/src/**'],
    // The server mounts the MCP server at /mcp; the MCP server reaches the product through the SDK only.
    rules: onlyPackages(['contracts', 'pipeline', 'server', 'mcp'], 'The server never imports the studio (UI) or the SDK.'),
  },
  {
    files: ['packages/sdk/src/**'],
    rules: onlyPackages(['contracts'], 'The SDK is published on its own: it builds on the contracts only.'),
  },
  {
    files: ['packages/mcp/src/**'],
    rules: onlyPackages(
      ['contracts', 'sdk'],
      'The MCP server calls the product only through its HTTP API (the SDK), never the server, pipeline or studio.',
    ),
  },
  {
    files: ['packages/studio/src/**'],
    rules: {
      ...onlyPackages(
        ['contracts', 'studio'],
        'The studio (shared UI) runs in the browser and the extension: it never imports the server or the pipeline.',
      ),
      // Platform code (src/web, src/popup, src/sidepanel) implements the studio's small interfaces.
      'no-restricted-globals': [
        'error',
        { name: 'chrome', message: 'The studio never touches chrome.*: take it through the Platform interface.' },
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'window',
          property: 'location',
          message: 'The studio never reads window.location: use Platform.navigation or the router.',
        },
        { object: 'globalThis', property: 'chrome', message: 'The studio never touches chrome.*: take it through the Platform interface.' },
      ],
    },
  },
  {
    files: ['src/**'],
    rules: onlyPackages(
      ['contracts', 'studio', 'sdk'],
      'The web and extension entries build on the studio and the contracts, never on the server or the pipeline.',
    ),
  },
  {
    // Circles between files (type-only imports included) and between folders are the folder-layers
    // check's (scripts/folder-layers.ts): it reads every import once instead of resolving each in
    // every file, which is what made import-x/no-cycle the slowest rule here.
    plugins: { 'import-x': importX as never },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx'],
    },
    // Code imports only what the package.json above it declares; tests, tools and configs may also use the root's devDependencies.
    rules: declaredDependencies([import.meta.dirname], true),
  },
  ...PACKAGES.map((name) => ({
    files: [`packages/${name}/src/**`],
    ignores: TEST_FILES,
    rules: declaredDependencies([`${import.meta.dirname}/packages/${name}`], false),
  })),
  ...PACKAGES.map((name) => ({
    files: TEST_FILES.map((pattern) => `packages/${name}/src/${pattern}`),
    rules: declaredDependencies([`${import.meta.dirname}/packages/${name}`, import.meta.dirname], true),
  })),
  { files: ['src/**'], ignores: TEST_FILES, rules: declaredDependencies([import.meta.dirname], false) },
);
