// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ResearchNote } from './research-note.js';

afterEach(cleanup);

describe('ResearchNote under a finished video', () => {
  it('says why a video was told without Wikipedia', () => {
    render(<ResearchNote research={{ used: false, reason: 'unreachable' }} />);
    expect(screen.getByRole('note')).toHaveTextContent('Told from the topic alone: Wikipedia could not be reached');
  });

  it('offers the articles the search found when none matched', () => {
    render(
      <ResearchNote
        research={{
          used: false,
          reason: 'no-article',
          articles: [{ title: 'Cat', url: 'https://en.wikipedia.org/wiki/Cat', description: 'Small domesticated carnivorous mammal' }],
        }}
      />,
    );
    const note = screen.getByRole('note');
    expect(note).toHaveTextContent('Told from the topic alone: no article found — pick one');
    const found = within(note).getByRole('list', { name: 'Articles the search found' });
    expect(within(found).getByRole('link', { name: 'Cat' })).toHaveAttribute('href', 'https://en.wikipedia.org/wiki/Cat');
  });

  it('says no article without "pick one" when the search found nothing, and nothing for a researched video', () => {
    const { rerender } = render(<ResearchNote research={{ used: false, reason: 'no-article' }} />);
    expect(screen.getByRole('note')).toHaveTextContent(/^Told from the topic alone: no article found$/);
    rerender(<ResearchNote research={{ used: true }} />);
    expect(screen.queryByRole('note')).toBeNull();
    rerender(<ResearchNote research={undefined} />);
    expect(screen.queryByRole('note')).toBeNull();
  });
});
