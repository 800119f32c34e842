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
import { SelectField } from '../../ui/select-field.js';
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
        <SelectField
          id={id('style')}
          label="Style"
          error={shownError('style')}
          value={values.style}
          options={STORY_STYLES.map((style) => ({ value: style, label: STYLE_LABELS[style] ?? optionLabel(style) }))}
          onChange={(style) => set('style', style)}
          onBlur={touch('style')}
        />
        <SelectField
          id={id('language')}
          label="Language"
          error={shownError('language')}
          value={values.language}
          options={[
            { value: '', label: 'Select a language' },
            ...VIDEO_LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] })),
          ]}
          onChange={(language) => set('language', language)}
          onBlur={touch('language')}
        />
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
        <SelectField
          id={id('duration')}
          label="Duration"
          error={shownError('duration')}
          value={values.duration}
          options={DURATIONS.map((duration) => ({
            value: duration,
            label: durationLabel(duration),
            disabled: longDurationsLocked && duration !== FREE_VIDEO_MAX_SECONDS,
          }))}
          onChange={(duration) => set('duration', Number(duration) as Duration)}
        />
        <SelectField
          id={id('visualStyle')}
          label="Visual Style"
          value={values.visualStyle}
          options={VISUAL_STYLES.map((style) => ({ value: style, label: optionLabel(style) }))}
          onChange={(style) => set('visualStyle', style as GenerationFormValues['visualStyle'])}
        />
        <SelectField
          id={id('resolution')}
          label="Resolution"
          value={values.resolution}
          options={RESOLUTIONS.map((resolution) => ({ value: resolution, label: RESOLUTION_LABELS[resolution] }))}
          onChange={(resolution) => set('resolution', resolution as Resolution)}
        />
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

      <SelectField
        id={id('music')}
        label="Music"
        value={values.music}
        options={MUSIC_CHOICES.map((choice) => ({
          value: choice,
          label: musicChoiceLabel(choice, values.style === 'custom' ? values.customStyle : values.style),
        }))}
        onChange={(choice) => set('music', choice as MusicChoice)}
      />

      <div className="rs-generate__grid rs-generate__options">
        <div className="rs-generate__option">
          <Toggle id={id('enableZoom')} label="Zoom Effect" checked={values.enableZoom} onChange={(on) => set('enableZoom', on)} />
          {values.enableZoom ? (
            <SelectField
              id={id('zoomDirection')}
              label="Zoom Direction"
              value={values.zoomDirection}
              options={ZOOM_DIRECTIONS.map((direction) => ({ value: direction, label: direction === 'in' ? 'Zoom in' : 'Zoom out' }))}
              onChange={(direction) => set('zoomDirection', direction as GenerationFormValues['zoomDirection'])}
            />
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
