// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeFetch, renderWithServices } from '../shared/voices/voices-test-harness.js';
import { generationRequest, STUDIO_DEFAULTS } from '../shared/generation/generation-form-model.js';
import { SourceFields } from './source-fields.js';
import { TOPIC_ONLY, type SourceDraft } from '../shared/generation/source-draft.js';
import { resetWikipediaLookUp } from './wikipedia-line.js';

const OCTOPUS = {
  articles: [
    { title: 'Octopus', url: 'https://en.wikipedia.org/wiki/Octopus', description: 'An octopus is a soft-bodied, eight-limbed mollusc.' },
    { title: 'Heart', url: 'https://en.wikipedia.org/wiki/Heart', description: 'The heart is a muscular organ.' },
  ],
  match: 'Octopus',
};

/** The form's source and topic as a generate form holds them, with what was last handed up. */
function Form({ onDraft }: { onDraft(draft: SourceDraft): void }) {
  const [topic, setTopic] = useState('');
  const [source, setSource] = useState<SourceDraft>(TOPIC_ONLY);
  return (
    <SourceFields
      idBase="f"
      topic={topic}
      source={source}
      duration={30}
      onTopic={setTopic}
      onSource={(next) => {
        setSource(next);
        onDraft(next);
      }}
      language="en"
    />
  );
}

/** `signedIn` false: a visitor's form, which looks nothing up. */
function show(answer: (q: string, language: string) => { status?: number; body: unknown }, signedIn = true) {
  const drafts: SourceDraft[] = [];
  const fake = fakeFetch((url) => answer(url.searchParams.get('q') ?? '', url.searchParams.get('language') ?? ''));
  renderWithServices(<Form onDraft={(draft) => drafts.push(draft)} />, { fetch: fake.fetch, role: signedIn ? 'user' : null });
  const lookUps = () => fake.calls.filter((call) => call.url.pathname === '/api/research/articles');
  return { drafts, lookUps, type: (topic: string) => fireEvent.change(screen.getByLabelText(/^Topic/), { target: { value: topic } }) };
}

const request = (topic: string, source: SourceDraft) =>
  generationRequest({ ...STUDIO_DEFAULTS, topic, language: 'en', voice: 'en-us-m3', source });

beforeEach(resetWikipediaLookUp);
afterEach(cleanup);

describe("Topic mode's Facts from Wikipedia line", () => {
  it('shows the article the video will use, once the creator pauses typing, asked once in the narration language', async () => {
    const form = show(() => ({ body: OCTOPUS }));
    form.type('Why octo');
    form.type('Why octopuses have three hearts');
    expect(await screen.findByText('Octopus', {}, { timeout: 3000 })).toHaveClass('rs-wiki__title');
    expect(screen.getByText(/Facts from Wikipedia:/)).toBeInTheDocument();
    expect(form.lookUps()).toHaveLength(1);
    expect(form.lookUps()[0]!.url.searchParams.get('q')).toBe('Why octopuses have three hearts');
    expect(form.lookUps()[0]!.url.searchParams.get('language')).toBe('en');
    // The server's own match needs nothing in the request: it stays a topic video.
    expect(form.drafts).toEqual([]);
    expect(request('Why octopuses have three hearts', TOPIC_ONLY)).not.toHaveProperty('source');
  });

  it('sends the article the creator picks instead, and forgets the pick when the topic changes', async () => {
    const form = show(() => ({ body: OCTOPUS }));
    form.type('Why octopuses have three hearts');
    fireEvent.click(await screen.findByRole('button', { name: 'Change the Wikipedia article (now Octopus)' }, { timeout: 3000 }));
    expect(screen.getByRole('radio', { name: /^Octopus/ })).toBeChecked();
    fireEvent.click(screen.getByRole('radio', { name: /^Heart/ }));
    expect(await screen.findByRole('button', { name: 'Change the Wikipedia article (now Heart)' })).toBeInTheDocument();
    expect(screen.queryByRole('radio')).not.toBeInTheDocument();
    const picked = form.drafts.at(-1)!;
    expect(picked.research).toEqual({ source: { kind: 'wikipedia', title: 'Heart' } });
    expect(request('Why octopuses have three hearts', picked)?.source).toEqual({ kind: 'wikipedia', title: 'Heart' });
    expect(request('Why octopuses have three hearts', picked)?.topic).toBe('Why octopuses have three hearts');

    form.type('Why octopuses have blue blood');
    expect(form.drafts.at(-1)!.research).toBeUndefined();
    expect(
      await screen.findByRole('button', { name: 'Change the Wikipedia article (now Octopus)' }, { timeout: 3000 }),
    ).toBeInTheDocument();
  });

  it("asks nothing after Don't look it up, sends research: false, and can look it up again", async () => {
    const form = show(() => ({ body: OCTOPUS }));
    form.type('Why octopuses have three hearts');
    fireEvent.click(await screen.findByRole('button', { name: /Change the Wikipedia article/ }, { timeout: 3000 }));
    fireEvent.click(screen.getByRole('radio', { name: /Don't look it up/ }));
    expect(screen.getByText('Not looked up on Wikipedia')).toBeInTheDocument();
    const off = form.drafts.at(-1)!;
    expect(request('Why octopuses have three hearts', off)).toMatchObject({ research: false });
    expect(request('Why octopuses have three hearts', off)).not.toHaveProperty('source');
    const asked = form.lookUps().length;
    form.type('Why squids have three hearts');
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(form.lookUps()).toHaveLength(asked);
    expect(screen.getByText('Not looked up on Wikipedia')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'look it up' }));
    expect(form.drafts.at(-1)!.research).toBeUndefined();
    expect(await screen.findByRole('button', { name: /Change the Wikipedia article/ }, { timeout: 3000 })).toBeInTheDocument();
  });

  it('offers the matches to choose from when none clearly matches, and says so when Wikipedia has nothing', async () => {
    const form = show((q) => ({ body: q.includes('party') ? { articles: [] } : { articles: OCTOPUS.articles } }));
    form.type('Eight arms, three hearts');
    fireEvent.click(await screen.findByRole('button', { name: 'Choose a Wikipedia article' }, { timeout: 3000 }));
    expect(screen.getByText('Told from the topic alone: no article found — pick one')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /^Octopus/ })).not.toBeChecked();
    form.type('My birthday party');
    expect(await screen.findByRole('note', {}, { timeout: 3000 })).toHaveTextContent(/^Told from the topic alone: no article found$/);
  });

  it.each([
    ['unreachable', 'Told from the topic alone: Wikipedia could not be reached'],
    ['off', 'Told from the topic alone: looking topics up on Wikipedia is switched off on this server'],
  ] as const)(
    'says the video is told from the topic alone when research is %s, and stops asking for a while',
    async (unavailable, note) => {
      // An answer, not an error (issue 49 item 9: a 503 per topic typed, and the line just vanished).
      const form = show(() => ({ body: { unavailable, articles: [] } }));
      form.type('Why octopuses have three hearts');
      await waitFor(() => expect(form.lookUps()).toHaveLength(1), { timeout: 3000 });
      expect(await screen.findByRole('note')).toHaveTextContent(note);
      form.type('Why volcanoes erupt');
      // Not "Looking for…" while the server has said it cannot look anything up: the note stays.
      expect(screen.queryByText(/Looking for a Wikipedia article/)).not.toBeInTheDocument();
      expect(screen.getByRole('note')).toHaveTextContent(note);
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(form.lookUps()).toHaveLength(1);
      expect(screen.getByRole('note')).toHaveTextContent(note);
    },
  );

  it('is not shown to a visitor, for an empty topic, or beside a script', async () => {
    const form = show(() => ({ body: OCTOPUS }), false);
    form.type('Why octopuses have three hearts');
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(form.lookUps()).toHaveLength(0);
    cleanup();
    const signedIn = show(() => ({ body: OCTOPUS }));
    signedIn.type('   ');
    fireEvent.click(screen.getByRole('button', { name: 'Script' }));
    signedIn.type('Why octopuses have three hearts');
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(signedIn.lookUps()).toHaveLength(0);
    expect(screen.queryByText(/Wikipedia/)).not.toBeInTheDocument();
  });
});
