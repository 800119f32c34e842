/**
 * Chrome Web Store assets from the real UI: `npm run store:screenshots` writes
 *   store-assets/promo-small-440x280.png   the small promo tile (drawn with @napi-rs/canvas)
 *   store-assets/screenshot-1-popup.png    1280x800: the toolbar popup generating a video
 *   store-assets/screenshot-2-side-panel.png 1280x800: the side panel studio
 * It starts a throw-away server (temporary DATA_DIR), builds the extension against it, loads the
 * build into Chromium and signs a demo account in. `--promo-only` skips the browser part;
 * `--server http://host:port` uses a running server instead of starting one.
 */
import { createCanvas, loadImage, type SKRSContext2D } from '@napi-rs/canvas';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, chromiumPath } from '../tests/e2e/chromium.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, 'store-assets');
const SCREEN = { width: 1280, height: 800 } as const;
const BRAND = { from: '#8b5cf6', mid: '#d946ef', to: '#ec4899', ink: '#0d0c16' } as const;

function background(ctx: SKRSContext2D, width: number, height: number): void {
  ctx.fillStyle = BRAND.ink;
  ctx.fillRect(0, 0, width, height);
  const glow = ctx.createRadialGradient(width * 0.8, height * 0.2, 10, width * 0.8, height * 0.2, width * 0.8);
  glow.addColorStop(0, 'rgba(217, 70, 239, 0.45)');
  glow.addColorStop(1, 'rgba(13, 12, 22, 0)');
  ctx.fillStyle = glow;
  ctx.fillRect(0, 0, width, height);
}

function gradientText(ctx: SKRSContext2D, text: string, x: number, y: number, width: number): void {
  const gradient = ctx.createLinearGradient(x, y, x + width, y);
  gradient.addColorStop(0, BRAND.from);
  gradient.addColorStop(0.55, BRAND.mid);
  gradient.addColorStop(1, BRAND.to);
  ctx.fillStyle = gradient;
  ctx.fillText(text, x, y);
}

export async function drawPromoTile(): Promise<Buffer> {
  const canvas = createCanvas(440, 280);
  const ctx = canvas.getContext('2d');
  background(ctx, 440, 280);
  const icon = await loadImage(readFileSync(join(outDir, 'icons/icon-128.png')));
  ctx.drawImage(icon, 32, 76, 128, 128);
  ctx.font = 'bold 44px "Noto Sans", sans-serif';
  gradientText(ctx, 'Reelsmith', 180, 132, 230);
  ctx.fillStyle = '#f3f1ff';
  ctx.font = '19px "Noto Sans", sans-serif';
  ctx.fillText('Topic in, narrated', 182, 168);
  ctx.fillText('short video out.', 182, 194);
  ctx.fillStyle = '#a7a3c2';
  ctx.font = '14px "Noto Sans", sans-serif';
  ctx.fillText('AI Video Platform', 182, 226);
  return canvas.toBuffer('image/png');
}

/** A narrow UI capture placed on a branded 1280x800 frame with a caption. */
async function framed(capture: Buffer, title: string, subtitle: string): Promise<Buffer> {
  const canvas = createCanvas(SCREEN.width, SCREEN.height);
  const ctx = canvas.getContext('2d');
  background(ctx, SCREEN.width, SCREEN.height);
  const image = await loadImage(capture);
  const scale = Math.min(1, 720 / image.height);
  const w = image.width * scale;
  const h = image.height * scale;
  const x = 120;
  const y = (SCREEN.height - h) / 2;
  ctx.shadowColor = 'rgba(0,0,0,0.55)';
  ctx.shadowBlur = 40;
  ctx.fillStyle = BRAND.ink;
  ctx.fillRect(x, y, w, h);
  ctx.shadowBlur = 0;
  ctx.drawImage(image, x, y, w, h);
  ctx.font = 'bold 46px "Noto Sans", sans-serif';
  gradientText(ctx, title, x + w + 80, 360, 520);
  ctx.fillStyle = '#f3f1ff';
  ctx.font = '24px "Noto Sans", sans-serif';
  subtitle.split('\n').forEach((line, index) => ctx.fillText(line, x + w + 80, 410 + index * 34));
  return canvas.toBuffer('image/png');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitForHealth(origin: string, server: ChildProcess | null): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server && server.exitCode !== null) throw new Error(`The server exited with code ${server.exitCode}`);
    try {
      if ((await fetch(`${origin}/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('The server did not become healthy within 2 minutes');
}

async function capture(
  context: BrowserContext,
  url: string,
  viewport: { width: number; height: number },
  ready: (page: Page) => Promise<void>,
): Promise<Buffer> {
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  await page.goto(url);
  await ready(page);
  // Toasts and focus rings are transient; let them settle.
  await page.waitForTimeout(800);
  const shot = await page.screenshot({ fullPage: false });
  await page.close();
  return shot;
}

async function screenshots(existingServer: string | null): Promise<void> {
  const origin = existingServer ?? `http://127.0.0.1:${await freePort()}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-store-data-'));
  const extensionDir = mkdtempSync(join(tmpdir(), 'reelsmith-store-extension-'));
  const profileDir = mkdtempSync(join(tmpdir(), 'reelsmith-store-profile-'));
  const server: ChildProcess | null = existingServer
    ? null
    : spawn(process.execPath, ['--import', 'tsx', join(root, 'packages/server/src/main.ts')], {
        cwd: root,
        env: { ...process.env, PORT: new URL(origin).port, HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
  let context: BrowserContext | null = null;
  try {
    const build = spawnSync('npx', ['vite', 'build', '--config', 'vite.config.ts', '--logLevel', 'warn'], {
      cwd: root,
      env: { ...process.env, VITE_API_BASE_URL: origin, EXTENSION_OUT_DIR: extensionDir },
      stdio: 'inherit',
    });
    if (build.status !== 0) throw new Error('Building the extension failed');
    await waitForHealth(origin, server);

    const account = { name: 'Maya Creator', email: `maya-${Date.now()}@example.com`, password: 'store-demo-password' };
    const registered = await fetch(`${origin}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(account),
    });
    if (!registered.ok) throw new Error(`Registering the demo account failed: ${registered.status}`);

    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: chromiumPath(),
      headless: false,
      colorScheme: 'dark',
      args: ['--headless=new', ...CHROMIUM_ARGS, `--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`],
    });
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    const base = `chrome-extension://${new URL(worker.url()).host}`;

    // Sign in once through the popup; every extension page shares the session.
    const signIn = await context.newPage();
    await signIn.goto(`${base}/src/popup/index.html`);
    await signIn.getByLabel('Email').fill(account.email);
    await signIn.getByLabel('Password', { exact: true }).fill(account.password);
    await signIn.getByRole('button', { name: 'Sign In', exact: true }).click();
    await signIn.getByText(`Signed in as ${account.name}`).waitFor();
    await signIn.close();

    const popup = await capture(context, `${base}/src/popup/index.html`, { width: 380, height: 720 }, async (page) => {
      await page.getByLabel('Topic').fill('The secret life of deep-sea octopuses');
      await page.getByRole('radiogroup', { name: 'Male voices' }).getByRole('radio').first().check();
    });
    writeFileSync(
      join(outDir, 'screenshot-1-popup.png'),
      await framed(popup, 'Create from the toolbar', 'Type a topic, pick a voice,\nand get a narrated short video.'),
    );

    const panel = await capture(context, `${base}/src/sidepanel/index.html`, SCREEN, async (page) => {
      await page.getByLabel('Topic').waitFor();
    });
    writeFileSync(join(outDir, 'screenshot-2-side-panel.png'), panel);
  } finally {
    await context?.close();
    server?.kill('SIGTERM');
    for (const dir of [dataDir, extensionDir, profileDir]) rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'promo-small-440x280.png'), await drawPromoTile());
  console.log('Wrote store-assets/promo-small-440x280.png');
  if (process.argv.includes('--promo-only')) return;
  const serverFlag = process.argv.indexOf('--server');
  await screenshots(serverFlag >= 0 ? (process.argv[serverFlag + 1] ?? null) : null);
  console.log('Wrote store-assets/screenshot-1-popup.png and store-assets/screenshot-2-side-panel.png');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
