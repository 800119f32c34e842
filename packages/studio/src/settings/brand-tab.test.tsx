// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { DEFAULT_BRAND_KIT, STORAGE_KEYS } from '@reelsmith/contracts';
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LAZY_PAGES } from '../app/lazy-routes.js';
import { MemoryStorage } from '../platform.js';
import { renderStudio, testPlatform, testUser, type FakeHandler } from '../testing/render-studio.js';

configure({ asyncUtilTimeout: 10_000 });
// The page loads on demand in the app; fetched once here so each test times the page, not the import.
beforeAll(() => LAZY_PAGES.settings.preload(), 30_000);
afterEach(() => {
  cleanup();
  toast.remove();
  vi.restoreAllMocks();
});

function open(extra: FakeHandler = () => undefined) {
  const handler: FakeHandler = (r) => {
    const custom = extra(r);
    if (custom) return custom;
    if (r.path === '/auth/profile') return { body: { user: testUser } };
    if (r.path === '/auth/api-keys') return { body: { api_keys: [] } };
    if (r.path === '/payments/subscription') return { body: { subscription: null, usage: { videosThisMonth: 0 } } };
    if (r.path === '/api/videos') return { body: { jobs: [] } };
    if (r.path === '/api/brand' && r.method === 'GET') return { body: { ...DEFAULT_BRAND_KIT, enabled: true } };
    if (r.path === '/api/analytics/events') return { body: { accepted: 1 } };
    return undefined;
  };
  const platform = testPlatform({
    apiBaseUrl: 'http://api.test',
    storage: new MemoryStorage([
      [STORAGE_KEYS.authStore, JSON.stringify({ state: { user: testUser, token: 't', apiKey: null, isAuthenticated: true }, version: 0 })],
    ]),
  });
  renderStudio({ path: '/settings', handler, platform });
  return userEvent.setup();
}

async function brandTab() {
  const user = open();
  await user.click(await screen.findByRole('tab', { name: 'Brand' }));
  return { user, form: await screen.findByRole('form', { name: 'Brand kit' }) };
}

describe('the brand tab', () => {
  it('takes an SVG logo through the product upload button and says so, with no raw file input on show', async () => {
    const { form } = await brandTab();
    const input = within(form).getByLabelText('Logo (PNG, JPEG, WebP or SVG)');
    expect(input).toHaveAttribute('type', 'file');
    expect(input.getAttribute('accept')).toContain('image/svg+xml');
    // The input itself is hidden; the creator sees the studio's own button.
    expect(input).toHaveClass('rs-visually-hidden');
    expect(within(form).getByText('Upload logo')).toHaveClass('rs-button');
    expect(within(form).getByText(/PNG, JPEG, WebP or SVG \(up to 512 KB\)/)).toBeInTheDocument();
  });

  it('uploads the logo as a logo and shows it at once in the preview frames, with the end card in the accent', async () => {
    const uploads: string[] = [];
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.includes('/api/uploads')) {
        uploads.push(url);
        return new Response(JSON.stringify({ id: 'logo-1', kind: 'image', width: 256, height: 256 }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        });
      }
      return realFetch(input, init);
    });
    URL.createObjectURL = () => 'blob:logo-preview';
    URL.revokeObjectURL = () => undefined;
    const { user, form } = await brandTab();
    const file = new File(['<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'], 'logo.svg', { type: 'image/svg+xml' });
    await user.upload(within(form).getByLabelText('Logo (PNG, JPEG, WebP or SVG)'), file);
    await waitFor(() => expect(uploads).toEqual(['http://api.test/api/uploads?purpose=logo']));
    expect(await within(form).findByText(/A logo is set\./)).toBeInTheDocument();
    expect(within(form).getByText('Replace logo')).toBeInTheDocument();

    const preview = screen.getByRole('complementary', { name: 'Preview' });
    const frame = within(preview).getByRole('img', { name: 'Brand preview' });
    expect(frame.querySelector('img')).toHaveAttribute('src', 'blob:logo-preview');

    await user.click(within(form).getByLabelText('End card', { exact: true }));
    await user.type(within(form).getByLabelText('End card text'), '@tides');
    fireEvent.change(within(form).getByLabelText('Accent colour (caption template highlights)'), { target: { value: '#1d4ed8' } });
    const card = within(preview).getByRole('img', { name: 'End card preview' });
    const text = within(card).getByText('@tides');
    // A dark accent gets white text, as the renderer draws it.
    expect(text).toHaveStyle({ background: '#1D4ED8', color: '#FFFFFF' });
    expect(card.querySelector('img')).toHaveAttribute('src', 'blob:logo-preview');
    // Its own closing card after the narration, as the render draws it: no captions over it.
    expect(within(preview).getByText('After the last word, 2 s')).toBeInTheDocument();
    expect(card.querySelector('.rs-brand__captions')).toBeNull();
    expect(frame.querySelector('.rs-brand__captions')).not.toBeNull();
  });
});
