import { existsSync } from 'node:fs';

/** The end-to-end suite drives Debian's Chromium; Playwright's own browser download is not used. */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((p): p is string => Boolean(p));
  const found = candidates.find((p) => existsSync(p));
  if (!found) {
    throw new Error(
      'Chromium was not found. Install it with `sudo apt-get install -y chromium`, or set CHROMIUM_PATH to a Chromium binary.',
    );
  }
  return found;
}

/** Flags for a sandboxed CI machine with no outside network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
];
