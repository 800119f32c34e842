// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { EMPTY_EXTENSION_JOB_STATE, MESSAGES, STORAGE_KEYS } from '@reelsmith/contracts';
// The popup's own providers and core services, as src/popup/main.tsx renders it: no query cache.
import { CoreProviders, createCoreServices, MemoryStorage, type Platform } from '@reelsmith/studio/popup';
import { cleanup, configure, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExtensionJobSource } from '../extension-host/extension-job-source.js';
import { CompactStudioForm } from './compact-studio-form.js';
import { POPUP_CHOICES_KEY } from './popup-choices.js';

configure({ asyncUtilTimeout: 4000 });
afterEach(() => {
  cleanup();
  toast.remove();
  vi.restoreAllMocks();
});

const user = { id: 'u1', name: 'Asha Creator', email: 'asha@example.com', role: 'user' as const };
const voice = (id: string, name: string, gender: 'male' | 'female') => ({
  id,
  name,
  description: 'Warm narrator',
  gender,
  accent: 'American',
  age: 'Adult',
});

function renderForm(
  storage = new MemoryStorage([
    [STORAGE_KEYS.authStore, JSON.stringify({ state: { user, token: 't', apiKey: 'k', isAuthenticated: true }, version: 0 })],
  ]),
  pageArticle?: Platform['pageArticle'],
) {
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
  const platform: Platform = {
    kind: 'extension',
    storage,
    navigation: { openTab: vi.fn(), reload: () => undefined },
    browser: { isDesktopChrome: () => false },
    apiBaseUrl: 'http://api.test',
    googleSignIn: false,
    ...(pageArticle ? { pageArticle } : {}),
  };
  const requests: string[] = [];
  const fetchImpl = (async (input: RequestInfo | URL) => {
    const url = new URL(String(input));
    requests.push(url.pathname);
    const answers: Record<string, unknown> = {
      '/auth/profile': { user },
      '/payments/subscription': { subscription: null, usage: { videosThisMonth: 0 } },
      '/payments/can-generate': { canGenerate: true, isFreeVideo: true, reason: null },
      '/voices': {
        language: url.searchParams.get('language'),
        provider: 'offline',
        voices: { male: [voice('m-1', 'Arthur', 'male')], female: [voice('f-1', 'Bella', 'female')] },
      },
    };
    const body = answers[url.pathname];
    return new Response(JSON.stringify(body ?? { statusCode: 404, error: 'Not Found', message: 'Not found' }), {
      status: body ? 200 : 404,
      headers: { 'Content-Type': 'application/json' },
    });
  }) as typeof fetch;
  const services = createCoreServices(platform, { fetch: fetchImpl });
  const jobs: ExtensionJobSource = {
    getState: () => EMPTY_EXTENSION_JOB_STATE,
    subscribe: () => () => undefined,
    submit: vi.fn(async () => ({ jobId: 'job-1', status: 'pending' as const, message: 'Video generation started' })),
    reopen: vi.fn(async () => undefined),
    cancel: vi.fn(async () => undefined),
    refresh: vi.fn(async () => undefined),
    close: () => undefined,
  };
  const view = render(
    <MemoryRouter>
      <CoreProviders platform={platform} services={services}>
        <CompactStudioForm jobs={jobs} activeJobs={0} />
        <Toaster />
      </CoreProviders>
    </MemoryRouter>,
  );
  return { ...view, storage, jobs, requests, u: userEvent.setup() };
}

describe('popup compact form', () => {
  it('offers Language, Resolution, Captions and Music, captions on and music from the style by default, and sends them', async () => {
    const { u, jobs } = renderForm();
    expect(screen.getByLabelText('Language')).toHaveValue('en');
    expect(screen.getByLabelText('Resolution')).toHaveValue('9:16');
    expect(screen.getByRole('checkbox', { name: 'Captions' })).toBeChecked();
    expect(screen.getByLabelText('Music')).toHaveValue('auto');

    await u.selectOptions(screen.getByLabelText('Music'), 'calm');
    await u.selectOptions(screen.getByLabelText('Language'), 'hi');
    await u.selectOptions(screen.getByLabelText('Resolution'), '1:1');
    await u.type(screen.getByLabelText('Topic'), 'Monsoon in Kerala');
    await u.click(await screen.findByRole('radio', { name: /Bella/ }));
    await u.click(screen.getByRole('button', { name: 'Generate Video' }));
    await vi.waitFor(() => expect(jobs.submit).toHaveBeenCalled());
    expect(vi.mocked(jobs.submit).mock.calls[0]![0]).toMatchObject({
      language: 'hi',
      resolution: '1:1',
      enableCaptions: true,
      music: 'calm',
      topic: 'Monsoon in Kerala',
    });
  });

  it('"Make a video of this page" sends the page\'s article through the worker, credited to the page, then starts afresh', async () => {
    const article = {
      kind: 'article' as const,
      text: 'Monsoon rains reach Kerala in June. Farmers plant rice as the rivers rise.',
      title: 'The monsoon in Kerala',
      url: 'https://news.example/monsoon',
    };
    const { u, jobs } = renderForm(undefined, { read: async () => article });
    await u.click(screen.getByRole('button', { name: 'Make a video of this page' }));
    expect(await screen.findByRole('link', { name: 'The monsoon in Kerala' })).toHaveAttribute('href', 'https://news.example/monsoon');
    await u.click(await screen.findByRole('radio', { name: /Bella/ }));
    await u.click(screen.getByRole('button', { name: 'Generate Video' }));
    await vi.waitFor(() => expect(jobs.submit).toHaveBeenCalled());
    expect(vi.mocked(jobs.submit).mock.calls[0]![0]).toMatchObject({ topic: 'The monsoon in Kerala', source: article });
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Topic' })).toHaveAttribute('aria-pressed', 'true'));
    expect(screen.getByLabelText('Topic')).toHaveValue('');
  });

  it('a refused submit scrolls to and focuses the first invalid field: the missing voice, then the empty topic', async () => {
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    const { u, jobs } = renderForm();
    await u.type(screen.getByLabelText('Topic'), 'Monsoon in Kerala');
    await screen.findByRole('radio', { name: /Bella/ });
    await u.click(screen.getByRole('button', { name: 'Generate Video' }));
    // No voice chosen: the focus lands on the voice list, far below the topic, not just a toast.
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole('radio', { name: /Arthur/ })));
    expect(scrolled.at(-1)).toBe(document.activeElement);
    expect(jobs.submit).not.toHaveBeenCalled();

    await u.click(screen.getByRole('radio', { name: /Bella/ }));
    await u.clear(screen.getByLabelText('Topic'));
    await u.click(screen.getByRole('button', { name: 'Generate Video' }));
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Topic')));
    expect(jobs.submit).not.toHaveBeenCalled();
    Reflect.deleteProperty(Element.prototype, 'scrollIntoView');
  });

  it('remembers the last Language, Resolution and Captions choice', async () => {
    const first = renderForm();
    await first.u.selectOptions(screen.getByLabelText('Language'), 'ja');
    await first.u.selectOptions(screen.getByLabelText('Resolution'), '16:9');
    await first.u.click(screen.getByRole('checkbox', { name: 'Captions' }));
    expect(JSON.parse(first.storage.getItem(POPUP_CHOICES_KEY)!)).toEqual({ language: 'ja', resolution: '16:9', enableCaptions: false });
    cleanup();

    renderForm(first.storage);
    expect(screen.getByLabelText('Language')).toHaveValue('ja');
    expect(screen.getByLabelText('Resolution')).toHaveValue('16:9');
    expect(screen.getByRole('checkbox', { name: 'Captions' })).not.toBeChecked();
  });

  it('fails a submit at once while offline and never sends it later', async () => {
    const { u, jobs, requests } = renderForm();
    await u.type(screen.getByLabelText('Topic'), 'Offline topic');
    await u.click(await screen.findByRole('radio', { name: /Bella/ }));
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await u.click(screen.getByRole('button', { name: 'Generate Video' }));
    expect((await screen.findAllByText(MESSAGES.offline))[0]).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Generate Video' })).toBeEnabled();
    vi.restoreAllMocks();
    window.dispatchEvent(new Event('online'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(jobs.submit).not.toHaveBeenCalled();
    expect(requests.filter((path) => path === '/payments/can-generate').length).toBeLessThanOrEqual(1);
  });
});
