/**
 * `npm run package:extension`: zips dist/extension into dist/reelsmith-extension.zip, the file a
 * Chrome Web Store upload takes. Source maps, tests and dotfiles stay out, and the development
 * `key` is removed from the manifest (the store assigns the published id).
 * Build first (npm run build:extension with the production VITE_API_BASE_URL).
 */
import { zipSync, type Zippable } from 'fflate';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Files a store package never carries. */
export function isShippable(path: string): boolean {
  const name = path.split('/').pop() ?? path;
  if (name.startsWith('.')) return false;
  if (/\.map$/.test(name)) return false;
  if (/\.(test|spec)\.[cm]?[jt]sx?$/.test(name)) return false;
  return true;
}

/** The manifest as the store wants it: without the unpacked-development key. */
export function storeManifest(text: string): string {
  const manifest = JSON.parse(text) as Record<string, unknown>;
  delete manifest.key;
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = join(dir, entry);
    return statSync(full).isDirectory() ? listFiles(full) : [full];
  });
}

export function packageExtension(sourceDir: string, outFile: string): { files: string[]; bytes: number } {
  if (!existsSync(join(sourceDir, 'manifest.json'))) {
    throw new Error(`${sourceDir}/manifest.json is missing: run npm run build:extension first`);
  }
  const entries: Zippable = {};
  const files: string[] = [];
  for (const full of listFiles(sourceDir).sort()) {
    const path = relative(sourceDir, full).split(sep).join('/');
    if (!isShippable(path)) continue;
    const content = path === 'manifest.json' ? Buffer.from(storeManifest(readFileSync(full, 'utf8'))) : readFileSync(full);
    // PNGs are compressed already; storing them keeps the zip quick to build and read.
    entries[path] = [new Uint8Array(content), { level: /\.(png|jpe?g|webp|woff2?)$/i.test(path) ? 0 : 9 }];
    files.push(path);
  }
  const zip = zipSync(entries, { mtime: new Date('2026-01-01T00:00:00Z') });
  writeFileSync(outFile, zip);
  return { files, bytes: zip.byteLength };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const source = process.argv[2] ?? join(root, 'dist/extension');
  const out = process.argv[3] ?? join(root, 'dist/reelsmith-extension.zip');
  const { files, bytes } = packageExtension(source, out);
  console.log(`Wrote ${relative(root, out)}: ${files.length} files, ${(bytes / 1024).toFixed(1)} KiB`);
}
