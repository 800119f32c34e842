import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The popup's JavaScript budget, gzip-compressed: what it loads before its first frame. 101 KB since
 * the web's first load stopped fetching the lazily loaded half of the route table (the gallery and
 * API-key routes joined the first half, which the popup shares) and results gained the post kit and
 * Wikipedia credits: 100.6 KB measured when it was raised from 100 KB.
 */
export const POPUP_JS_BUDGET_BYTES = 101 * 1024;

/**
 * The JavaScript files an extension page loads before its first frame: the scripts and module
 * preloads in its HTML, and every file they import statically (a dynamic import loads later).
 * `page` is a folder under src/ with an index.html, or the worker's entry file.
 */
export function pageScripts(dist: string, page: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(join(dist, file), 'utf8');
    for (const match of source.matchAll(/(?:from\s*|import\s*)["']([^"']+\.js)["']/g)) {
      const target = match[1]!;
      visit(target.startsWith('/') ? target.slice(1) : join(file, '..', target));
    }
  };
  if (page.endsWith('.js')) {
    visit(page);
  } else {
    const html = readFileSync(join(dist, 'src', page, 'index.html'), 'utf8');
    for (const match of html.matchAll(/<script[^>]+src="([^"]+)"/g)) visit(match[1]!.replace(/^\//, ''));
    for (const match of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)) visit(match[1]!.replace(/^\//, ''));
  }
  return [...seen];
}

/** The gzip size of those files, each compressed alone as it would be sent. */
export function gzipBytes(dist: string, files: string[]): number {
  return files.reduce((sum, file) => sum + gzipSync(readFileSync(join(dist, file))).length, 0);
}
