import {
  DURATIONS,
  FREE_VIDEO_MAX_SECONDS,
  LANGUAGE_NAMES,
  MUSIC_CHOICES,
  musicChoiceLabel,
  RESOLUTIONS,
  STORY_STYLES,
  VALIDATION_MESSAGES,
  VIDEO_LANGUAGES,
  VISUAL_STYLES,
  ZOOM_DIRECTIONS,
  type Duration,
  type MusicChoice,
  type Resolution,
} from '@reelsmith/contracts';
import { lazy, Suspense } from 'react';
import { RESOLUTION_LABELS } from '../../preferences/video-defaults.js';
import { Field } from '../../ui/field-error.js';
import { Toggle } from '../../ui/toggle.js';
import { VoicePicker } from '../voices/index.js';
import type { GenerationAccess } from './generation-access.js';
import { optionLabel, type FormField, type GenerationFormValues } from './generation-form-model.js';
import type { GenerationForm } from './use-generation-form.js';

// Loaded when the captions option is first switched on: thirteen live previews and their styles, and
// where the captions go, are not part of the first screen, which starts with captions off.
const loadCaptionOptions = () => import('../../ui/caption-style-picker.js');
const CaptionStylePicker = lazy(() => loadCaptionOptions().then((module) => ({ default: module.CaptionStylePicker })));
const CaptionDeliveryField = lazy(() => loadCaptionOptions().then((module) => ({ default: module.CaptionDeliveryField })));

const STYLE_LABELS: Record<string, string> = { custom: 'Custom Style' };
const LOCK = '🔒';

export interface GenerateOptionFieldsProps {
  idBase: string;
  form: Pick<GenerationForm, 'values' | 'set' | 'touch' | 'chooseVoice'>;
  shownError(field: FormField): string | undefined;
  /** `longDurationsLocked`: the plan allows only the free video's length. */
  access: Pick<GenerationAccess, 'longDurationsLocked' | 'isFreeVideo'>;
}

/**
 * Every generate option but the topic and the source: style, language, duration, visual style,
 * resolution, voice, custom prompt, music, zoom and captions. The studio's form and the Batch page's
 * shared options are both these fields.
 */
export function GenerateOptionFields({ idBase, form, shownError, access }: GenerateOptionFieldsProps) {
  const { values, set, touch, chooseVoice } = form;
  const { longDurationsLocked, isFreeVideo } = access;
  const id = (field: string) => `${idBase}-${field}`;
  const durationLabel = (duration: Duration) =>
    `${duration} seconds${longDurationsLocked && duration !== FREE_VIDEO_MAX_SECONDS ? ` ${LOCK}` : ''}`;
  return (
    <>
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
              <option key={duration} value={duration} disabled={longDurationsLocked && duration !== FREE_VIDEO_MAX_SECONDS}>
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

      {isFreeVideo ? <p className="rs-field__hint rs-generate__free-note">{VALIDATION_MESSAGES.freeVideoTooLong}</p> : null}

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
            <Suspense fallback={<div className="rs-capick-placeholder" aria-busy="true" aria-label="Caption options" />}>
              <CaptionDeliveryField id={id('captions')} value={values.captions} onChange={(choice) => set('captions', choice)} />
              {values.captions === 'burned' ? (
                <div className="rs-field">
                  <span id={id('captionStyleLabel')} className="rs-field__label">
                    Caption Style
                  </span>
                  <CaptionStylePicker
                    id={id('captionStyle')}
                    labelId={id('captionStyleLabel')}
                    value={values.captionStyle}
                    onChange={(style) => set('captionStyle', style)}
                  />
                </div>
              ) : null}
            </Suspense>
          ) : null}
        </div>
      </div>
    </>
  );
}
