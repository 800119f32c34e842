// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { VideoNotes } from './video-notes.js';

afterEach(cleanup);

describe('VideoNotes under a finished video', () => {
  it("says each of the result's notes", () => {
    const voice = 'Natural voices are not downloaded yet (npm run voices:download): narrated with the basic voice instead of Heart.';
    render(<VideoNotes notes={[voice, 'Another note.']} />);
    const note = screen.getByRole('note', { name: 'About this video' });
    expect(note).toHaveTextContent(voice);
    expect(note).toHaveTextContent('Another note.');
  });

  it('says nothing for a video without notes', () => {
    const { rerender } = render(<VideoNotes notes={[]} />);
    expect(screen.queryByRole('note')).toBeNull();
    rerender(<VideoNotes notes={undefined} />);
    expect(screen.queryByRole('note')).toBeNull();
  });
});
