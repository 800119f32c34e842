import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- the repository's plain ES module script, typed by use
import { ensureBundles, root } from './node-bundle.mjs';

/**
 * The server's bundle is rebuilt when a source's content changes, whatever its modification time: a
 * file copied in with an older time (a checkout, `cp -p`, an archive) must not leave stale code running.
 */
describe('ensureBundles', () => {
  const dir = join(root as string, 'node_modules/.cache', `node-bundle-test-${process.pid}`);
  const source = join(dir, 'entry.ts');
  const entries = { entry: relative(root as string, source) };
  const outDir = relative(root as string, join(dir, 'dist'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const load = async (version: number) => {
    const bundles = (await ensureBundles(entries, outDir)) as { entry: string };
    return ((await import(`${bundles.entry}?v=${version}`)) as { value: number }).value;
  };

  it('rebuilds when a source changes to an older modification time, and not when nothing changed', async () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(source, 'export const value: number = 1;\n');
    expect(await load(1)).toBe(1);

    writeFileSync(source, 'export const value: number = 2;\n');
    const old = new Date('2001-01-01T00:00:00Z');
    utimesSync(source, old, old);
    expect(await load(2)).toBe(2);

    // Touched without a change of content: the bundle is kept (its file is not rewritten).
    const bundle = join(dir, 'dist', 'entry.mjs');
    writeFileSync(bundle, 'export const value = 3;\n');
    utimesSync(source, new Date(), new Date());
    expect(await load(3)).toBe(3);
  }, 60_000);
});
