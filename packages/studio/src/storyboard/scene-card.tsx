import { STORYBOARD_MAX_SCENES, type Attribution } from '@reelsmith/contracts';
import { useId, useState } from 'react';
import { FieldError } from '../ui/field-error.js';
import { FileButton } from '../ui/file-button.js';
import { formatSeconds, narrationEdited, type DraftScene } from './storyboard-model.js';

const IMAGE_TYPES = 'image/png,image/jpeg,image/webp';

/** Messages by the field they belong to (`title`, `scenes.2.narration`, `music.uploadId`). */
export type FieldErrors = Record<string, string>;

/** "Picture: Octopus vulgaris by Albert Kok, CC BY-SA 3.0", the title linking to its Commons page and the licence to its text. */
function PictureCredit({ credit }: { credit: Attribution }) {
  return (
    <p className="rs-scene__credit">
      Picture:{' '}
      <a href={credit.sourceUrl} target="_blank" rel="noreferrer">
        {credit.title}
      </a>
      {credit.author ? ` by ${credit.author}` : ''},{' '}
      {credit.licenseUrl ? (
        <a href={credit.licenseUrl} target="_blank" rel="noreferrer">
          {credit.license}
        </a>
      ) : (
        credit.license
      )}
    </p>
  );
}

/** One scene of the storyboard: its picture, narration, image prompt and the actions on it. */
export function SceneCard(props: {
  scene: DraftScene;
  index: number;
  count: number;
  aspect: string;
  errors: FieldErrors;
  disabled: boolean;
  /** The player is in this scene. */
  playing: boolean;
  /** Plays the scene from its start in the player; absent while the scene has no place in the video. */
  onPlay: (() => void) | undefined;
  onChange(change: Partial<DraftScene>): void;
  onMove(delta: -1 | 1): void;
  onDelete(): void;
  onAddAfter(): void;
  onUpload(file: File): Promise<void>;
}) {
  const { scene, index, count, errors, disabled } = props;
  const number = index + 1;
  const ids = { narration: useId(), prompt: useId(), more: useId() };
  const [uploading, setUploading] = useState(false);
  // On a phone a card shows its picture and narration; the prompt, the source and the actions open under More.
  const [expanded, setExpanded] = useState(false);
  const picture = scene.previewUrl ?? (scene.regenerateImage ? null : scene.imageUrl);
  const narrationError = errors[`scenes.${index}.narration`];
  const promptError = errors[`scenes.${index}.imagePrompt`] ?? errors[`scenes.${index}.imageUploadId`];
  const narrationRewritten = scene.sourceSentences !== undefined && narrationEdited(scene);
  // An error behind More must be seen: the card opens by itself.
  const open = expanded || promptError !== undefined;
  return (
    <li
      className={`rs-scene${props.playing ? ' rs-scene--playing' : ''}${open ? ' rs-scene--expanded' : ''}`}
      aria-label={`Scene ${number}`}
      aria-current={props.playing ? 'true' : undefined}
    >
      <div className="rs-scene__media">
        <div className="rs-scene__picture" style={{ aspectRatio: props.aspect }}>
          {picture ? (
            <img src={picture} alt={`Picture of scene ${number}`} />
          ) : (
            <span className="rs-scene__placeholder">
              {scene.regenerateImage
                ? scene.attribution
                  ? 'The next free picture from Wikimedia Commons comes at render (painted art when none is left)'
                  : 'A new picture is painted at render'
                : 'Picture painted at render'}
            </span>
          )}
          {scene.imageUploadId ? <span className="rs-scene__badge">Your picture</span> : null}
        </div>
        {/* What the rendered picture shows, as its provider said; gone once the picture is replaced. */}
        {scene.subject && picture === scene.imageUrl ? <p className="rs-scene__shows">Shows: {scene.subject}</p> : null}
        {/* A Commons picture's licence asks for its credit wherever it is shown. */}
        {scene.attribution && picture === scene.imageUrl ? <PictureCredit credit={scene.attribution} /> : null}
      </div>
      <div className="rs-scene__body">
        <div className="rs-scene__head">
          <h2 className="rs-scene__title">Scene {number}</h2>
          {props.onPlay ? (
            <button
              type="button"
              className="rs-scene__timing rs-scene__play"
              onClick={props.onPlay}
              aria-label={`Play scene ${number}: starts at ${formatSeconds(scene.startSeconds)}, lasts ${formatSeconds(scene.durationSeconds)}`}
            >
              <span aria-hidden="true" className="rs-scene__play-icon">
                ▶
              </span>
              <span>{`${formatSeconds(scene.startSeconds)} · ${formatSeconds(scene.durationSeconds)}`}</span>
            </button>
          ) : (
            <span className="rs-scene__timing">Timed at render</span>
          )}
        </div>
        <div className={`rs-field${narrationError ? ' rs-field--invalid' : ''}`}>
          <label htmlFor={ids.narration} className="rs-field__label">
            Narration
          </label>
          <textarea
            id={ids.narration}
            className="rs-field__input rs-scene__text"
            rows={3}
            value={scene.narration}
            disabled={disabled}
            aria-invalid={narrationError ? true : undefined}
            aria-describedby={narrationError ? `${ids.narration}-error` : undefined}
            onChange={(e) => props.onChange({ narration: e.target.value })}
          />
          <FieldError id={`${ids.narration}-error`} message={narrationError} />
        </div>
        <button
          type="button"
          className="rs-link-button rs-scene__more-toggle"
          aria-expanded={open}
          aria-controls={ids.more}
          aria-label={`${open ? 'Show less' : 'Show more'} of scene ${number}`}
          onClick={() => setExpanded(!expanded)}
        >
          {open ? 'Less' : 'More'}
        </button>
        <div className="rs-scene__more" id={ids.more}>
          {scene.sourceSentences ? (
            <figure
              className={`rs-scene__source${narrationRewritten ? ' rs-scene__source--edited' : ''}`}
              aria-label={`Source sentences told in scene ${number}`}
            >
              <figcaption>
                From the source
                {narrationRewritten ? <span className="rs-scene__edited"> · narration edited</span> : null}
              </figcaption>
              {narrationRewritten ? (
                <p className="rs-scene__source-note">You rewrote the narration, so it no longer tells these sentences word for word.</p>
              ) : null}
              <ol>
                {scene.sourceSentences.map((sentence, i) => (
                  <li key={i}>{sentence}</li>
                ))}
              </ol>
            </figure>
          ) : null}
          <div className={`rs-field${promptError ? ' rs-field--invalid' : ''}`}>
            <label htmlFor={ids.prompt} className="rs-field__label">
              Image prompt
            </label>
            <textarea
              id={ids.prompt}
              className="rs-field__input rs-scene__text"
              rows={2}
              value={scene.imagePrompt}
              disabled={disabled}
              aria-invalid={promptError ? true : undefined}
              aria-describedby={promptError ? `${ids.prompt}-error` : undefined}
              onChange={(e) => props.onChange({ imagePrompt: e.target.value })}
            />
            <FieldError id={`${ids.prompt}-error`} message={promptError} />
          </div>
          <div className="rs-scene__actions">
            <button
              type="button"
              className="rs-button rs-button--ghost rs-button--small"
              disabled={disabled}
              onClick={() => props.onChange({ regenerateImage: true, imageUploadId: undefined, previewUrl: undefined })}
              aria-label={`Regenerate the picture of scene ${number}`}
            >
              Regenerate picture
            </button>
            <FileButton
              label="Upload picture"
              accept={IMAGE_TYPES}
              busy={uploading}
              disabled={disabled}
              ariaLabel={`Upload a picture for scene ${number}`}
              onFile={(file) => {
                setUploading(true);
                void props.onUpload(file).finally(() => setUploading(false));
              }}
            />
            <span className="rs-scene__spacer" />
            <button
              type="button"
              className="rs-icon-button rs-scene__move"
              disabled={disabled || index === 0}
              onClick={() => props.onMove(-1)}
              aria-label={`Move scene ${number} up`}
            >
              ↑
            </button>
            <button
              type="button"
              className="rs-icon-button rs-scene__move"
              disabled={disabled || index === count - 1}
              onClick={() => props.onMove(1)}
              aria-label={`Move scene ${number} down`}
            >
              ↓
            </button>
            <button
              type="button"
              className="rs-button rs-button--ghost rs-button--small"
              disabled={disabled || count >= STORYBOARD_MAX_SCENES}
              onClick={props.onAddAfter}
              aria-label={`Add a scene after scene ${number}`}
            >
              Add after
            </button>
            <button
              type="button"
              className="rs-button rs-button--ghost rs-button--small rs-button--danger"
              disabled={disabled || count <= 1}
              onClick={props.onDelete}
              aria-label={`Delete scene ${number}`}
            >
              Delete
            </button>
          </div>
        </div>
      </div>
    </li>
  );
}
