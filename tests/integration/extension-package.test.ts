import { unzipSync } from 'fflate';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isShippable, packageExtension } from '../../scripts/package-extension.js';

describe('package-extension', () => {
  it('zips the build without maps, tests or the development key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-pack-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ manifest_version: 3, name: 'Reelsmith', key: 'dev-key' }));
    writeFileSync(join(dir, 'assets/app.js'), 'console.log(1)');
    writeFileSync(join(dir, 'assets/app.js.map'), '{}');
    writeFileSync(join(dir, 'assets/app.test.js'), '');
    writeFileSync(join(dir, '.DS_Store'), '');
    const out = join(dir, '..', `${Date.now()}-ext.zip`);
    const { files } = packageExtension(dir, out);
    expect(files).toEqual(['assets/app.js', 'manifest.json']);
    const unzipped = unzipSync(new Uint8Array(readFileSync(out)));
    expect(Object.keys(unzipped).sort()).toEqual(['assets/app.js', 'manifest.json']);
    expect(JSON.parse(Buffer.from(unzipped['manifest.json']!).toString())).toEqual({ manifest_version: 3, name: 'Reelsmith' });
  });

  it('refuses a folder without a build', () => {
    expect(() => packageExtension(mkdtempSync(join(tmpdir(), 'rs-empty-')), '/tmp/never.zip')).toThrow(/build:extension/);
    expect(isShippable('src/popup/index.html')).toBe(true);
    expect(isShippable('assets/x.spec.ts')).toBe(false);
  });
});
