import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipBytes, pageScripts, POPUP_JS_BUDGET_BYTES } from '../../scripts/extension-bundle.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
let dist: string;

// A real build of the extension: the chunking that keeps the popup small is decided by the bundler.
beforeAll(() => {
  dist = mkdtempSync(join(tmpdir(), 'rs-extension-'));
  const build = spawnSync(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'vite.config.ts', '--logLevel', 'error'],
    {
      cwd: root,
      // As `npm run build` runs it: vitest's NODE_ENV=test would give React's development build.
      env: { ...process.env, NODE_ENV: 'production', EXTENSION_OUT_DIR: dist },
      encoding: 'utf8',
    },
  );
  if (build.status !== 0) throw new Error(`the extension build failed:\n${build.stderr}`);
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const workerEntry = () => {
  const loader = readFileSync(join(dist, 'service-worker-loader.js'), 'utf8');
  return /import\s*['"]\.\/([^'"]+)['"]/.exec(loader)![1]!;
};
const containsReact = (file: string) => readFileSync(join(dist, file), 'utf8').includes('react.transitional.element');

describe('the extension build', () => {
  it('keeps the popup within its JavaScript budget (101 KB gzip) in a handful of files', () => {
    const scripts = pageScripts(dist, 'popup');
    expect(gzipBytes(dist, scripts)).toBeLessThanOrEqual(POPUP_JS_BUDGET_BYTES);
    expect(scripts.length).toBeLessThanOrEqual(6);
    // No query cache in the popup: its requests are its own.
    expect(scripts.some((file) => readFileSync(join(dist, file), 'utf8').includes('QueryClient'))).toBe(false);
  });

  it('gives the background worker no React, and the side panel and options page none of the popup’s own code', () => {
    const worker = pageScripts(dist, workerEntry());
    expect(worker.length).toBeGreaterThan(1);
    expect(worker.filter(containsReact)).toEqual([]);
    const popupEntry = pageScripts(dist, 'popup')[0]!;
    expect(pageScripts(dist, 'sidepanel')).not.toContain(popupEntry);
    expect(pageScripts(dist, 'options')).not.toContain(popupEntry);
  });
});
