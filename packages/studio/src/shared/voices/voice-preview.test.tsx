// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { audioCoordinator, stopAllPlayback } from './audio-coordinator.js';
import { VoicePreview } from './voice-preview.js';
import { fakeFetch, mockMediaPlayback, renderWithServices, TEST_API_BASE } from './voices-test-harness.js';

const { fetch } = fakeFetch(() => ({ body: {} }));

describe('VoicePreview', () => {
  let media: ReturnType<typeof mockMediaPlayback>;
  beforeEach(() => {
    media = mockMediaPlayback((src) => src.includes('broken'));
  });
  afterEach(() => {
    cleanup();
    stopAllPlayback();
    vi.restoreAllMocks();
  });

  it('plays the static sample from the API host, then pauses', async () => {
    const user = userEvent.setup();
    renderWithServices(<VoicePreview voiceId="en-us-f3" voiceName="Emma" language="en" provider="offline" label="Preview" />, { fetch });
    expect(screen.getByText('Preview')).toBeInTheDocument();
    expect(screen.getByText('Offline')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Play preview of Emma' }));
    await screen.findByRole('button', { name: 'Pause preview of Emma' });
    expect(media.played).toEqual([`${TEST_API_BASE}/audio/voice-samples/voice-en-us-f3-en.mp3`]);
    await waitFor(() => expect(screen.getByTitle(/Emma/).getAttribute('data-state')).toBe('playing'));

    await user.click(screen.getByRole('button', { name: 'Pause preview of Emma' }));
    expect(screen.getByRole('button', { name: 'Play preview of Emma' })).toBeInTheDocument();
    expect(screen.getByTitle(/Emma/).getAttribute('data-state')).toBe('idle');
    expect(audioCoordinator.getState().current).toBeNull();
  });

  it('uses the azure native path and shows the language in upper case in the tooltip', () => {
    renderWithServices(<VoicePreview voiceId="hi-IN-MadhurNeural" voiceName="Madhur" language="hi" provider="azure" />, { fetch });
    const control = screen.getByTitle(/Madhur/);
    expect(control.getAttribute('title')).toContain('(HI');
    expect(screen.getByText('Azure')).toBeInTheDocument();
  });

  it('defaults to the elevenlabs provider when none is given', async () => {
    const user = userEvent.setup();
    renderWithServices(<VoicePreview voiceId="21m00Tcm4TlvDq8ikWAM" voiceName="Rachel" language="es" />, { fetch });
    expect(screen.getByText('ElevenLabs')).toBeInTheDocument();
    expect(screen.getByTitle(/Rachel/).getAttribute('title')).toBe('Preview Rachel (ES, ElevenLabs)');
    await user.click(screen.getByRole('button', { name: 'Play preview of Rachel' }));
    await screen.findByRole('button', { name: 'Pause preview of Rachel' });
    expect(media.played).toEqual([`${TEST_API_BASE}/audio/voice-samples/voice-21m00Tcm4TlvDq8ikWAM-es.mp3`]);
  });

  it('plays one voice at a time: starting another stops the first', async () => {
    const user = userEvent.setup();
    renderWithServices(
      <>
        <VoicePreview voiceId="en-us-f3" voiceName="Emma" language="en" provider="offline" />
        <VoicePreview voiceId="en-us-m3" voiceName="James" language="en" provider="offline" />
      </>,
      { fetch },
    );
    await user.click(screen.getByRole('button', { name: 'Play preview of Emma' }));
    await screen.findByRole('button', { name: 'Pause preview of Emma' });
    await user.click(screen.getByRole('button', { name: 'Play preview of James' }));
    await screen.findByRole('button', { name: 'Pause preview of James' });
    expect(screen.getByRole('button', { name: 'Play preview of Emma' })).toBeInTheDocument();
    expect(media.pause).toHaveBeenCalledTimes(1);
    expect(audioCoordinator.getState().current?.id).toBe('offline:en-us-m3:en');
  });

  it('marks a sample that cannot play as unavailable', async () => {
    const user = userEvent.setup();
    renderWithServices(<VoicePreview voiceId="broken" voiceName="Ghost" language="de" provider="elevenlabs" />, { fetch });
    await user.click(screen.getByRole('button', { name: 'Play preview of Ghost' }));
    await screen.findByText('Preview unavailable');
    const control = screen.getByTitle('Audio preview not available');
    expect(control.getAttribute('data-state')).toBe('error');
    expect((screen.getByRole('button', { name: 'Play preview of Ghost' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('resets playback when the voice or language changes', async () => {
    const user = userEvent.setup();
    const view = renderWithServices(<VoicePreview voiceId="en-us-f3" voiceName="Emma" language="en" provider="offline" />, { fetch });
    await user.click(screen.getByRole('button', { name: 'Play preview of Emma' }));
    await screen.findByRole('button', { name: 'Pause preview of Emma' });

    act(() => view.rerender(<VoicePreview voiceId="en-us-f3" voiceName="Emma" language="fr" provider="offline" />));
    expect(screen.getByRole('button', { name: 'Play preview of Emma' })).toBeInTheDocument();
    expect(media.pause).toHaveBeenCalled();
    expect(audioCoordinator.getState().current).toBeNull();
    expect(screen.getByTitle(/Emma/).getAttribute('title')).toContain('(FR');

    await user.click(screen.getByRole('button', { name: 'Play preview of Emma' }));
    await screen.findByRole('button', { name: 'Pause preview of Emma' });
    expect(media.played.at(-1)).toBe(`${TEST_API_BASE}/audio/voice-samples/voice-en-us-f3-fr.mp3`);
  });

  it('shows playback progress from the audio time', async () => {
    const user = userEvent.setup();
    renderWithServices(<VoicePreview voiceId="en-us-f3" voiceName="Emma" language="en" provider="offline" />, { fetch });
    await user.click(screen.getByRole('button', { name: 'Play preview of Emma' }));
    await screen.findByRole('button', { name: 'Pause preview of Emma' });
    const audio = audioCoordinator.getState().current!.audio;
    Object.defineProperty(audio, 'duration', { configurable: true, value: 4 });
    Object.defineProperty(audio, 'currentTime', { configurable: true, value: 1 });
    act(() => void audio.dispatchEvent(new Event('timeupdate')));
    expect(screen.getByRole('progressbar', { name: 'Preview progress of Emma' }).getAttribute('aria-valuenow')).toBe('25');
    act(() => void audio.dispatchEvent(new Event('ended')));
    expect(screen.getByRole('button', { name: 'Play preview of Emma' })).toBeInTheDocument();
  });
});
