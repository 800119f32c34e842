import { DEFAULT_PREVIEW_VOICE_PROVIDER, MESSAGES, voiceSamplePath, type VoiceProviderId } from '@reelsmith/contracts';
import { useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { apiUrl, usePlatform } from '../../platform.js';
import { audioCoordinator, claimPlayback, releasePlayback } from './audio-coordinator.js';

export type PreviewState = 'idle' | 'loading' | 'playing' | 'error';

export interface VoicePreviewProps {
  voiceId: string;
  voiceName: string;
  language: string;
  /** elevenlabs unless told otherwise (the default preview provider). */
  provider?: VoiceProviderId;
  /** Unique per voice, language and provider; defaults to all three joined. */
  compositeVoiceId?: string;
  /** Shown beside the button, e.g. "Preview". */
  label?: string;
}

export const PROVIDER_LABELS: Record<VoiceProviderId, string> = {
  azure: 'Azure',
  elevenlabs: 'ElevenLabs',
  neural: 'Natural (on this server)',
  offline: 'Offline',
};

/**
 * Play/pause control for one voice's static sample: idle, loading,
 * playing, error. Only one preview sounds at a time; a new voice or language resets it.
 */
export function VoicePreview({
  voiceId,
  voiceName,
  language,
  provider = DEFAULT_PREVIEW_VOICE_PROVIDER,
  compositeVoiceId,
  label,
}: VoicePreviewProps) {
  const platform = usePlatform();
  const id = compositeVoiceId ?? `${provider}:${voiceId}:${language}`;
  const src = apiUrl(platform, voiceSamplePath(provider, voiceId, language));
  const [state, setState] = useState<PreviewState>('idle');
  const [progress, setProgress] = useState(0);
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const activeId = useStore(audioCoordinator, (s) => s.current?.id ?? null);

  // A different sample (voice, language or provider) starts from scratch.
  useEffect(() => {
    setState('idle');
    setProgress(0);
    const audio = audioRef.current;
    return () => {
      if (audio) {
        audio.pause();
        releasePlayback(audio);
      }
    };
  }, [src]);

  // Another preview took over without this one hearing its pause event.
  useEffect(() => {
    if (activeId !== id) setState((current) => (current === 'playing' || current === 'loading' ? 'idle' : current));
  }, [activeId, id]);

  const onPause = () => {
    if (audioRef.current) releasePlayback(audioRef.current);
    setState((current) => (current === 'error' ? current : 'idle'));
  };
  const onEnded = () => {
    if (audioRef.current) releasePlayback(audioRef.current);
    setProgress(0);
    setState('idle');
  };
  const onTimeUpdate = () => {
    const audio = audioRef.current;
    if (audio && audio.duration > 0 && Number.isFinite(audio.duration))
      setProgress(Math.min(100, (audio.currentTime / audio.duration) * 100));
  };
  const onError = () => {
    if (audioRef.current) releasePlayback(audioRef.current);
    setState('error');
  };

  const toggle = () => {
    const audio = audioRef.current;
    if (state === 'error' || !audio) return;
    if (state === 'playing' || state === 'loading') {
      audio.pause();
      return;
    }
    setState('loading');
    claimPlayback(id, audio);
    audio.play().catch((error: unknown) => {
      // AbortError: paused (by the user or another preview) before it could start.
      if (error instanceof DOMException && error.name === 'AbortError') return;
      releasePlayback(audio);
      setState('error');
    });
  };

  const playing = state === 'playing' || state === 'loading';
  const tooltip =
    state === 'error'
      ? MESSAGES.previewTooltipUnavailable
      : `Preview ${voiceName} (${language.toUpperCase()}, ${PROVIDER_LABELS[provider]})`;
  return (
    <div className={`rs-voice-preview rs-voice-preview--${state}`} title={tooltip} data-state={state}>
      <button
        type="button"
        className="rs-voice-preview__button"
        onClick={toggle}
        disabled={state === 'error'}
        aria-label={playing ? `Pause preview of ${voiceName}` : `Play preview of ${voiceName}`}
        aria-busy={state === 'loading'}
      >
        {state === 'loading' ? <span className="rs-voice-preview__spinner" aria-hidden="true" /> : playing ? <PauseIcon /> : <PlayIcon />}
      </button>
      {label && <span className="rs-voice-preview__label">{label}</span>}
      {state === 'error' ? (
        <span className="rs-voice-preview__error">{MESSAGES.previewUnavailable}</span>
      ) : (
        <div
          className="rs-voice-preview__progress"
          role="progressbar"
          aria-label={`Preview progress of ${voiceName}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(progress)}
        >
          <div className="rs-voice-preview__progress-fill" style={{ width: `${progress}%` }} />
        </div>
      )}
      {/* preload none: nothing is fetched until the creator presses play. */}
      <audio
        ref={audioRef}
        src={src}
        preload="none"
        data-voice-id={voiceId}
        onPlaying={() => setState('playing')}
        onPause={onPause}
        onEnded={onEnded}
        onTimeUpdate={onTimeUpdate}
        onError={onError}
        hidden
      />
      <span className={`rs-voice-preview__chip rs-voice-preview__chip--${provider}`}>{PROVIDER_LABELS[provider]}</span>
    </div>
  );
}

function PlayIcon() {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
      <path d="M8 5.5v13l10.5-6.5z" fill="currentColor" />
    </svg>
  );
}

function PauseIcon() {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
      <path d="M7 5h3.5v14H7zM13.5 5H17v14h-3.5z" fill="currentColor" />
    </svg>
  );
}
