import { CAPTION_TEMPLATE_ANIMATES, type VideoJob } from '@reelsmith/contracts';
import { useId, type ReactNode } from 'react';
import { CaptionStylePicker } from '../ui/caption-style-picker.js';
import { FieldError } from '../ui/field-error.js';
import { FileButton } from '../ui/file-button.js';
import { Toggle } from '../ui/toggle.js';
import { VoicePicker } from '../shared/voices/index.js';
import type { FieldErrors } from './scene-card.js';
import type { StoryboardDraft } from './storyboard-model.js';

const AUDIO_TYPES = 'audio/mpeg,audio/wav,audio/x-wav,audio/mp4,audio/x-m4a,.mp3,.wav,.m4a';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="rs-card rs-storyboard__section" aria-label={title}>
      <h2 className="rs-section-title">{title}</h2>
      {children}
    </section>
  );
}

interface SettingsProps {
  draft: StoryboardDraft;
  errors: FieldErrors;
  locked: boolean;
  edit(next: StoryboardDraft): void;
}

/** The whole video's settings: title, voice, captions and their style, zoom. */
export function VideoSettings({ draft, errors, locked, edit, params }: SettingsProps & { params: VideoJob['params'] | undefined }) {
  const ids = { title: useId(), captionStyle: useId(), captions: useId(), zoom: useId() };
  return (
    <Section title="Video">
      <div className={`rs-field${errors.title ? ' rs-field--invalid' : ''}`}>
        <label htmlFor={ids.title} className="rs-field__label">
          Title
        </label>
        <input
          id={ids.title}
          className="rs-field__input"
          value={draft.title}
          disabled={locked}
          onChange={(e) => edit({ ...draft, title: e.target.value })}
        />
        <FieldError id={`${ids.title}-error`} message={errors.title} />
      </div>
      {params ? (
        <VoicePicker
          language={params.language}
          {...(params.voiceProvider ? { provider: params.voiceProvider } : {})}
          value={draft.voice}
          onChange={(voice) => voice && voice !== draft.voice && edit({ ...draft, voice })}
          error={errors.voice}
        />
      ) : null}
      <div className="rs-storyboard__toggles">
        <Toggle
          id={ids.captions}
          label="Captions"
          checked={draft.enableCaptions}
          onChange={(on) => edit({ ...draft, enableCaptions: on })}
        />
        <Toggle id={ids.zoom} label="Zoom Effect" checked={draft.enableZoom} onChange={(on) => edit({ ...draft, enableZoom: on })} />
      </div>
      {draft.enableCaptions ? (
        <div className="rs-field">
          <span id={`${ids.captionStyle}-label`} className="rs-field__label">
            Caption Style
          </span>
          <CaptionStylePicker
            id={ids.captionStyle}
            labelId={`${ids.captionStyle}-label`}
            value={draft.captionStyle}
            disabled={locked}
            onChange={(style) => edit({ ...draft, captionStyle: style })}
            descriptions={CAPTION_TEMPLATE_ANIMATES}
          />
        </div>
      ) : null}
    </Section>
  );
}

/** The background music: the track, its volume, and uploading or removing it. */
export function MusicSettings({
  draft,
  errors,
  locked,
  edit,
  uploading,
  onUpload,
}: SettingsProps & { uploading: boolean; onUpload(file: File): void }) {
  const volumeId = useId();
  return (
    <Section title="Background music">
      {draft.music ? (
        <>
          <p className="rs-storyboard__music-name">{draft.music.name ?? 'Your track'}</p>
          <div className="rs-field">
            <label htmlFor={volumeId} className="rs-field__label">
              Music volume · {draft.music.volumePercent}%
            </label>
            <input
              id={volumeId}
              type="range"
              min={0}
              max={100}
              step={5}
              value={draft.music.volumePercent}
              disabled={locked}
              onChange={(e) => edit({ ...draft, music: { ...draft.music!, volumePercent: Number(e.target.value) } })}
            />
          </div>
          <button
            type="button"
            className="rs-button rs-button--ghost rs-button--small"
            disabled={locked}
            onClick={() => edit({ ...draft, music: null })}
          >
            Remove music
          </button>
        </>
      ) : (
        <p className="rs-storyboard__hint">MP3, WAV or M4A up to 20 MB, mixed under the narration and quieter while the narrator speaks.</p>
      )}
      <FileButton
        label={draft.music ? 'Replace music' : 'Upload music'}
        accept={AUDIO_TYPES}
        busy={uploading}
        disabled={locked}
        ariaLabel="Upload background music"
        onFile={onUpload}
      />
      <FieldError id="rs-music-error" message={errors['music.uploadId']} />
    </Section>
  );
}
