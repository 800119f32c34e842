import {
  DURATIONS,
  FREE_VIDEO_MAX_SECONDS,
  LANGUAGE_NAMES,
  MESSAGES,
  MUSIC_CHOICES,
  musicChoiceLabel,
  RESOLUTIONS,
  STORAGE_KEYS,
  STORY_STYLES,
  VALIDATION_MESSAGES,
  VIDEO_LANGUAGES,
  VISUAL_STYLES,
  ZOOM_DIRECTIONS,
  type Duration,
  type MusicChoice,
  type Resolution,
} from '@reelsmith/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useId, useState, type ReactNode } from 'react';
import { toast } from '../toaster.js';
import { videoListQueryKey } from '../jobs/video-queries.js';
import { useJobService, useJobStore } from '../jobs/jobs-context.js';
import { usePlatform } from '../platform.js';
import { useAuth } from '../services.js';
import { loadVideoDefaults, RESOLUTION_LABELS } from '../preferences/video-defaults.js';
import { Toggle } from '../ui/toggle.js';
import { asVoiceLanguage, useVoices, VoicePicker } from '../voices/index.js';
import { draftFromSource } from './source-draft.js';
import { SourceFields } from './source-fields.js';
import { initialFormValues, optionLabel, validateForm, type FormField, type GenerationFormValues } from './generation-form-model.js';
import { useGenerationSubmit } from './use-generation-submit.js';
import type { GenerationAccess } from './use-generation-access.js';

// Loaded when the captions option is first switched on: thirteen live previews and their styles are
// not part of the first screen, which starts with captions off.
const CaptionStylePicker = lazy(() => import('../ui/caption-style-picker.js').then((module) => ({ default: module.CaptionStylePicker })));

const STYLE_LABELS: Record<string, string> = { custom: 'Custom Style' };
const LOCK = '🔒';

function Field({ id, label, error, children }: { id: string; label: string; error?: string; children: ReactNode }) {
  return (
    <div className={`rs-field${error ? ' rs-field--invalid' : ''}`}>
      <label htmlFor={id} className="rs-field__label">
        {label}
      </label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="rs-field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export interface GenerateFormProps {
  signedIn: boolean;
  access: GenerationAccess;
  /** Number of the user's jobs still pending, queued or processing. */
  activeJobs: number;
  /** Shows plans when the user may not generate (the pricing dialog or page). */
  openPricing(): void;
}

/** The generate form with its submit rules and messages. */
export function GenerateForm({ signedIn, access, activeJobs, openPricing }: GenerateFormProps) {
  const platform = usePlatform();
  const queryClient = useQueryClient();
  const jobService = useJobService();
  const generating = useJobStore((s) => s.generating);
  const refreshSubscription = useAuth((s) => s.fetchSubscription);
  const [values, setValues] = useState<GenerationFormValues>(() =>
    initialFormValues(platform.storage.getItem(STORAGE_KEYS.videoDefaults) ? loadVideoDefaults(platform.storage) : null),
  );
  const [touched, setTouched] = useState<Partial<Record<FormField, boolean>>>({});
  const [submitAttempted, setSubmitAttempted] = useState(false);

  const idBase = useId();
  const id = (field: string) => `${idBase}-${field}`;
  const errors = validateForm(values);
  const shownError = (field: FormField) => (touched[field] || submitAttempted ? errors[field] : undefined);

  const set = useCallback(<K extends FormField>(field: K, value: GenerationFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setTouched((current) => (current[field] ? current : { ...current, [field]: true }));
  }, []);
  const touch = (field: FormField) => () => setTouched((current) => (current[field] ? current : { ...current, [field]: true }));
  // The picker clears a voice the new language lacks; that is not the user touching the field.
  const setVoice = useCallback((voice: string) => setValues((current) => (current.voice === voice ? current : { ...current, voice })), []);
  const chooseVoice = useCallback(
    (voice: string) => {
      setVoice(voice);
      if (voice) setTouched((current) => (current.voice ? current : { ...current, voice: true }));
    },
    [setVoice],
  );
  // The extension's context menu (and the embed's set-topic) hand a topic or a source over while the form is open too.
  useEffect(
    () =>
      platform.formRequests?.subscribe((request) =>
        request.kind === 'topic' ? set('topic', request.topic) : set('source', draftFromSource(request)),
      ),
    [platform, set],
  );

  // Saved defaults or a lapsed plan may leave a locked duration chosen (judged once the plan is known).
  useEffect(() => {
    if (access.settled && access.longDurationsLocked && values.duration !== FREE_VIDEO_MAX_SECONDS)
      setValues((current) => ({ ...current, duration: FREE_VIDEO_MAX_SECONDS }));
  }, [access.settled, access.longDurationsLocked, values.duration]);

  // The voice's provider is whatever the voices list came from (the provider config is admin-only).
  const voices = useVoices(values.language, undefined);
  const voiceProvider = voices.data && voices.data.language === asVoiceLanguage(values.language) ? voices.data.provider : undefined;

  const {
    blocked,
    buttonText,
    submit: submitValues,
  } = useGenerationSubmit({ signedIn, generating, activeJobs, access, send: (params) => jobService.submit(params), refused: openPricing });

  const submit = async () => {
    if (!signedIn) {
      platform.navigation.openTab('/login');
      toast(MESSAGES.visitorGenerate);
      return;
    }
    setSubmitAttempted(true);
    if (blocked) return;
    if (!(await submitValues(values, voiceProvider))) return;
    void queryClient.invalidateQueries({ queryKey: videoListQueryKey });
    // The free video is used up now; the duration lock and plan usage follow.
    void queryClient.invalidateQueries({ queryKey: ['payments', 'can-generate'] });
    void refreshSubscription();
  };

  const durationLabel = (duration: Duration) =>
    `${duration} seconds${access.longDurationsLocked && duration !== FREE_VIDEO_MAX_SECONDS ? ` ${LOCK}` : ''}`;

  return (
    <form
      className="rs-card rs-generate"
      aria-label="Generate a video"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h2 className="rs-section-title">Create a video</h2>
      <SourceFields
        idBase={idBase}
        topic={values.topic}
        source={values.source}
        duration={values.duration}
        topicError={shownError('topic')}
        sourceError={shownError('source')}
        onTopic={(topic) => set('topic', topic)}
        onSource={(source) => set('source', source)}
        onTopicBlur={touch('topic')}
        language={values.language}
        onSourceBlur={touch('source')}
      />

      <div className="rs-generate__grid">
        <Field id={id('style')} label="Style" error={shownError('style')}>
          <select
            id={id('style')}
            className="rs-field__input rs-select"
            value={values.style}
            onChange={(e) => set('style', e.target.value)}
            onBlur={touch('style')}
          >
            {STORY_STYLES.map((style) => (
              <option key={style} value={style}>
                {STYLE_LABELS[style] ?? optionLabel(style)}
              </option>
            ))}
          </select>
        </Field>
        <Field id={id('language')} label="Language" error={shownError('language')}>
          <select
            id={id('language')}
            className="rs-field__input rs-select"
            value={values.language}
            onChange={(e) => set('language', e.target.value)}
            onBlur={touch('language')}
          >
            <option value="">Select a language</option>
            {VIDEO_LANGUAGES.map((language) => (
              <option key={language} value={language}>
                {LANGUAGE_NAMES[language]}
              </option>
            ))}
          </select>
        </Field>
      </div>

      {values.style === 'custom' ? (
        <Field id={id('customStyle')} label="Custom Style" error={shownError('customStyle')}>
          <input
            id={id('customStyle')}
            className="rs-field__input"
            placeholder="Describe the style, e.g. noir detective"
            value={values.customStyle}
            onChange={(e) => set('customStyle', e.target.value)}
            onBlur={touch('customStyle')}
            aria-invalid={shownError('customStyle') ? true : undefined}
          />
        </Field>
      ) : null}

      <div className="rs-generate__grid rs-generate__grid--three">
        <Field id={id('duration')} label="Duration" error={shownError('duration')}>
          <select
            id={id('duration')}
            className="rs-field__input rs-select"
            value={values.duration}
            onChange={(e) => set('duration', Number(e.target.value) as Duration)}
          >
            {DURATIONS.map((duration) => (
              <option key={duration} value={duration} disabled={access.longDurationsLocked && duration !== FREE_VIDEO_MAX_SECONDS}>
                {durationLabel(duration)}
              </option>
            ))}
          </select>
        </Field>
        <Field id={id('visualStyle')} label="Visual Style">
          <select
            id={id('visualStyle')}
            className="rs-field__input rs-select"
            value={values.visualStyle}
            onChange={(e) => set('visualStyle', e.target.value as GenerationFormValues['visualStyle'])}
          >
            {VISUAL_STYLES.map((style) => (
              <option key={style} value={style}>
                {optionLabel(style)}
              </option>
            ))}
          </select>
        </Field>
        <Field id={id('resolution')} label="Resolution">
          <select
            id={id('resolution')}
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
        </Field>
      </div>

      {access.isFreeVideo ? <p className="rs-field__hint rs-generate__free-note">{VALIDATION_MESSAGES.freeVideoTooLong}</p> : null}

      <fieldset className="rs-generate__voice">
        <legend className="rs-field__label">Voice</legend>
        <VoicePicker language={values.language} value={values.voice} onChange={chooseVoice} error={shownError('voice')} />
      </fieldset>

      <Field id={id('customPrompt')} label="Custom Prompt (optional)" error={shownError('customPrompt')}>
        <textarea
          id={id('customPrompt')}
          className="rs-field__input rs-field__textarea"
          rows={2}
          placeholder="Extra guidance for the story, e.g. end with a question"
          value={values.customPrompt}
          onChange={(e) => set('customPrompt', e.target.value)}
        />
      </Field>

      <Field id={id('music')} label="Music">
        <select
          id={id('music')}
          className="rs-field__input rs-select"
          value={values.music}
          onChange={(e) => set('music', e.target.value as MusicChoice)}
        >
          {MUSIC_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {musicChoiceLabel(choice, values.style === 'custom' ? values.customStyle : values.style)}
            </option>
          ))}
        </select>
      </Field>

      <div className="rs-generate__grid rs-generate__options">
        <div className="rs-generate__option">
          <Toggle id={id('enableZoom')} label="Zoom Effect" checked={values.enableZoom} onChange={(on) => set('enableZoom', on)} />
          {values.enableZoom ? (
            <Field id={id('zoomDirection')} label="Zoom Direction">
              <select
                id={id('zoomDirection')}
                className="rs-field__input rs-select"
                value={values.zoomDirection}
                onChange={(e) => set('zoomDirection', e.target.value as GenerationFormValues['zoomDirection'])}
              >
                {ZOOM_DIRECTIONS.map((direction) => (
                  <option key={direction} value={direction}>
                    {direction === 'in' ? 'Zoom in' : 'Zoom out'}
                  </option>
                ))}
              </select>
            </Field>
          ) : null}
        </div>
        <div className="rs-generate__option">
          <Toggle id={id('enableCaptions')} label="Captions" checked={values.enableCaptions} onChange={(on) => set('enableCaptions', on)} />
          {values.enableCaptions ? (
            <div className="rs-field">
              <span id={id('captionStyleLabel')} className="rs-field__label">
                Caption Style
              </span>
              <Suspense fallback={<div className="rs-capick-placeholder" aria-busy="true" aria-labelledby={id('captionStyleLabel')} />}>
                <CaptionStylePicker
                  id={id('captionStyle')}
                  labelId={id('captionStyleLabel')}
                  value={values.captionStyle}
                  onChange={(style) => set('captionStyle', style)}
                />
              </Suspense>
            </div>
          ) : null}
        </div>
      </div>

      <button type="submit" className="rs-button rs-button--primary rs-button--block rs-generate__submit" disabled={blocked}>
        {buttonText}
      </button>
    </form>
  );
}
