import {
  DURATIONS,
  FREE_VIDEO_MAX_SECONDS,
  LANGUAGE_NAMES,
  MUSIC_CHOICES,
  musicChoiceLabel,
  RESOLUTIONS,
  STORY_STYLES,
  VIDEO_LANGUAGES,
  type MusicChoice,
  type Resolution,
} from '@reelsmith/contracts';
import {
  apiUrl,
  asVoiceLanguage,
  focusFirstInvalidField,
  initialFormValues,
  loadVideoDefaults,
  optionLabel,
  RESOLUTION_LABELS,
  SourceFields,
  TOPIC_ONLY,
  useGenerationSubmit,
  usePlatform,
  validateForm,
  VoiceLists,
  type GenerationFormValues,
} from '@reelsmith/studio/popup';
import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from 'react';
import type { ExtensionJobSource } from '../extension-host/extension-job-source.js';
import { usePopupGenerationAccess, usePopupVoices } from './popup-requests.js';
import { loadPopupChoices, savePopupChoices } from './popup-choices.js';

// Loaded when the captions field first shows (just after the first frame), keeping its previews and
// their styles out of the popup's first load; the fallback holds the row's height so nothing moves.
const CaptionStylePicker = lazy(() =>
  import('@reelsmith/studio/caption-style-picker').then((module) => ({ default: module.CaptionStylePicker })),
);

/**
 * The popup's compact studio: topic, style, duration, language, resolution, captions, music and voice;
 * the rest comes from the user's Video Defaults. Language, resolution and captions remember the last
 * choice (captions start on). The background worker submits, so the job outlives the popup.
 */
export function CompactStudioForm({ jobs, activeJobs }: { jobs: ExtensionJobSource; activeJobs: number }) {
  const platform = usePlatform();
  const access = usePopupGenerationAccess();
  const [values, setValues] = useState<GenerationFormValues>(() => {
    const initial = initialFormValues(loadVideoDefaults(platform.storage));
    const last = loadPopupChoices(platform.storage);
    return {
      ...initial,
      language: last.language ?? (initial.language || 'en'),
      resolution: last.resolution ?? initial.resolution,
      enableCaptions: last.enableCaptions,
    };
  });
  const [attempted, setAttempted] = useState(false);
  /** The server's reason the user may not generate; the popup then offers the plans (spec: pricing opens). */
  const [refusal, setRefusal] = useState<string | null>(null);
  const id = useId();
  const voices = usePopupVoices(values.language);
  const voiceProvider = voices.data && voices.data.language === asVoiceLanguage(values.language) ? voices.data.provider : undefined;
  const errors = attempted ? validateForm(values) : {};
  const set = <K extends keyof GenerationFormValues>(field: K, value: GenerationFormValues[K]) => {
    // A shorter duration may be what the free video allows: the refusal no longer holds.
    if (field === 'duration') setRefusal(null);
    setValues((current) => {
      const next = { ...current, [field]: value };
      if (field === 'language' || field === 'resolution' || field === 'enableCaptions') {
        savePopupChoices(platform.storage, { language: next.language, resolution: next.resolution, enableCaptions: next.enableCaptions });
      }
      return next;
    });
  };
  const setVoice = useCallback((voice: string) => setValues((current) => (current.voice === voice ? current : { ...current, voice })), []);

  const {
    blocked,
    buttonText,
    submit: submitValues,
  } = useGenerationSubmit({
    signedIn: true,
    generating: false,
    activeJobs,
    access,
    send: (params) => jobs.submit(params),
    refused: setRefusal,
  });
  const formRef = useRef<HTMLFormElement>(null);
  // Counts refused submits: each one brings the first invalid field into view once its message shows.
  const [invalidSubmits, setInvalidSubmits] = useState(0);
  useEffect(() => {
    if (invalidSubmits > 0 && formRef.current) focusFirstInvalidField(formRef.current);
  }, [invalidSubmits]);
  const submit = async () => {
    setAttempted(true);
    if (blocked) return;
    setRefusal(null);
    // A missing voice or topic was only a toast while its field sat far down the popup.
    if (Object.keys(validateForm(values)).length > 0) setInvalidSubmits((count) => count + 1);
    if (!(await submitValues(values, voiceProvider))) return;
    setValues((current) => ({ ...current, topic: '', source: TOPIC_ONLY }));
    setAttempted(false);
  };

  return (
    <form
      ref={formRef}
      className="rs-popup__form"
      aria-label="Generate a video"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <SourceFields
        idBase={id}
        compact
        topic={values.topic}
        source={values.source}
        duration={values.duration}
        topicError={errors.topic}
        sourceError={errors.source}
        onTopic={(topic) => set('topic', topic)}
        onSource={(source) => set('source', source)}
        language={values.language}
      />
      <div className="rs-popup__row">
        <div className="rs-field">
          <label className="rs-field__label" htmlFor={`${id}-style`}>
            Style
          </label>
          <select
            id={`${id}-style`}
            className="rs-field__input rs-select"
            value={values.style}
            onChange={(e) => set('style', e.target.value)}
          >
            {STORY_STYLES.filter((style) => style !== 'custom').map((style) => (
              <option key={style} value={style}>
                {optionLabel(style)}
              </option>
            ))}
          </select>
        </div>
        <div className="rs-field">
          <label className="rs-field__label" htmlFor={`${id}-duration`}>
            Duration
          </label>
          <select
            id={`${id}-duration`}
            className="rs-field__input rs-select"
            value={String(values.duration)}
            onChange={(e) => set('duration', Number(e.target.value) as GenerationFormValues['duration'])}
          >
            {DURATIONS.map((duration) => (
              <option key={duration} value={duration} disabled={access.longDurationsLocked && duration !== FREE_VIDEO_MAX_SECONDS}>
                {duration} seconds
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="rs-popup__row">
        <div className="rs-field">
          <label className="rs-field__label" htmlFor={`${id}-language`}>
            Language
          </label>
          <select
            id={`${id}-language`}
            className="rs-field__input rs-select"
            value={values.language}
            onChange={(e) => set('language', e.target.value)}
          >
            {VIDEO_LANGUAGES.map((language) => (
              <option key={language} value={language}>
                {LANGUAGE_NAMES[language]}
              </option>
            ))}
          </select>
        </div>
        <div className="rs-field">
          <label className="rs-field__label" htmlFor={`${id}-resolution`}>
            Resolution
          </label>
          <select
            id={`${id}-resolution`}
            className="rs-field__input rs-select"
            value={values.resolution}
            onChange={(e) => set('resolution', e.target.value as Resolution)}
          >
            {RESOLUTIONS.map((resolution) => (
              <option key={resolution} value={resolution}>
                {RESOLUTION_LABELS[resolution]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <label className="rs-popup__check">
        <input type="checkbox" checked={values.enableCaptions} onChange={(e) => set('enableCaptions', e.target.checked)} />
        <span>Captions</span>
      </label>
      {values.enableCaptions ? (
        <div className="rs-field">
          <span id={`${id}-caption-style-label`} className="rs-field__label">
            Caption Style
          </span>
          <Suspense
            fallback={<div className="rs-popup__picker-placeholder" aria-busy="true" aria-labelledby={`${id}-caption-style-label`} />}
          >
            <CaptionStylePicker
              id={`${id}-caption-style`}
              labelId={`${id}-caption-style-label`}
              value={values.captionStyle}
              onChange={(style) => set('captionStyle', style)}
            />
          </Suspense>
        </div>
      ) : null}
      <div className="rs-field">
        <label className="rs-field__label" htmlFor={`${id}-music`}>
          Music
        </label>
        <select
          id={`${id}-music`}
          className="rs-field__input rs-select"
          value={values.music}
          onChange={(e) => set('music', e.target.value as MusicChoice)}
        >
          {MUSIC_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {musicChoiceLabel(choice, values.style)}
            </option>
          ))}
        </select>
      </div>
      <VoiceLists language={values.language} value={values.voice} onChange={setVoice} error={errors.voice} voices={voices} />
      <div className="rs-popup__submit-bar">
        {refusal ? (
          <div className="rs-popup__plans" role="status">
            <p className="rs-popup__plans-text">{refusal}</p>
            <button
              type="button"
              className="rs-button rs-button--ghost"
              onClick={() => platform.navigation.openTab(apiUrl(platform, '/pricing'))}
            >
              See plans
            </button>
          </div>
        ) : null}
        <button type="submit" className="rs-button rs-button--primary rs-button--block" disabled={blocked}>
          {buttonText}
        </button>
      </div>
    </form>
  );
}
