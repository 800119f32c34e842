// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { MESSAGES, STORAGE_KEYS, VALIDATION_MESSAGES } from '@reelsmith/contracts';
import { act, cleanup, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JobRealtimeClient, JobRealtimeHandlers } from '../shared/jobs/job-realtime.js';
import { MemoryStorage, type Platform } from '../platform.js';
import {
  JobRealtimeProvider,
  renderWithStudio,
  testPlatform,
  testUser,
  type FakeHandler,
  type RecordedRequest,
} from '../testing/render-studio.js';
import { testGenerationParams } from '../testing/generation-params.js';
import { englishVoicesBody, listedJob } from '../testing/studio-fixtures.js';
import { StudioView, WHAT_IT_MAKES } from './studio-view.js';

// The voice list waits 300 ms (debounce) before it loads; a busy machine needs more than the default 1 s.
configure({ asyncUtilTimeout: 4000 });

afterEach(() => {
  cleanup();
  toast.remove();
  vi.useRealTimers();
});

const job = (id: string, topic: string, status: string, minutesAgo: number, extra: Record<string, unknown> = {}) =>
  listedJob(id, topic, status, new Date(Date.UTC(2026, 10, 22, 12, 0) - minutesAgo * 60_000).toISOString(), {
    result: status === 'completed' ? { videoUrl: `/output/${id}/v.mp4`, filename: 'v.mp4' } : null,
    ...extra,
  });
const voicesBody = englishVoicesBody;
const activeSubscription = {
  planId: 'pro_plan',
  planName: 'Pro',
  status: 'active',
  cancelled_at: null,
  cancelledAt: null,
  startDate: '2026-11-01',
  endDate: '2026-12-01',
  videoLimit: -1,
  currency: 'INR',
};

function fakeRealtime() {
  let handlers: JobRealtimeHandlers | null = null;
  const client: JobRealtimeClient = {
    connect: (_token, h) => {
      handlers = h;
    },
    disconnect: () => {
      handlers = null;
    },
    subscribe: async () => true,
  };
  return {
    client,
    live: () => {
      if (!handlers) throw new Error('not connected');
      return handlers;
    },
  };
}

interface Options {
  signedIn?: boolean;
  jobs?: unknown[];
  subscription?: unknown;
  canGenerate?: { status?: number; body: unknown };
  generate?: { status?: number; body: unknown };
  openTab?: (url: string) => void;
  pageArticle?: Platform['pageArticle'];
}

function open({
  signedIn = true,
  jobs = [],
  subscription = null,
  canGenerate = { body: { canGenerate: true, isFreeVideo: true, reason: null } },
  generate = { body: { jobId: 'new-1', status: 'queued', message: 'Queued' } },
  openTab = vi.fn(),
  pageArticle,
}: Options = {}) {
  const handler: FakeHandler = ({ method, path }) => {
    if (path === '/api/videos' && method === 'GET') return { body: { jobs } };
    if (path === '/payments/can-generate') return canGenerate;
    if (path === '/api/videos/generate') return generate;
    if (path === '/voices') return { body: voicesBody };
    if (path === '/api/voice-samples/stats')
      return { body: { total: 560, available: 560, missing: 0, byLanguage: {}, currentProvider: 'offline' } };
    return undefined;
  };
  const storage = new MemoryStorage(
    signedIn
      ? [
          [
            STORAGE_KEYS.authStore,
            JSON.stringify({ state: { user: testUser, token: 't', apiKey: null, isAuthenticated: true }, version: 0 }),
          ],
        ]
      : [],
  );
  const realtime = fakeRealtime();
  const platform = testPlatform({ storage, navigation: { openTab, reload: () => undefined }, ...(pageArticle ? { pageArticle } : {}) });
  const rendered = renderWithStudio(
    <JobRealtimeProvider createRealtime={() => realtime.client}>
      <Routes>
        <Route path="/" element={<StudioView />} />
        <Route path="/pricing" element={<p>Pricing page</p>} />
      </Routes>
    </JobRealtimeProvider>,
    { handler, platform },
  );
  if (subscription)
    rendered.services.authStore.setState({ subscription: { subscription: subscription as never, usage: { videosThisMonth: 0 } } });
  return {
    ...rendered,
    realtime,
    user: userEvent.setup({ advanceTimers: (ms) => (vi.isFakeTimers() ? vi.advanceTimersByTime(ms) : undefined) }),
    openTab,
  };
}

/** The Recent Videos panel once its code (and its rows' code, when there are videos) has loaded: a busy placeholder until then. */
async function loadedRecentVideos(): Promise<HTMLElement> {
  await waitFor(() => expect(screen.getByRole('region', { name: /Recent Videos/ })).not.toHaveAttribute('aria-busy'));
  const recent = screen.getByRole('region', { name: /Recent Videos/ });
  await waitFor(() => expect(within(recent).queryByRole('list') ?? within(recent).queryByText(/^No videos yet/)).not.toBeNull());
  return recent;
}

const submitButton = () => screen.getByRole('button', { name: /Generate Video|Submitting|Generating|Starting|Processing|Try Free Demo/ });

async function fillValidForm(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Topic'), 'The lost city of Atlantis');
  await user.selectOptions(screen.getByLabelText('Language', { exact: true }), 'English');
  await user.click(await screen.findByRole('radio', { name: 'Bella' }));
}

const requestsTo = (requests: RecordedRequest[], path: string) => requests.filter((r) => r.path === path);

describe('Video Studio', () => {
  it('greets the user, counts their videos and lists the 5 latest with See All and Live', async () => {
    const jobs = [
      job('a', 'Alpha', 'completed', 1),
      job('b', 'Bravo', 'processing', 2, { currentStep: 'images', progress: 66 }),
      job('c', 'Charlie', 'failed', 3, { error: 'Story writer failed' }),
      job('d', 'Delta', 'queued', 4, { progress: 0 }),
      job('e', 'Echo', 'completed', 5),
      job('f', 'Foxtrot', 'completed', 6),
    ];
    const { realtime } = open({ jobs });
    expect(screen.getByRole('heading', { name: 'Welcome back, Asha Creator!' })).toBeInTheDocument();
    const counters = screen.getByRole('group', { name: 'Your videos' });
    expect(screen.queryByRole('list', { name: 'What Reelsmith makes' })).not.toBeInTheDocument();
    await within(counters).findByText('6');
    expect(within(counters).getByText('Total Videos').previousSibling).toHaveTextContent('6');
    expect(within(counters).getByText('In Progress').previousSibling).toHaveTextContent('2');
    expect(within(counters).getByText('Completed').previousSibling).toHaveTextContent('3');

    const recent = await loadedRecentVideos();
    expect(
      within(recent)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo']);
    expect(within(recent).getByRole('link', { name: 'See All' })).toHaveAttribute('href', '/videos');
    expect(within(recent).getByRole('progressbar', { name: 'Progress of Bravo' })).toHaveAttribute('aria-valuenow', '66');
    expect(within(recent).getByText('Creating visuals')).toBeInTheDocument();
    expect(within(recent).getByText('Story writer failed')).toBeInTheDocument();
    expect(within(recent).getAllByRole('button', { name: /^Preview / })).toHaveLength(2);

    expect(within(recent).queryByText('Live')).not.toBeInTheDocument();
    act(() => realtime.live().connectionChange(true, { resumed: false }));
    expect(within(recent).getByText('Live')).toBeInTheDocument();
    // Any active job blocks the form.
    expect(submitButton()).toHaveTextContent('Processing (2 video(s))...');
    expect(submitButton()).toBeDisabled();
  });

  it('hides See All with 3 jobs or fewer and offers View All Videos when empty', async () => {
    open({ jobs: [] });
    const recent = await loadedRecentVideos();
    expect(within(recent).getByRole('link', { name: 'View All Videos' })).toHaveAttribute('href', '/videos');
    expect(within(recent).queryByRole('link', { name: 'See All' })).not.toBeInTheDocument();
  });

  it('shows visitors what Reelsmith makes instead of counting videos they cannot have', () => {
    open({ signedIn: false });
    expect(screen.queryByRole('group', { name: 'Your videos' })).not.toBeInTheDocument();
    expect(screen.queryByText('Total Videos')).not.toBeInTheDocument();
    const makes = screen.getByRole('list', { name: 'What Reelsmith makes' });
    expect(
      within(makes)
        .getAllByRole('listitem')
        .map((item) => item.querySelector('.rs-makes__title')?.textContent),
    ).toEqual(WHAT_IT_MAKES.map((item) => item.title));
    // The examples come first, across the page, before the form and the sign-up card.
    const gallery = screen.getByRole('region', { name: 'See what it makes' });
    const form = screen.getByRole('button', { name: 'Try Free Demo - Sign Up Required!' });
    expect(gallery.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(gallery.parentElement).toBe(makes.parentElement);
  });

  it('shows signed-in creators their counters and no gallery', async () => {
    open();
    expect(await screen.findByRole('group', { name: 'Your videos' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'See what it makes' })).not.toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'What Reelsmith makes' })).not.toBeInTheDocument();
  });

  it('offers visitors the free demo: the button opens sign-up in a new tab', async () => {
    const { user, openTab, requests } = open({ signedIn: false });
    expect(screen.getByRole('heading', { name: 'Create AI videos for social media' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /Recent Videos/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign Up Free' })).toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Try Free Demo - Sign Up Required!' });
    await user.click(button);
    expect(openTab).toHaveBeenCalledWith('/login');
    expect(await screen.findByText(MESSAGES.visitorGenerate)).toBeInTheDocument();
    expect(requestsTo(requests, '/api/videos/generate')).toHaveLength(0);
  });

  it('has the generation defaults and shows messages only for touched fields or after a submit', async () => {
    const { user } = open();
    expect(screen.getByLabelText('Style', { exact: true })).toHaveValue('mysterious');
    expect(screen.getByLabelText('Language', { exact: true })).toHaveValue('');
    expect(
      within(screen.getByLabelText('Language', { exact: true })).getByRole('option', { name: 'Select a language' }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Duration')).toHaveValue('30');
    expect(screen.getByLabelText('Visual Style')).toHaveValue('cinematic');
    expect(screen.getByLabelText('Resolution')).toHaveValue('9:16');
    expect(screen.getByRole('switch', { name: 'Zoom Effect' })).toBeChecked();
    expect(screen.getByLabelText('Zoom Direction')).toHaveValue('in');
    expect(screen.getByRole('switch', { name: 'Captions' })).not.toBeChecked();
    expect(screen.queryByRole('radiogroup', { name: 'Caption Style' })).not.toBeInTheDocument();
    expect(screen.queryByText(VALIDATION_MESSAGES.topicRequired)).not.toBeInTheDocument();
    // Music follows the style until the creator picks a mood or none.
    expect(screen.getByLabelText('Music')).toHaveValue('auto');
    expect(within(screen.getByLabelText('Music')).getByRole('option', { selected: true })).toHaveTextContent(
      'Match the style (Mysterious)',
    );
    await user.selectOptions(screen.getByLabelText('Style', { exact: true }), 'Funny');
    expect(within(screen.getByLabelText('Music')).getByRole('option', { selected: true })).toHaveTextContent('Match the style (Playful)');
    await user.selectOptions(screen.getByLabelText('Music'), 'No music');
    expect(screen.getByLabelText('Music')).toHaveValue('none');

    // Validates on change: typing then clearing the topic shows its message at once.
    await user.type(screen.getByLabelText('Topic'), 'x');
    expect(screen.queryByText(VALIDATION_MESSAGES.topicRequired)).not.toBeInTheDocument();
    await user.clear(screen.getByLabelText('Topic'));
    expect(screen.getByText(VALIDATION_MESSAGES.topicRequired)).toBeInTheDocument();
    expect(screen.queryByText(VALIDATION_MESSAGES.languageRequired)).not.toBeInTheDocument();

    await user.click(screen.getByRole('switch', { name: 'Captions' }));
    // The styles and the animated templates as previews (their code loads when captions are first
    // switched on); the default style is chosen.
    const captionStyles = await screen.findByRole('radiogroup', { name: 'Caption Style' });
    expect(within(captionStyles).getByRole('radio', { name: 'TikTok' })).toBeChecked();
    expect(within(captionStyles).getAllByRole('radio')).toHaveLength(13);
    await user.click(within(captionStyles).getByRole('radio', { name: 'Karaoke Fill' }));
    expect(within(captionStyles).getByRole('radio', { name: 'Karaoke Fill' })).toBeChecked();
    await user.click(screen.getByRole('switch', { name: 'Zoom Effect' }));
    expect(screen.queryByLabelText('Zoom Direction')).not.toBeInTheDocument();

    await user.click(submitButton());
    expect(screen.getByText(VALIDATION_MESSAGES.languageRequired)).toBeInTheDocument();
    expect(screen.getByText(VALIDATION_MESSAGES.voiceRequired)).toBeInTheDocument();
    expect(await screen.findByText(VALIDATION_MESSAGES.voiceRequiredOnSubmit)).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Language', { exact: true }), 'English');
    expect(screen.queryByText(VALIDATION_MESSAGES.languageRequired)).not.toBeInTheDocument();
    expect(await screen.findByText(VALIDATION_MESSAGES.voiceHint)).toBeInTheDocument();
  });

  it('asks for a custom style and sends it in place of "custom"', async () => {
    const { user, requests } = open();
    await fillValidForm(user);
    await user.selectOptions(screen.getByLabelText('Style', { exact: true }), 'Custom Style');
    const custom = screen.getByLabelText('Custom Style');
    await user.type(custom, 'a');
    await user.clear(custom);
    expect(screen.getByText(VALIDATION_MESSAGES.customStyleRequired)).toBeInTheDocument();
    await user.type(custom, 'noir detective');
    expect(screen.queryByText(VALIDATION_MESSAGES.customStyleRequired)).not.toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Music'), 'Dramatic');
    await user.click(submitButton());
    await screen.findByText(MESSAGES.submitSuccess);
    expect(requestsTo(requests, '/api/videos/generate')[0]?.body).toMatchObject({
      music: 'dramatic',
      style: 'noir detective',
      topic: 'The lost city of Atlantis',
      voice: 'en-f-1',
      voiceProvider: 'offline',
      language: 'en',
      duration: 30,
    });
  });

  it('sends captions as files (a video without burned-in captions) when the creator picks them', async () => {
    const { user, requests } = open();
    await fillValidForm(user);
    await user.click(screen.getByRole('switch', { name: 'Captions' }));
    const delivery = await screen.findByLabelText('Captions Go');
    expect(delivery).toHaveValue('burned');
    await user.selectOptions(delivery, 'file');
    // The style picker is for captions drawn into the video only.
    expect(screen.queryByRole('radiogroup', { name: 'Caption Style' })).not.toBeInTheDocument();
    await user.click(submitButton());
    await screen.findByText(MESSAGES.submitSuccess);
    expect(requestsTo(requests, '/api/videos/generate')[0]?.body).toMatchObject({ captions: 'file', enableCaptions: false });
  });

  it('checks the plan, submits, then reads Starting... for a second and Processing while the job runs', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { user, requests, realtime } = open();
    await fillValidForm(user);
    expect(submitButton()).toHaveTextContent('Generate Video');
    await user.click(submitButton());
    await screen.findByText(MESSAGES.submitSuccess);
    // The load-time check has no duration; the one before the submit asks for this video's.
    const checks = requestsTo(requests, '/payments/can-generate').map((r) => r.query.get('duration'));
    expect(checks).toContain('30');
    expect(requestsTo(requests, '/api/videos/generate')[0]?.body).toEqual(
      testGenerationParams({ topic: 'The lost city of Atlantis', style: 'mysterious', voiceProvider: 'offline' }),
    );
    expect(submitButton()).toHaveTextContent('Starting...');
    expect(submitButton()).toBeDisabled();
    const recent = await loadedRecentVideos();
    expect(within(recent).getByText('Queued for processing')).toBeInTheDocument();
    await act(async () => {
      vi.advanceTimersByTime(1000);
    });
    expect(submitButton()).toHaveTextContent('Processing (1 video(s))...');
    expect(submitButton()).toBeDisabled();

    // One progress toast per job, replaced on each update.
    act(() => realtime.live().progress({ jobId: 'new-1', progress: 12, step: 'story', stepProgress: 50, status: 'processing' }));
    expect(await screen.findByText('Creating story: 12%')).toBeInTheDocument();
    act(() => realtime.live().progress({ jobId: 'new-1', progress: 35, step: 'voice', stepProgress: 20, status: 'processing' }));
    expect(await screen.findByText('Generating audio: 35%')).toBeInTheDocument();
    expect(screen.queryByText('Creating story: 12%')).not.toBeInTheDocument();
    expect(within(recent).getByText('Generating audio')).toBeInTheDocument();

    act(() => realtime.live().completed({ jobId: 'new-1', result: { videoUrl: '/output/new-1/v.mp4', filename: 'v.mp4' } }));
    expect(within(recent).getByText('Completed')).toBeInTheDocument();
    expect(submitButton()).toHaveTextContent('Generate Video');
    expect(submitButton()).toBeEnabled();
  });

  it('shows the failure event as a toast', async () => {
    const { realtime } = open({ jobs: [job('p', 'Pyramids', 'processing', 1)] });
    await screen.findByText('Pyramids');
    act(() => realtime.live().failed({ jobId: 'p', error: 'Image provider unavailable' }));
    expect(await screen.findByText('Video generation failed: Image provider unavailable')).toBeInTheDocument();
  });

  it('asks again whether the user can generate once a job ends (a failed free video is given back)', async () => {
    const { realtime, requests } = open({ jobs: [job('p', 'Pyramids', 'processing', 1)] });
    await screen.findByText('Pyramids');
    await waitFor(() => expect(requestsTo(requests, '/payments/can-generate').length).toBeGreaterThan(0));
    const before = requestsTo(requests, '/payments/can-generate').length;
    act(() => realtime.live().failed({ jobId: 'p', error: 'Image provider unavailable' }));
    await waitFor(() => expect(requestsTo(requests, '/payments/can-generate').length).toBeGreaterThan(before));
    await waitFor(() => expect(requestsTo(requests, '/payments/subscription').length).toBeGreaterThan(0));
  });

  it('opens pricing with the reason when the plan does not allow the video', async () => {
    const { user, requests } = open({
      canGenerate: {
        body: {
          canGenerate: false,
          isFreeVideo: false,
          reason: 'You have used all 5 videos of your plan this month. Upgrade your plan for more videos.',
        },
      },
    });
    await fillValidForm(user);
    await user.click(submitButton());
    expect(await screen.findByText('Pricing page')).toBeInTheDocument();
    expect(screen.getByText('You have used all 5 videos of your plan this month. Upgrade your plan for more videos.')).toBeInTheDocument();
    expect(requestsTo(requests, '/api/videos/generate')).toHaveLength(0);
  });

  it('falls back to the subscription message, and to the subscribe message when the check fails', async () => {
    const first = open({ canGenerate: { body: { canGenerate: false, isFreeVideo: false, reason: null } } });
    await fillValidForm(first.user);
    await first.user.click(submitButton());
    expect(await screen.findByText(MESSAGES.subscriptionRequired)).toBeInTheDocument();
    cleanup();
    toast.remove();

    const second = open({ canGenerate: { status: 500, body: { statusCode: 500, error: 'Internal', message: 'db down' } } });
    await fillValidForm(second.user);
    await second.user.click(submitButton());
    expect(await screen.findByText(MESSAGES.canGenerateFailed)).toBeInTheDocument();
    expect(submitButton()).toHaveTextContent('Generate Video');
  });

  it('shows the server message when the submit fails, else the fallback', async () => {
    const first = open({
      generate: { status: 400, body: { statusCode: 400, error: 'Bad Request', message: 'Topic must be at most 500 characters' } },
    });
    await fillValidForm(first.user);
    await first.user.click(submitButton());
    expect(await screen.findByText('Topic must be at most 500 characters')).toBeInTheDocument();
    expect(submitButton()).toBeEnabled();
    cleanup();
    toast.remove();

    const second = open({ generate: { status: 502, body: 'bad gateway' } });
    await fillValidForm(second.user);
    await second.user.click(submitButton());
    expect(await screen.findByText(MESSAGES.submitFailed)).toBeInTheDocument();
  });

  it('locks 60 and 90 seconds without a subscription or on the free video', async () => {
    open();
    const duration = screen.getByLabelText('Duration');
    expect(within(duration).getByRole('option', { name: '60 seconds 🔒' })).toBeDisabled();
    expect(within(duration).getByRole('option', { name: '90 seconds 🔒' })).toBeDisabled();
    expect(within(duration).getByRole('option', { name: '30 seconds' })).toBeEnabled();
    expect(await screen.findByText(VALIDATION_MESSAGES.freeVideoTooLong)).toBeInTheDocument();
    cleanup();

    open({ subscription: activeSubscription, canGenerate: { body: { canGenerate: true, isFreeVideo: false, reason: null } } });
    const unlocked = screen.getByLabelText('Duration');
    await vi.waitFor(() => expect(within(unlocked).getByRole('option', { name: '60 seconds' })).toBeEnabled());
    expect(within(unlocked).getByRole('option', { name: '90 seconds' })).toBeEnabled();
  });

  it('starts from the saved video defaults', () => {
    const storage = new MemoryStorage([
      [STORAGE_KEYS.authStore, JSON.stringify({ state: { user: testUser, token: 't', apiKey: null, isAuthenticated: true }, version: 0 })],
      [
        STORAGE_KEYS.videoDefaults,
        JSON.stringify({
          defaultStyle: 'funny',
          defaultLanguage: 'de',
          defaultDuration: 30,
          defaultVisualStyle: 'dark horror',
          defaultResolution: '1:1',
          autoDownload: false,
          showProgress: true,
        }),
      ],
    ]);
    const realtime = fakeRealtime();
    renderWithStudio(
      <JobRealtimeProvider createRealtime={() => realtime.client}>
        <StudioView />
      </JobRealtimeProvider>,
      { platform: testPlatform({ storage }), handler: () => undefined },
    );
    expect(screen.getByLabelText('Style', { exact: true })).toHaveValue('funny');
    expect(screen.getByLabelText('Language', { exact: true })).toHaveValue('de');
    expect(screen.getByLabelText('Visual Style')).toHaveValue('dark horror');
    expect(screen.getByLabelText('Resolution')).toHaveValue('1:1');
  });

  it('keeps a saved 60 s default with a plan and falls back to 30 s without one', async () => {
    const saved = JSON.stringify({
      defaultStyle: 'funny',
      defaultLanguage: 'en',
      defaultDuration: 60,
      defaultVisualStyle: 'cinematic',
      defaultResolution: '9:16',
      autoDownload: false,
      showProgress: true,
    });
    const render = (subscription: unknown, canGenerate: unknown) => {
      const storage = new MemoryStorage([
        [
          STORAGE_KEYS.authStore,
          JSON.stringify({ state: { user: testUser, token: 't', apiKey: null, isAuthenticated: true }, version: 0 }),
        ],
        [STORAGE_KEYS.videoDefaults, saved],
      ]);
      const realtime = fakeRealtime();
      const rendered = renderWithStudio(
        <JobRealtimeProvider createRealtime={() => realtime.client}>
          <StudioView />
        </JobRealtimeProvider>,
        {
          platform: testPlatform({ storage }),
          handler: ({ path }) => (path === '/payments/can-generate' ? { body: canGenerate } : undefined),
        },
      );
      void act(() =>
        rendered.services.authStore.setState({
          subscription: subscription ? { subscription: subscription as never, usage: { videosThisMonth: 0 } } : null,
        }),
      );
    };
    render(activeSubscription, { canGenerate: true, isFreeVideo: false, reason: null });
    await vi.waitFor(() => expect(within(screen.getByLabelText('Duration')).getByRole('option', { name: '60 seconds' })).toBeEnabled());
    expect(screen.getByLabelText('Duration')).toHaveValue('60');
    cleanup();

    render(null, { canGenerate: true, isFreeVideo: true, reason: null });
    await vi.waitFor(() => expect(screen.getByLabelText('Duration')).toHaveValue('30'));
  });

  it('makes a video from a script: the topic becomes optional, the script goes word for word, and one too long is stopped with its count', async () => {
    const { user, requests } = open();
    const pick = (name: string) => user.click(screen.getByRole('button', { name }));
    expect(screen.getByRole('button', { name: 'Topic' })).toHaveAttribute('aria-pressed', 'true');
    await pick('Script');
    expect(screen.getByRole('button', { name: 'Script' })).toHaveAttribute('aria-pressed', 'true');
    const script = await screen.findByLabelText('Script');
    await user.selectOptions(screen.getByLabelText('Language', { exact: true }), 'English');
    await user.click(await screen.findByRole('radio', { name: 'Bella' }));
    await user.click(script);
    await user.paste(Array.from({ length: 100 }, (_, i) => `word${i}`).join(' '));
    expect(
      await screen.findByText('Your script has 100 words; a 30 s video holds at most 99. Shorten it or choose a longer duration.'),
    ).toBeInTheDocument();
    await user.click(submitButton());
    expect(await screen.findAllByText(/Your script has 100 words/)).not.toHaveLength(0);
    expect(requestsTo(requests, '/api/videos/generate')).toEqual([]);

    await user.clear(script);
    await user.click(script);
    await user.paste('Honeybees dance to share directions. The waggle points toward the flowers.');
    expect(screen.getByText('11 words · a 30 s video holds at most 99, told word for word')).toBeInTheDocument();
    expect(screen.getByLabelText('Topic (optional)')).toHaveValue('');
    await user.click(submitButton());
    await screen.findByText(MESSAGES.submitSuccess);
    expect(requestsTo(requests, '/api/videos/generate')[0]?.body).toMatchObject({
      topic: 'Honeybees dance to share directions.',
      source: { kind: 'script', text: 'Honeybees dance to share directions. The waggle points toward the flowers.' },
    });
  });

  it('takes a link as a url source, and "Make a video of this page" fills the article read by the host, credited to its page', async () => {
    const article = {
      kind: 'article' as const,
      text: 'Lighthouses guide ships home. Each one flashes its own pattern.',
      title: 'How lighthouses work',
      url: 'https://coast.example/lighthouses',
    };
    const read = vi.fn(async () => article);
    const { user, requests } = open({ pageArticle: { read } });
    await user.click(screen.getByRole('button', { name: 'Article or link' }));
    const box = await screen.findByLabelText('Article text or link');
    await user.type(box, 'https://coast.example/lighthouses');
    expect(screen.getByText(/^A link: the page is read when you generate/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Make a video of this page' }));
    expect(read).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('link', { name: 'How lighthouses work' })).toHaveAttribute('href', 'https://coast.example/lighthouses');
    expect(screen.getByLabelText('Article text or link')).toHaveValue(article.text);
    await user.selectOptions(screen.getByLabelText('Language', { exact: true }), 'English');
    await user.click(await screen.findByRole('radio', { name: 'Bella' }));
    await user.click(submitButton());
    await screen.findByText(MESSAGES.submitSuccess);
    expect(requestsTo(requests, '/api/videos/generate')[0]?.body).toMatchObject({ topic: 'How lighthouses work', source: article });
  });

  it('says why the page could not be read', async () => {
    const { user } = open({ pageArticle: { read: async () => Promise.reject(new Error('This page has no article to tell.')) } });
    await user.click(screen.getByRole('button', { name: 'Make a video of this page' }));
    expect(await screen.findByText('This page has no article to tell.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Topic' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('credits the source of a video in Recent Videos', async () => {
    open({
      jobs: [
        job('a', 'How lighthouses work', 'completed', 1, {
          params: {
            topic: 'How lighthouses work',
            duration: 30,
            language: 'en',
            source: { kind: 'article', title: 'How lighthouses work', url: 'https://coast.example/l' },
          },
        }),
        job('b', 'My words', 'completed', 2, { params: { topic: 'My words', duration: 30, language: 'en', source: { kind: 'script' } } }),
      ],
    });
    const recent = await loadedRecentVideos();
    await within(recent).findByText('My words');
    expect(within(recent).getByRole('link', { name: 'How lighthouses work' })).toHaveAttribute('href', 'https://coast.example/l');
    expect(within(recent).getByText('Based on: your script')).toBeInTheDocument();
  });
});
