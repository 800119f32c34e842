// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { STORAGE_KEYS } from '@reelsmith/contracts';
import { cleanup, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LAZY_PAGES } from '../app/lazy-routes.js';
import { MemoryStorage, type Platform } from '../platform.js';
import { renderStudio, testPlatform, testUser, type FakeHandler, type RecordedRequest } from '../testing/render-studio.js';

configure({ asyncUtilTimeout: 10_000 });
// The page loads on demand in the app; fetched once here so each test times the page, not the import.
beforeAll(() => LAZY_PAGES.storyboard.preload(), 30_000);
afterEach(() => {
  cleanup();
  toast.remove();
});

const steps = Object.fromEntries(['setup', 'story', 'voice', 'images', 'video'].map((s) => [s, { status: 'completed', progress: 100 }]));
const video = (status = 'completed') => ({
  id: 'v1',
  status,
  progress: status === 'completed' ? 100 : 1,
  currentStep: null,
  stepProgress: 0,
  params: { topic: 'Tides', duration: 30, language: 'en', resolution: '9:16', voice: 'en-us-f3' },
  created_at: '2026-11-20T10:00:00.000Z',
  result: { videoUrl: '/output/abc/tides.mp4', filename: 'tides.mp4', version: 1 },
  error: null,
  steps,
});
const scene = (n: number) => ({
  id: `s${n}`,
  narration: `Line ${n} of the tide`,
  imagePrompt: `shore ${n}`,
  imageUrl: `/output/abc/scene-${n}.jpg`,
  startSeconds: (n - 1) * 5.3,
  durationSeconds: 5,
  changed: false,
});
const board = {
  videoId: 'v1',
  version: 1,
  title: 'Tides',
  voice: 'en-us-f3',
  captionStyle: 'tiktok',
  enableCaptions: true,
  enableZoom: true,
  scenes: [{ ...scene(1), subject: 'water wave' }, scene(2), scene(3)],
  durationSeconds: 30,
  rendersLeft: 20,
  changed: false,
  revision: 'r1',
};

/** The storyboard as another tab saved it: a new revision and another first line. */
const theirs = { ...board, revision: 'r2', scenes: [{ ...scene(1), narration: 'Written in the other tab' }, scene(2), scene(3)] };

/** Answers every storyboard PUT with `answer`, recording the requests. */
function recordPuts(answer: (request: RecordedRequest) => { status?: number; body: unknown }) {
  const puts: RecordedRequest[] = [];
  const handler: FakeHandler = (request) => {
    if (request.path !== '/api/videos/v1/storyboard' || request.method !== 'PUT') return undefined;
    puts.push(request);
    return answer(request);
  };
  return { puts, handler };
}

const signedIn = (): MemoryStorage =>
  new MemoryStorage([
    [STORAGE_KEYS.authStore, JSON.stringify({ state: { user: testUser, token: 't', apiKey: null, isAuthenticated: true }, version: 0 })],
  ]);

function open(extra: FakeHandler = () => undefined, storage: MemoryStorage = signedIn(), navigation?: Platform['navigation']) {
  const handler: FakeHandler = (request) => {
    const answer = extra(request);
    if (answer) return answer;
    const { path, method } = request;
    if (path === '/auth/profile') return { body: { user: testUser } };
    if (path === '/auth/api-keys') return { body: { api_keys: [] } };
    if (path === '/payments/subscription') return { body: { subscription: null, usage: { videosThisMonth: 0 } } };
    if (path === '/api/videos') return { body: { jobs: [video()] } };
    if (path === '/api/videos/v1') return { body: { job: video(), result: video().result } };
    if (path === '/api/videos/v1/storyboard' && method === 'GET') return { body: board };
    if (path === '/api/videos/v1/versions')
      return {
        body: {
          versions: [{ version: 1, videoUrl: '/output/abc/tides.mp4', createdAt: '2026-11-20T10:01:00.000Z', filename: 'tides.mp4' }],
        },
      };
    if (path === '/api/analytics/events') return { body: { accepted: 1 } };
    return undefined;
  };
  const platform = testPlatform({
    apiBaseUrl: 'http://api.test',
    storage,
    ...(navigation ? { navigation } : {}),
  });
  const rendered = renderStudio({ path: '/videos/v1/edit', handler, platform });
  return { ...rendered, user: userEvent.setup() };
}

describe('the storyboard page', () => {
  it('shows one card per scene with its picture, words, prompt, start and length', async () => {
    open();
    const second = await screen.findByRole('listitem', { name: 'Scene 2' });
    expect(within(second).getByLabelText('Narration')).toHaveValue('Line 2 of the tide');
    expect(within(second).getByLabelText('Image prompt')).toHaveValue('shore 2');
    expect(within(second).getByRole('img', { name: 'Picture of scene 2' })).toHaveAttribute('src', '/output/abc/scene-2.jpg');
    expect(within(second).getByText('5.3 s · 5.0 s')).toBeInTheDocument();
    expect(screen.getByLabelText('Version 1 of the video')).toHaveAttribute('src', 'http://api.test/output/abc/tides.mp4');
  });

  it('shows what the video is based on and, per scene, the source sentences it tells', async () => {
    const sourced = {
      ...video(),
      params: { ...video().params, source: { kind: 'article', title: 'Tide tables explained', url: 'https://sea.example/tides' } },
    };
    open(({ path, method }) => {
      if (path === '/api/videos') return { body: { jobs: [sourced] } };
      if (path === '/api/videos/v1') return { body: { job: sourced, result: sourced.result } };
      if (path === '/api/videos/v1/storyboard' && method === 'GET') {
        return {
          body: {
            ...board,
            scenes: [{ ...scene(1), sourceSentences: ['The moon pulls the sea.', 'Twice a day the water rises.'] }, scene(2), scene(3)],
          },
        };
      }
      return undefined;
    });
    const first = await screen.findByRole('listitem', { name: 'Scene 1' });
    const told = within(first).getByRole('figure', { name: 'Source sentences told in scene 1' });
    expect(
      within(told)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['The moon pulls the sea.', 'Twice a day the water rises.']);
    expect(within(screen.getByRole('listitem', { name: 'Scene 2' })).queryByRole('figure')).toBeNull();
    expect(await screen.findByRole('link', { name: 'Tide tables explained' })).toHaveAttribute('href', 'https://sea.example/tides');
  });

  it('says under a picture what it shows, until the picture is to be replaced', async () => {
    const { user } = open();
    const first = await screen.findByRole('listitem', { name: 'Scene 1' });
    expect(within(first).getByText('Shows: water wave')).toBeInTheDocument();
    expect(within(screen.getByRole('listitem', { name: 'Scene 2' })).queryByText(/^Shows:/)).toBeNull();
    await user.click(within(first).getByRole('button', { name: 'Regenerate the picture of scene 1' }));
    expect(within(first).queryByText(/^Shows:/)).toBeNull();
  });

  it('saves the edited scenes in their new order, then renders the next version', async () => {
    const puts: RecordedRequest[] = [];
    let rendered = false;
    const { user, requests } = open((request) => {
      if (request.path === '/api/videos/v1/storyboard' && request.method === 'PUT') {
        puts.push(request);
        return { body: { ...board, changed: true } };
      }
      if (request.path === '/api/videos/v1/render') {
        rendered = true;
        return { status: 202, body: { jobId: 'v1', version: 2 } };
      }
      if (request.path === '/api/videos/v1/status') return { body: video(rendered ? 'queued' : 'completed') };
      return undefined;
    });
    const second = await screen.findByRole('listitem', { name: 'Scene 2' });
    await user.clear(within(second).getByLabelText('Narration'));
    await user.type(within(second).getByLabelText('Narration'), 'A calmer line');
    await user.click(screen.getByRole('button', { name: 'Move scene 3 up' }));
    await user.click(screen.getByRole('button', { name: 'Render' }));

    await waitFor(() => expect(rendered).toBe(true));
    // The last save before the render (a slow keystroke may have let the draft save itself once already).
    const body = puts.at(-1)!.body as { scenes: Array<{ id?: string; narration: string }> };
    expect(body.scenes.map((s) => [s.id, s.narration])).toEqual([
      ['s1', 'Line 1 of the tide'],
      ['s3', 'Line 3 of the tide'],
      ['s2', 'A calmer line'],
    ]);
    const order = requests.map((r) => `${r.method} ${r.path}`).filter((line) => /storyboard|render/.test(line) && !line.startsWith('GET'));
    expect(order.at(-2)).toBe('PUT /api/videos/v1/storyboard');
    expect(order.at(-1)).toBe('POST /api/videos/v1/render');
    expect(await screen.findByText('Rendering version 2')).toBeInTheDocument();
  });

  it("shows the server's message at the scene it is about and starts no render", async () => {
    const { user, requests } = open((request) =>
      request.method === 'PUT'
        ? {
            status: 400,
            body: {
              statusCode: 400,
              error: 'Bad Request',
              message: 'Scene 2: the narration is empty. Write what the narrator says, or delete the scene.',
              field: 'scenes.1.narration',
            },
          }
        : undefined,
    );
    const second = await screen.findByRole('listitem', { name: 'Scene 2' });
    await user.clear(within(second).getByLabelText('Narration'));
    await user.click(screen.getByRole('button', { name: 'Render' }));
    expect(
      await within(second).findByText('Scene 2: the narration is empty. Write what the narrator says, or delete the scene.'),
    ).toBeInTheDocument();
    expect(within(second).getByLabelText('Narration')).toHaveAttribute('aria-invalid', 'true');
    expect(requests.some((r) => r.path === '/api/videos/v1/render')).toBe(false);
  });

  it('adds a scene after another and deletes one', async () => {
    const { user } = open();
    await screen.findByRole('listitem', { name: 'Scene 3' });
    await user.click(screen.getByRole('button', { name: 'Add a scene after scene 1' }));
    expect(screen.getAllByRole('listitem', { name: /^Scene \d+$/ })).toHaveLength(4);
    expect(within(screen.getByRole('listitem', { name: 'Scene 2' })).getByText('Timed at render')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete scene 2' }));
    expect(screen.getAllByRole('listitem', { name: /^Scene \d+$/ })).toHaveLength(3);
  });

  it('says why a storyboard cannot open', async () => {
    open((request) =>
      request.path === '/api/videos/v1/storyboard'
        ? { status: 404, body: { statusCode: 404, error: 'Not Found', message: 'Video not found' } }
        : undefined,
    );
    expect(await screen.findByText('Video not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to My Videos' })).toHaveAttribute('href', '/videos');
  });

  it('saves an edit by itself a moment later and says where the draft stands', async () => {
    const puts: RecordedRequest[] = [];
    const { user } = open((request) => {
      if (request.path === '/api/videos/v1/storyboard' && request.method === 'PUT') {
        puts.push(request);
        return { body: { ...board, changed: true } };
      }
      return undefined;
    });
    const draft = await screen.findByRole('status', { name: 'Draft' });
    expect(draft).toHaveTextContent('Saved');
    await user.type(within(screen.getByRole('listitem', { name: 'Scene 1' })).getByLabelText('Narration'), ' again');
    expect(draft).toHaveTextContent('Saving…');
    await waitFor(() => expect(puts).toHaveLength(1));
    expect((puts[0]!.body as { scenes: Array<{ narration: string }> }).scenes[0]!.narration).toBe('Line 1 of the tide again');
    await waitFor(() => expect(draft).toHaveTextContent('Saved'));
  });

  it('keeps a draft the server did not take on the device, brings it back on return, and saves it on retry', async () => {
    let serverDown = true;
    const puts: RecordedRequest[] = [];
    const handler: FakeHandler = (request) => {
      if (request.path !== '/api/videos/v1/storyboard' || request.method !== 'PUT') return undefined;
      puts.push(request);
      return serverDown
        ? { status: 503, body: { statusCode: 503, error: 'Service Unavailable', message: 'The service is busy.' } }
        : { body: board };
    };
    const storage = signedIn();
    const first = open(handler, storage);
    const narration = () => within(screen.getByRole('listitem', { name: 'Scene 2' })).getByLabelText('Narration');
    await screen.findByRole('listitem', { name: 'Scene 2' });
    await first.user.clear(narration());
    await first.user.type(narration(), 'Kept on this device');
    await waitFor(() => expect(screen.getByRole('status', { name: 'Draft' })).toHaveTextContent('Not saved: retry'));
    cleanup();

    const second = open(handler, storage);
    await waitFor(() => expect(narration()).toHaveValue('Kept on this device'));
    expect(await screen.findByText('Your unsaved changes are back')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('status', { name: 'Draft' })).toHaveTextContent('Not saved: retry'));
    serverDown = false;
    await second.user.click(within(screen.getByRole('status', { name: 'Draft' })).getByRole('button', { name: 'retry' }));
    await waitFor(() => expect(screen.getByRole('status', { name: 'Draft' })).toHaveTextContent('Saved'));
    expect((puts.at(-1)!.body as { scenes: Array<{ narration: string }> }).scenes[1]!.narration).toBe('Kept on this device');
    expect([...storage.entries.keys()].some((key) => key.includes('storyboard-draft'))).toBe(false);
  });

  it('asks before an in-app link or the browser leaves unsaved changes behind', async () => {
    const guards = { held: 0 };
    const navigation = {
      openTab: () => undefined,
      reload: () => undefined,
      guardUnload: () => {
        guards.held++;
        return () => void guards.held--;
      },
    };
    const { user } = open(
      (request) =>
        request.method === 'PUT'
          ? { status: 503, body: { statusCode: 503, error: 'Service Unavailable', message: 'The service is busy.' } }
          : undefined,
      signedIn(),
      navigation,
    );
    await screen.findByRole('listitem', { name: 'Scene 1' });
    expect(guards.held).toBe(0);
    await user.type(within(screen.getByRole('listitem', { name: 'Scene 1' })).getByLabelText('Narration'), '!');
    expect(guards.held).toBe(1);
    await user.click(screen.getAllByRole('link', { name: 'My Videos' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Leave with unsaved changes?' });
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(screen.getByRole('listitem', { name: 'Scene 1' })).toBeInTheDocument();
  });

  it('plays the scene picked and marks the scene playing', async () => {
    const { user } = open();
    const second = await screen.findByRole('listitem', { name: 'Scene 2' });
    const player = screen.getByLabelText('Version 1 of the video') as HTMLVideoElement;
    let time = 0;
    Object.defineProperty(player, 'currentTime', { get: () => time, set: (value: number) => void (time = value) });
    player.play = () => Promise.resolve();
    await user.click(within(second).getByRole('button', { name: /^Play scene 2/ }));
    expect(time).toBeGreaterThanOrEqual(5.3);
    expect(time).toBeLessThan(10.3);
    player.dispatchEvent(new Event('timeupdate'));
    await waitFor(() => expect(second).toHaveAttribute('aria-current', 'true'));
    expect(screen.getByRole('listitem', { name: 'Scene 1' })).not.toHaveAttribute('aria-current');
    expect(screen.getByText(/may run a few tenths of a second longer or shorter than 30 s/)).toBeInTheDocument();
  });

  it('does not say Uploading… on the picture buttons while a render runs', async () => {
    open(({ path }) => {
      if (path === '/api/videos/v1') return { body: { job: video('processing'), result: video().result } };
      if (path === '/api/videos') return { body: { jobs: [video('processing')] } };
      if (path === '/api/videos/v1/status') return { body: video('processing') };
      return undefined;
    });
    await screen.findByRole('listitem', { name: 'Scene 3' });
    await waitFor(() => expect(screen.getByLabelText('Upload a picture for scene 1')).toBeDisabled());
    expect(screen.queryByText('Uploading…')).toBeNull();
    expect(screen.getAllByText('Upload picture')).toHaveLength(3);
  });

  it('names the version it edits in If-Match, and after a 412 says the storyboard changed in another tab and saves nothing more until told', async () => {
    const { puts, handler } = recordPuts((request) =>
      request.headers['If-Match'] === '"r1"'
        ? {
            status: 412,
            body: { statusCode: 412, error: 'Precondition Failed', message: 'This storyboard changed in another tab.', storyboard: theirs },
          }
        : { body: { ...theirs, revision: 'r3', scenes: [{ ...scene(1), narration: 'Mine wins' }, scene(2), scene(3)] } },
    );
    const { user } = open(handler);
    const narration = () => within(screen.getByRole('listitem', { name: 'Scene 1' })).getByLabelText('Narration');
    await screen.findByRole('listitem', { name: 'Scene 1' });
    await user.clear(narration());
    await user.type(narration(), 'Mine wins');
    const banner = await screen.findByRole('alertdialog', { name: 'This storyboard changed in another tab: reload or keep yours' });
    expect(puts).toHaveLength(1);
    expect(puts[0]!.headers['If-Match']).toBe('"r1"');
    expect(screen.getByRole('status', { name: 'Draft' })).toHaveTextContent('Not saved: changed in another tab');
    expect(screen.getByRole('button', { name: 'Render' })).toBeDisabled();
    // Autosave waits for the creator: more typing sends nothing.
    await user.type(narration(), '!');
    await new Promise((resolve) => setTimeout(resolve, 1400));
    expect(puts).toHaveLength(1);

    await user.click(within(banner).getByRole('button', { name: 'Keep yours' }));
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1]!.headers['If-Match']).toBe('"r2"');
    expect((puts[1]!.body as { scenes: Array<{ narration: string }> }).scenes[0]!.narration).toBe('Mine wins!');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it("takes the other tab's version on Reload and drops this tab's edit", async () => {
    const { puts, handler } = recordPuts(() => ({
      status: 412,
      body: { statusCode: 412, error: 'Precondition Failed', message: 'Changed elsewhere.', storyboard: theirs },
    }));
    const { user } = open(handler);
    const narration = () => within(screen.getByRole('listitem', { name: 'Scene 1' })).getByLabelText('Narration');
    await screen.findByRole('listitem', { name: 'Scene 1' });
    await user.type(narration(), ' and mine');
    const banner = await screen.findByRole('alertdialog');
    await user.click(within(banner).getByRole('button', { name: 'Reload' }));
    expect(narration()).toHaveValue('Written in the other tab');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('status', { name: 'Draft' })).toHaveTextContent('Saved');
    expect(puts).toHaveLength(1);
  });

  it('shows the word budget as the narration is typed: "N of M words", counted as the server counts', async () => {
    const { user } = open();
    const budget = await screen.findByRole('status', { name: 'Narration budget' });
    // Three scenes of five words; a 30 s video holds 99.
    expect(budget).toHaveTextContent('15 of 99 words');
    const narration = within(screen.getByRole('listitem', { name: 'Scene 2' })).getByLabelText('Narration');
    await user.type(narration, ' and the moon');
    expect(budget).toHaveTextContent('18 of 99 words');
    await user.click(narration);
    await user.paste(' word'.repeat(90));
    expect(budget).toHaveTextContent('108 of 99 words');
    expect(budget).toHaveClass('rs-storyboard__budget--over');
  });

  it('does not offer a retry for narration over the word budget: it says how many words to cut and sends nothing', async () => {
    const puts: RecordedRequest[] = [];
    const { user } = open((request) => {
      if (request.method === 'PUT') puts.push(request);
      return undefined;
    });
    const narration = await within(await screen.findByRole('listitem', { name: 'Scene 2' })).findByLabelText('Narration');
    // The three scenes have 15 words; a 30 s video holds 99: 95 more words make 110, 11 too many.
    await user.click(narration);
    await user.paste(' word'.repeat(95));
    const draft = screen.getByRole('status', { name: 'Draft' });
    await waitFor(() => expect(draft).toHaveTextContent('Not saved: cut 11 words'));
    expect(within(draft).queryByRole('button', { name: 'retry' })).toBeNull();
    expect(screen.getByRole('alert')).toHaveTextContent('The narration has 110 words; a 30 s video holds at most 99.');
    await new Promise((resolve) => setTimeout(resolve, 1400));
    expect(puts).toHaveLength(0);
  });

  it('does not say "Saved" beside the error of a storyboard that opens over the word budget (issue 49)', async () => {
    const long = { ...board, scenes: [{ ...scene(1), narration: 'word '.repeat(107).trim() }, scene(2), scene(3)] };
    open((request) => (request.path === '/api/videos/v1/storyboard' && request.method === 'GET' ? { body: long } : undefined));
    expect(await screen.findByRole('alert')).toHaveTextContent('holds at most 99');
    const draft = screen.getByRole('status', { name: 'Draft' });
    expect(draft).not.toHaveTextContent('Saved');
    expect(screen.getByRole('status', { name: 'Narration budget' })).toHaveTextContent('117 of 99 words');
  });

  it('marks the source sentences once the narration told from them is rewritten', async () => {
    const sourced = [
      { ...scene(1), sourceSentences: ['The moon pulls the sea.'], narrationEdited: false },
      { ...scene(2), sourceSentences: ['Twice a day the water rises.'], narrationEdited: true },
      scene(3),
    ];
    const { user } = open(({ path, method }) =>
      path === '/api/videos/v1/storyboard' && method === 'GET' ? { body: { ...board, scenes: sourced } } : undefined,
    );
    const first = await screen.findByRole('listitem', { name: 'Scene 1' });
    const second = screen.getByRole('listitem', { name: 'Scene 2' });
    expect(within(first).getByRole('figure')).not.toHaveTextContent('narration edited');
    // Saved rewritten before this page opened.
    expect(within(second).getByRole('figure')).toHaveTextContent('From the source · narration edited');
    await user.type(within(first).getByLabelText('Narration'), ' Tonight.');
    expect(within(first).getByRole('figure')).toHaveTextContent('narration edited');
    expect(within(first).getByText(/no longer tells these sentences word for word/)).toBeInTheDocument();
  });

  it("shows the video's poster in the player before it plays", async () => {
    const withPoster = { ...video(), result: { ...video().result, posterUrl: '/output/abc/poster.jpg' } };
    open(({ path }) => {
      if (path === '/api/videos') return { body: { jobs: [withPoster] } };
      if (path === '/api/videos/v1') return { body: { job: withPoster, result: withPoster.result } };
      return undefined;
    });
    expect(await screen.findByLabelText('Version 1 of the video')).toHaveAttribute('poster', 'http://api.test/output/abc/poster.jpg');
  });

  it('puts the prompt, the source and the actions of a card behind More (folded on phones)', async () => {
    const { user } = open();
    const first = await screen.findByRole('listitem', { name: 'Scene 1' });
    // The toggle shows only under the phone media query, which jsdom does not apply: it is looked up hidden.
    const more = within(first).getByRole('button', { name: 'Show more of scene 1', hidden: true });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    expect(first).not.toHaveClass('rs-scene--expanded');
    const controlled = document.getElementById(more.getAttribute('aria-controls')!)!;
    expect(within(controlled).getByLabelText('Image prompt')).toHaveValue('shore 1');
    expect(within(controlled).getByRole('button', { name: 'Delete scene 1' })).toBeInTheDocument();
    expect(within(controlled).queryByLabelText('Narration')).toBeNull();
    await user.click(more);
    expect(within(first).getByRole('button', { name: 'Show less of scene 1', hidden: true })).toHaveAttribute('aria-expanded', 'true');
    expect(first).toHaveClass('rs-scene--expanded');
  });
});
