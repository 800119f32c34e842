import { CAPTION_TEMPLATE_IDS, DEFAULT_BRAND_KIT, type BrandKit } from '@reelsmith/contracts';
import { resolveFfmpegBinaries, runGeneration, type RenderBrand } from '@reelsmith/pipeline';
import { buildApp, type App } from '@reelsmith/server/testing';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '@reelsmith/server/testing';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, subscribe, videoBody, waitForStatus, type TestUser } from './server-jobs-fakes.js';
import { fakeStoryboardProviders as fakeProviders, quickAssemble, type Counts } from './storyboard-fakes.js';

const binaries = resolveFfmpegBinaries();
const media = mkdtempSync(join(tmpdir(), 'reelsmith-brand-media-'));
afterAll(() => rmSync(media, { recursive: true, force: true }));

function logoPng(): Buffer {
  const path = join(media, 'logo.png');
  execFileSync(binaries.ffmpegPath, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0xFF00FF:s=64x64', '-frames:v', '1', path]);
  return readFileSync(path);
}

function multipart(file: Buffer, fileName: string, contentType: string) {
  const boundary = `----reelsmith${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe.each(TEST_DIALECTS)('caption templates and the brand kit on %s', (dialect) => {
  let database: TestDatabase;
  let app: App;
  const counts: Counts = { voiced: [], painted: [] };
  const rendered = new Map<string, RenderBrand | undefined>();

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    app = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000' }), {
      voices: { autoGenerateOfflineSamples: false },
      jobs: {
        runner: (run) =>
          runGeneration(run, {
            binaries,
            assemble: (request, options) => {
              rendered.set(run.jobId, request.brand);
              return quickAssemble(request, options);
            },
          }),
        providersFor: () => fakeProviders(counts),
      },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  const uploadLogo = async (user: TestUser): Promise<string> => {
    const form = multipart(logoPng(), 'logo.png', 'image/png');
    const response = await app.inject({
      method: 'POST',
      url: '/api/uploads?purpose=logo',
      headers: { ...bearer(user), ...form.headers },
      payload: form.payload,
    });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { id: string }).id;
  };

  it('lists every template with its name, what it animates and a preview the server renders and caches', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/caption-templates' });
    expect(response.statusCode).toBe(200);
    const { templates } = response.json() as { templates: Array<{ id: string; name: string; previewUrl: string; animates: string }> };
    expect(templates.map((t) => t.id)).toEqual([...CAPTION_TEMPLATE_IDS]);
    const preview = await app.inject({ method: 'GET', url: templates[0]!.previewUrl });
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('image/png');
    expect(preview.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    // Cached: the second answer is the same file.
    expect((await app.inject({ method: 'GET', url: templates[0]!.previewUrl })).rawPayload.equals(preview.rawPayload)).toBe(true);
    expect((await app.inject({ method: 'GET', url: '/api/caption-templates/sparkle/preview.png' })).statusCode).toBe(400);
  }, 30_000);

  it('accepts template ids as captionStyle and refuses unknown ones', async () => {
    const user = await registerUser(app, 'style');
    await subscribe(app, user.id, 'pro_plan');
    const ok = await app.inject({
      method: 'POST',
      url: '/api/videos/generate',
      headers: bearer(user),
      payload: videoBody('Why tides turn', { enableCaptions: true, captionStyle: 'karaoke' }),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    await waitForStatus(app, user, (ok.json() as { jobId: string }).jobId, 'completed', 30_000);
    const bad = await app.inject({
      method: 'POST',
      url: '/api/videos/generate',
      headers: bearer(user),
      payload: videoBody('Why tides turn', { captionStyle: 'sparkle' }),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/captionStyle/);
  }, 40_000);

  it('keeps a brand kit per account, says what is wrong with a bad one, and renders new videos with it when enabled', async () => {
    const user = await registerUser(app, 'brand');
    await subscribe(app, user.id, 'pro_plan');
    const initial = await app.inject({ method: 'GET', url: '/api/brand', headers: bearer(user) });
    expect(initial.json()).toEqual(DEFAULT_BRAND_KIT);
    const logo = await uploadLogo(user);
    const kit: BrandKit = {
      enabled: true,
      logoUploadId: logo,
      logoPosition: 'bottom-left',
      logoScale: 0.2,
      logoOpacity: 0.8,
      accentColor: '#12AB34',
      fontId: 'poppins',
      endCard: { text: '@tides', seconds: 2 },
    };

    for (const [patch, message] of [
      [{ accentColor: 'green' }, /accent colour is a hex colour/],
      [{ endCard: { text: '@tides', seconds: 5 } }, /at most 3 seconds/],
      [{ logoPosition: 'middle' }, /logoPosition/],
      [{ logoUploadId: 'missing' }, /logo upload does not exist/],
    ] as const) {
      const response = await app.inject({ method: 'PUT', url: '/api/brand', headers: bearer(user), payload: { ...kit, ...patch } });
      expect(response.statusCode, JSON.stringify(patch)).toBe(400);
      expect(response.body).toMatch(message);
    }
    const saved = await app.inject({ method: 'PUT', url: '/api/brand', headers: bearer(user), payload: kit });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/brand', headers: bearer(user) })).json()).toEqual(kit);
    // Another account's kit is its own.
    const other = await registerUser(app, 'brandless');
    expect((await app.inject({ method: 'GET', url: '/api/brand', headers: bearer(other) })).json()).toEqual(DEFAULT_BRAND_KIT);

    const job = await app.inject({
      method: 'POST',
      url: '/api/videos/generate',
      headers: bearer(user),
      payload: videoBody('Why tides turn', { enableCaptions: true, captionStyle: 'word-pop' }),
    });
    const jobId = (job.json() as { jobId: string }).jobId;
    await waitForStatus(app, user, jobId, 'completed', 30_000);
    const brand = rendered.get(jobId)!;
    expect(brand).toMatchObject({
      accentColor: '#12AB34',
      fontId: 'poppins',
      endCard: { text: '@tides', seconds: 2 },
      logo: { position: 'bottom-left', scale: 0.2, opacity: 0.8 },
    });
    expect(readFileSync(brand.logo!.path).subarray(1, 4).toString()).toBe('PNG');

    await app.inject({ method: 'PUT', url: '/api/brand', headers: bearer(user), payload: { ...kit, enabled: false } });
    const plain = await app.inject({
      method: 'POST',
      url: '/api/videos/generate',
      headers: bearer(user),
      payload: videoBody('Why tides turn again'),
    });
    const plainId = (plain.json() as { jobId: string }).jobId;
    await waitForStatus(app, user, plainId, 'completed', 30_000);
    expect(rendered.get(plainId)).toBeUndefined();
  }, 60_000);

  it('takes an SVG logo drawn to a transparent PNG, and refuses SVGs that script or reach outside the file', async () => {
    const user = await registerUser(app, 'svg-logo');
    await subscribe(app, user.id, 'pro_plan');
    const upload = (svg: string, purpose = '?purpose=logo') => {
      const form = multipart(Buffer.from(svg), 'logo.svg', 'image/svg+xml');
      return app.inject({
        method: 'POST',
        url: `/api/uploads${purpose}`,
        headers: { ...bearer(user), ...form.headers },
        payload: form.payload,
      });
    };
    // A red disc in the middle of a 2:1 canvas; the rest is transparent.
    const disc =
      '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 200 100" width="200" height="100"><defs><circle id="d" cx="100" cy="50" r="40"/></defs><use xlink:href="#d" fill="#FF0000"/></svg>';
    const accepted = await upload(disc);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ kind: 'image', width: 1024, height: 512 });

    const wrapped = (inner: string, attributes = '') =>
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100"${attributes}>${inner}</svg>`;
    for (const [svg, message, purpose] of [
      [disc, /can only be your logo, set in Settings → Brand/, ''],
      [wrapped('<script>alert(1)</script><rect width="10" height="10"/>'), /script or an event handler/],
      [wrapped('<rect width="10" height="10" onload="alert(1)"/>'), /script or an event handler/],
      [
        wrapped('<image href="http://attacker.example/pixel.png" width="10" height="10"/>'),
        /outside the file \(http:\/\/attacker\.example\/pixel\.png\)/,
      ],
      [wrapped('<image xlink:href="file:///etc/passwd" width="10" height="10"/>'), /outside the file \(file:\/\/\/etc\/passwd\)/],
      [wrapped('<rect width="10" height="10" fill="url(https://attacker.example/p.svg#g)"/>'), /outside the file \(url\(https:/],
      [`<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>${wrapped('<text>&x;</text>')}`, /XML entities/],
      [wrapped('<rect width="10" height="10"/>').replace('width="100" height="100"', 'width="100000" height="10"'), /The SVG is 100000×10/],
      ['<svg xmlns="http://www.w3.org/2000/svg"><rect', /not a well-formed SVG/],
    ] as const) {
      const response = await upload(svg, purpose ?? '?purpose=logo');
      expect(response.statusCode, svg).toBe(400);
      expect(response.body, svg).toMatch(message);
    }

    const logoUploadId = (accepted.json() as { id: string }).id;
    const kit: BrandKit = { ...DEFAULT_BRAND_KIT, enabled: true, logoUploadId };
    expect((await app.inject({ method: 'PUT', url: '/api/brand', headers: bearer(user), payload: kit })).statusCode).toBe(200);
    const job = await app.inject({
      method: 'POST',
      url: '/api/videos/generate',
      headers: bearer(user),
      payload: videoBody('Why logos scale'),
    });
    const jobId = (job.json() as { jobId: string }).jobId;
    await waitForStatus(app, user, jobId, 'completed', 30_000);
    const stored = rendered.get(jobId)!.logo!.path;
    // The stored logo is an RGBA PNG: opaque red in the disc, fully transparent in the corners.
    const rgba = execFileSync(binaries.ffmpegPath, ['-v', 'error', '-i', stored, '-f', 'rawvideo', '-pix_fmt', 'rgba', '-'], {
      maxBuffer: 1 << 24,
    });
    const pixel = (x: number, y: number) => [...rgba.subarray((y * 1024 + x) * 4, (y * 1024 + x) * 4 + 4)];
    expect(rgba.length).toBe(1024 * 512 * 4);
    expect(pixel(512, 256)).toEqual([255, 0, 0, 255]);
    expect(pixel(5, 5)[3]).toBe(0);
    expect(pixel(1018, 506)[3]).toBe(0);
  }, 60_000);

  it("gives an embed session's partner brand to the videos made in it", async () => {
    const user = await registerUser(app, 'partner');
    await subscribe(app, user.id, 'pro_plan');
    const partner: BrandKit = {
      ...DEFAULT_BRAND_KIT,
      enabled: true,
      accentColor: '#0055FF',
      endCard: { text: 'partner.example', seconds: 1.5 },
    };
    const refused = await app.inject({
      method: 'POST',
      url: '/api/embed/sessions',
      headers: { 'x-api-key': user.apiKey },
      payload: { brand: { ...partner, accentColor: 'blue' } },
    });
    expect(refused.statusCode, refused.body).toBe(400);
    const minted = await app.inject({
      method: 'POST',
      url: '/api/embed/sessions',
      headers: { 'x-api-key': user.apiKey },
      payload: { brand: partner },
    });
    expect(minted.statusCode, minted.body).toBe(200);
    const embed = { authorization: `Bearer ${(minted.json() as { token: string }).token}` };
    const job = await app.inject({
      method: 'POST',
      url: '/api/videos/generate',
      headers: embed,
      payload: videoBody('Why partners brand', { enableCaptions: true, captionStyle: 'box-highlight' }),
    });
    expect(job.statusCode, job.body).toBe(200);
    const jobId = (job.json() as { jobId: string }).jobId;
    await waitForStatus(app, user, jobId, 'completed', 30_000);
    expect(rendered.get(jobId)).toMatchObject({ accentColor: '#0055FF', logo: null, endCard: { text: 'partner.example', seconds: 1.5 } });
    // A session without one still mints as before.
    const bare = await app.inject({ method: 'POST', url: '/api/embed/sessions', headers: { 'x-api-key': user.apiKey } });
    expect(bare.statusCode, bare.body).toBe(200);
  }, 40_000);
});
