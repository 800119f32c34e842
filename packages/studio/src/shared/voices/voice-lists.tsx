import {
  LANGUAGE_NAMES,
  MESSAGES,
  VALIDATION_MESSAGES,
  type Gender,
  type Voice,
  type VoiceLanguage,
  type VoiceProviderId,
  type VoicesResponse,
} from '@reelsmith/contracts';
import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { asVoiceLanguage } from './voice-language.js';

// The sample player (its audio handling and progress) loads beside the voices list, which itself
// waits for GET /voices: it is not part of the extension popup's first load (100 KB gzip budget).
const VoicePreview = lazy(() => import('./voice-preview.js').then((module) => ({ default: module.VoicePreview })));
import './voices.css';

/** A voice list request as the lists show it, whoever fetched it (React Query in the studio, the popup's own request). */
export interface VoiceListState {
  data: VoicesResponse | undefined;
  isLoading: boolean;
  isError: boolean;
  /** False while the language (or provider) is still changing: no request for it is out yet. */
  settled: boolean;
  /** The language `data` answers. */
  settledLanguage: VoiceLanguage | null;
}

export interface VoicePickerProps {
  /** The form's language code; '' while none is chosen. */
  language: string;
  /** Omitted: the server's current voice provider. */
  provider?: VoiceProviderId;
  /** The chosen voice id, '' for none. */
  value: string;
  onChange: (voiceId: string) => void;
  /** The form's validation message for the voice field. */
  error?: string;
}

const GROUPS: { gender: Gender; label: string }[] = [
  { gender: 'male', label: 'Male voices' },
  { gender: 'female', label: 'Female voices' },
];

/** "Clear, even narrator, American accent · young adult": the accent only when the description lacks it. */
export function voiceMeta(voice: { description: string; accent: string; age: string }): string {
  const parts = [voice.description];
  if (voice.accent && !voice.description.toLowerCase().includes(voice.accent.toLowerCase())) parts.push(voice.accent);
  if (voice.age) parts.push(voice.age);
  return parts.filter(Boolean).join(' · ');
}

/**
 * Voice selection: a male and a female list side by side, the list the
 * chosen voice came from highlighted, a preview per voice. A chosen voice that the new language or
 * provider does not offer is cleared.
 *
 * The lists show a voice request they are given: the studio's VoicePicker passes its cached
 * query, the popup its own request.
 */
export function VoiceLists({ language, value, onChange, error, voices }: Omit<VoicePickerProps, 'provider'> & { voices: VoiceListState }) {
  const { data, isLoading, isError, settled, settledLanguage } = voices;
  const [activeGender, setActiveGender] = useState<Gender>('male');
  const baseId = useId();

  const languageCode = asVoiceLanguage(language);
  const current = settled && data && data.language === settledLanguage && settledLanguage === languageCode ? data : undefined;

  useEffect(() => {
    if (!value) return;
    if (!languageCode) {
      onChange('');
      return;
    }
    if (!current) return;
    const all = [...current.voices.male, ...current.voices.female];
    const chosen = all.find((voice) => voice.id === value);
    if (!chosen) onChange('');
    else setActiveGender(chosen.gender);
  }, [current, languageCode, value, onChange]);

  const choose = (voice: Voice) => {
    setActiveGender(voice.gender);
    onChange(voice.id);
  };

  let body;
  if (!languageCode) {
    body = <p className="rs-voice-picker__note">Choose a language to see its voices.</p>;
  } else if (isError && settled) {
    body = (
      <p className="rs-voice-picker__error" role="alert">
        {MESSAGES.voicesLoadFailed}
      </p>
    );
  } else if (!current || isLoading) {
    body = (
      <p className="rs-voice-picker__note" role="status">
        Loading {LANGUAGE_NAMES[languageCode]} voices…
      </p>
    );
  } else {
    const natural = current.naturalVoices;
    // With the natural voices' provider: why a natural voice would be spoken by the basic one now, or that the language has none.
    const naturalNote =
      natural?.languageHasNaturalVoices === false
        ? `No natural voice speaks ${LANGUAGE_NAMES[languageCode]} yet: its voices are the basic ones.`
        : natural?.message
          ? `${natural.message}. Until then videos use a basic voice.`
          : null;
    body = (
      <>
        {naturalNote && (
          <p className="rs-voice-picker__note" role="status">
            {naturalNote}
          </p>
        )}
        <div className="rs-voice-picker__columns">
          {GROUPS.map(({ gender, label }) => {
            const voices = current.voices[gender];
            const headingId = `${baseId}-${gender}`;
            return (
              <section key={gender} className="rs-voice-picker__group" data-active={activeGender === gender} aria-labelledby={headingId}>
                <button
                  type="button"
                  id={headingId}
                  className="rs-voice-picker__group-title"
                  onClick={() => setActiveGender(gender)}
                  aria-pressed={activeGender === gender}
                >
                  {label} <span className="rs-badge">{voices.length}</span>
                </button>
                <div role="radiogroup" aria-label={label} className="rs-voice-picker__list">
                  {voices.length === 0 && <p className="rs-voice-picker__note">No {gender} voices for this language.</p>}
                  {voices.map((voice) => {
                    const descriptionId = `${baseId}-${voice.id}-description`;
                    return (
                      <div key={voice.id} className="rs-voice-option" data-selected={voice.id === value}>
                        <label className="rs-voice-option__label">
                          <input
                            type="radio"
                            name={`${baseId}-${gender}`}
                            value={voice.id}
                            checked={voice.id === value}
                            onChange={() => choose(voice)}
                            aria-label={voice.name}
                            aria-describedby={descriptionId}
                          />
                          <span className="rs-voice-option__text">
                            <span className="rs-voice-option__name">
                              {voice.name}
                              {voice.quality && (
                                <span className="rs-badge rs-voice-option__quality" data-quality={voice.quality}>
                                  {voice.quality === 'natural' ? 'Natural' : 'Basic'}
                                </span>
                              )}
                            </span>
                            <span id={descriptionId} className="rs-voice-option__meta">
                              {voiceMeta(voice)}
                            </span>
                          </span>
                        </label>
                        <Suspense fallback={<span className="rs-voice-preview" aria-hidden="true" />}>
                          <VoicePreview voiceId={voice.id} voiceName={voice.name} language={current.language} provider={current.provider} />
                        </Suspense>
                      </div>
                    );
                  })}
                </div>
              </section>
            );
          })}
        </div>
      </>
    );
  }

  return (
    <div className="rs-voice-picker">
      {body}
      {/* With a language chosen, the spec's inline hint says it; the field error would repeat it. */}
      {error && error !== VALIDATION_MESSAGES.voiceHint && !(languageCode && !value) && (
        <p className="rs-field__error" role="alert">
          {error}
        </p>
      )}
      {languageCode && !value && <p className="rs-field__error rs-voice-picker__hint">{VALIDATION_MESSAGES.voiceHint}</p>}
    </div>
  );
}
