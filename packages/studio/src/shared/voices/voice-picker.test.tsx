// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import type { Voice } from '@reelsmith/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VoicePicker, voiceMeta } from './voice-picker.js';
import { fakeFetch, renderWithServices } from './voices-test-harness.js';

const voice = (id: string, name: string, gender: 'male' | 'female'): Voice => ({
  id,
  name,
  gender,
  description: `${name} voice`,
  accent: 'Neutral',
  age: 'adult',
});

const CATALOGUE: Record<string, Voice[]> = {
  en: [
    voice('en-m1', 'James', 'male'),
    voice('en-m2', 'Oliver', 'male'),
    voice('en-f1', 'Emma', 'female'),
    voice('shared-f', 'Ava', 'female'),
  ],
  de: [voice('de-m1', 'Lukas', 'male'), voice('de-f1', 'Mia', 'female'), voice('shared-f', 'Ava', 'female')],
};

function voicesApi() {
  return fakeFetch((url) => {
    const language = url.searchParams.get('language') ?? '';
    if (url.pathname !== '/voices') return { status: 404, body: { statusCode: 404, error: 'Not Found', message: 'Not found' } };
    if (language === 'ja') return { status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'boom' } };
    const voices = CATALOGUE[language] ?? [];
    return {
      body: {
        language,
        provider: url.searchParams.get('provider') ?? 'offline',
        voices: { male: voices.filter((v) => v.gender === 'male'), female: voices.filter((v) => v.gender === 'female') },
      },
    };
  });
}

/** The picker inside a tiny form that owns the value, as the studio form does. */
function Harness({ language, initialVoice = '', onChange }: { language: string; initialVoice?: string; onChange?: (id: string) => void }) {
  const [value, setValue] = useState(initialVoice);
  return (
    <>
      <VoicePicker
        language={language}
        value={value}
        onChange={(id) => {
          onChange?.(id);
          setValue(id);
        }}
      />
      <output data-testid="value">{value}</output>
    </>
  );
}

describe('VoicePicker', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('marks natural and basic voices and says the natural ones are downloading, or that a language has none', async () => {
    const natural: Voice = { ...voice('kokoro-af-heart', 'Heart', 'female'), quality: 'natural' };
    const basic: Voice = { ...voice('en-m1', 'James', 'male'), quality: 'basic' };
    const api = fakeFetch((url) => {
      const language = url.searchParams.get('language') ?? '';
      const de = language === 'de';
      return {
        body: {
          language,
          provider: 'neural',
          voices: { male: [basic], female: de ? [] : [natural] },
          naturalVoices: de
            ? { state: 'downloading', progress: 43, message: 'Natural voices are downloading (43%)', languageHasNaturalVoices: false }
            : { state: 'downloading', progress: 43, message: 'Natural voices are downloading (43%)', languageHasNaturalVoices: true },
        },
      };
    });
    renderWithServices(<Harness language="en" />, { fetch: api.fetch });
    expect(await screen.findByText('Natural voices are downloading (43%). Until then videos use a basic voice.')).toBeInTheDocument();
    const female = screen.getByRole('radiogroup', { name: 'Female voices' });
    expect(within(female).getByText('Natural')).toHaveAttribute('data-quality', 'natural');
    expect(within(screen.getByRole('radiogroup', { name: 'Male voices' })).getByText('Basic')).toHaveAttribute('data-quality', 'basic');
    cleanup();
    renderWithServices(<Harness language="de" />, { fetch: api.fetch });
    expect(await screen.findByText('No natural voice speaks German yet: its voices are the basic ones.')).toBeInTheDocument();
  });

  it('lists male and female voices for the language and picks one, highlighting its list', async () => {
    const user = userEvent.setup();
    const api = voicesApi();
    renderWithServices(<Harness language="en" />, { fetch: api.fetch });
    const male = await screen.findByRole('radiogroup', { name: 'Male voices' });
    const female = screen.getByRole('radiogroup', { name: 'Female voices' });
    expect(
      within(male)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('aria-label')),
    ).toEqual(['James', 'Oliver']);
    expect(
      within(female)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('aria-label')),
    ).toEqual(['Emma', 'Ava']);
    expect(screen.getByText('Please select a voice from either male or female voices above.')).toBeInTheDocument();
    expect(await within(male).findByRole('button', { name: 'Play preview of James' })).toBeInTheDocument();

    await user.click(within(female).getByRole('radio', { name: 'Emma' }));
    expect(screen.getByTestId('value').textContent).toBe('en-f1');
    expect((within(female).getByRole('radio', { name: 'Emma' }) as HTMLInputElement).checked).toBe(true);
    expect(female.closest('section')?.getAttribute('data-active')).toBe('true');
    expect(male.closest('section')?.getAttribute('data-active')).toBe('false');
    expect(screen.queryByText('Please select a voice from either male or female voices above.')).toBeNull();

    await user.click(within(male).getByRole('radio', { name: 'Oliver' }));
    expect(screen.getByTestId('value').textContent).toBe('en-m2');
    expect(male.closest('section')?.getAttribute('data-active')).toBe('true');
    expect((within(female).getByRole('radio', { name: 'Emma' }) as HTMLInputElement).checked).toBe(false);
    expect(api.calls.map((call) => call.url.search)).toEqual(['?language=en']);
  });

  it('debounces the fetch: a quick language change loads only the last language', async () => {
    const api = voicesApi();
    const view = renderWithServices(<Harness language="en" />, { fetch: api.fetch });
    await new Promise((resolve) => setTimeout(resolve, 100));
    view.rerender(<Harness language="de" />);
    await screen.findByRole('radio', { name: 'Lukas' });
    expect(api.calls.map((call) => call.url.searchParams.get('language'))).toEqual(['de']);
  });

  it('clears a chosen voice that the new language does not offer, and keeps one it does', async () => {
    const onChange = vi.fn();
    const api = voicesApi();
    const view = renderWithServices(<Harness language="en" initialVoice="en-m1" onChange={onChange} />, { fetch: api.fetch });
    await screen.findByRole('radio', { name: 'James' });
    expect(onChange).not.toHaveBeenCalled();

    view.rerender(<Harness language="de" onChange={onChange} />);
    await screen.findByRole('radio', { name: 'Lukas' });
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(''));
    expect(screen.getByTestId('value').textContent).toBe('');
    expect(screen.getByText('Please select a voice from either male or female voices above.')).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: 'Ava' }));
    onChange.mockClear();
    view.rerender(<Harness language="en" onChange={onChange} />);
    await screen.findByRole('radio', { name: 'James' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByTestId('value').textContent).toBe('shared-f');
  });

  it('clears the voice when the language is removed and shows no hint without a language', async () => {
    const onChange = vi.fn();
    const api = voicesApi();
    const view = renderWithServices(<Harness language="en" initialVoice="en-m1" onChange={onChange} />, { fetch: api.fetch });
    await screen.findByRole('radio', { name: 'James' });
    view.rerender(<Harness language="" onChange={onChange} />);
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(''));
    expect(screen.queryByText('Please select a voice from either male or female voices above.')).toBeNull();
    expect(screen.getByText('Choose a language to see its voices.')).toBeInTheDocument();
  });

  it("says 'Failed to load voices' when the call fails", async () => {
    renderWithServices(<Harness language="ja" />, { fetch: voicesApi().fetch });
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load voices');
  });

  it('shows the form validation error, but only the inline hint once a language is chosen', async () => {
    renderWithServices(<VoicePicker language="" value="" onChange={() => undefined} error="Please select a voice" />, {
      fetch: voicesApi().fetch,
    });
    expect(screen.getByText('Please select a voice')).toBeInTheDocument();
    cleanup();
    renderWithServices(<VoicePicker language="en" value="" onChange={() => undefined} error="Please select a voice" />, {
      fetch: voicesApi().fetch,
    });
    expect(screen.getByText('Please select a voice from either male or female voices above.')).toBeInTheDocument();
    expect(screen.queryByText('Please select a voice')).toBeNull();
  });

  it('describes a voice without repeating an accent its description names', () => {
    expect(voiceMeta({ description: 'Clear, even narrator, American accent', accent: 'American', age: 'young adult' })).toBe(
      'Clear, even narrator, American accent · young adult',
    );
    expect(voiceMeta({ description: 'Warm storyteller', accent: 'British', age: 'middle aged' })).toBe(
      'Warm storyteller · British · middle aged',
    );
  });
});
