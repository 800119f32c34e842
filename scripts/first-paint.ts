// What both builds write into their pages' empty #root, so a page shows before its JavaScript arrives: the markup comes from
// scripts/prerender-first-paint.mjs, run as its own process because a second Vite instance inside
// a build would share the build's plugin state.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./prerender-first-paint.mjs', import.meta.url));
const EMPTY_ROOT = '<div id="root"></div>';

/** index.html's first paint ('page': the visitor's studio and the splash), or the splash alone. */
export function renderFirstPaint(kind: 'page' | 'splash'): string {
  return execFileSync(process.execPath, kind === 'splash' ? [script, '--splash'] : [script], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
}

/** `html` with `markup` inside its empty #root; a page without one fails the build. */
export function fillRoot(html: string, markup: string, page: string): string {
  if (!html.includes(EMPTY_ROOT)) throw new Error(`${page} has no empty ${EMPTY_ROOT} for its first paint`);
  return html.replace(EMPTY_ROOT, `<div id="root">${markup}</div>`);
}
