import {
  CAPTION_TEMPLATE_ANIMATES,
  isActiveJobStatus,
  MUSIC_VOLUME_DEFAULT,
  STORYBOARD_MAX_SCENES,
  type Storyboard,
  type VideoJob,
} from '@reelsmith/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { toast } from '../toaster.js';
import { Link, useParams } from 'react-router';
import { ApiError, errorMessage } from '../api/api-client.js';
import { videoListQueryKey } from '../jobs/video-queries.js';
import { useJobsConnection, useJobService, useJobStore } from '../jobs/jobs-context.js';
import { PageHeader } from '../ui/page-header.js';
import { CaptionStylePicker } from '../ui/caption-style-picker.js';
import { apiUrl, usePlatform } from '../platform.js';
import { useApi, useAuth } from '../services.js';
import { JobProgress } from '../videos/job-progress.js';
import { SourceCredit } from '../videos/source-credit.js';
import { VersionMenu, versionsQueryKey } from '../videos/version-menu.js';
import { VoicePicker } from '../voices/index.js';
import {
  addSceneAfter,
  budgetMessage,
  deleteScene,
  draftFrom,
  formatSeconds,
  moveScene,
  toUpdateBody,
  updateScene,
  type DraftScene,
  type StoryboardDraft,
} from './storyboard-model.js';
import { uploadFile } from './upload-file.js';
import '../styles/studio.css';
import './storyboard.css';

const IMAGE_TYPES = 'image/png,image/jpeg,image/webp';
const AUDIO_TYPES = 'audio/mpeg,audio/wav,audio/x-wav,audio/mp4,audio/x-m4a,.mp3,.wav,.m4a';

export const storyboardQueryKey = (videoId: string) => ['storyboard', videoId] as const;

type FieldErrors = Record<string, string>;

function Toggle({ id, label, checked, onChange }: { id: string; label: string; checked: boolean; onChange(checked: boolean): void }) {
  return (
    <label className="rs-toggle" htmlFor={id}>
      <input id={id} type="checkbox" role="switch" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span className="rs-toggle__track" aria-hidden="true"><span /></span>
      <span className="rs-toggle__label">{label}</span>
    </label>
  );
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? <p id={id} className="rs-field__error">{message}</p> : null;
}

/** A file button: a visually plain <label> over a hidden <input type=file>, so it stays keyboard reachable. */
function FileButton({ label, accept, busy, onFile, ariaLabel }: { label: string; accept: string; busy: boolean; onFile(file: File): void; ariaLabel: string }) {
  const id = useId();
  return (
    <span className="rs-file-button">
      <input
        id={id}
        type="file"
        accept={accept}
        className="rs-visually-hidden"
        aria-label={ariaLabel}
        disabled={busy}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onFile(file);
        }}
      />
      <label htmlFor={id} className={`rs-button rs-button--ghost rs-button--small${busy ? ' rs-button--busy' : ''}`} aria-hidden="true">
        {busy ? 'Uploading…' : label}
      </label>
    </span>
  );
}

function SceneCard(props: {
  scene: DraftScene;
  index: number;
  count: number;
  aspect: string;
  errors: FieldErrors;
  disabled: boolean;
  onChange(change: Partial<DraftScene>): void;
  onMove(delta: -1 | 1): void;
  onDelete(): void;
  onAddAfter(): void;
  onUpload(file: File): Promise<void>;
}) {
  const { scene, index, count, errors, disabled } = props;
  const number = index + 1;
  const ids = { narration: useId(), prompt: useId() };
  const [uploading, setUploading] = useState(false);
  const picture = scene.previewUrl ?? (scene.regenerateImage ? null : scene.imageUrl);
  const narrationError = errors[`scenes.${index}.narration`];
  const promptError = errors[`scenes.${index}.imagePrompt`] ?? errors[`scenes.${index}.imageUploadId`];
  return (
    <li className="rs-scene" aria-label={`Scene ${number}`}>
      <div className="rs-scene__media">
        <div className="rs-scene__picture" style={{ aspectRatio: props.aspect }}>
          {picture ? (
            <img src={picture} alt={`Picture of scene ${number}`} />
          ) : (
            <span className="rs-scene__placeholder">{scene.regenerateImage ? 'A new picture is painted at render' : 'Picture painted at render'}</span>
          )}
          {scene.imageUploadId ? <span className="rs-scene__badge">Your picture</span> : null}
        </div>
        {/* What the rendered picture shows, as its provider said; gone once the picture is replaced. */}
        {scene.subject && picture === scene.imageUrl ? <p className="rs-scene__shows">Shows: {scene.subject}</p> : null}
      </div>
      <div className="rs-scene__body">
        <div className="rs-scene__head">
          <h2 className="rs-scene__title">Scene {number}</h2>
          <span className="rs-scene__timing" aria-label={`Starts at ${formatSeconds(scene.startSeconds)}, lasts ${formatSeconds(scene.durationSeconds)}`}>
            {scene.startSeconds === null ? 'Timed at render' : `${formatSeconds(scene.startSeconds)} · ${formatSeconds(scene.durationSeconds)}`}
          </span>
        </div>
        <div className={`rs-field${narrationError ? ' rs-field--invalid' : ''}`}>
          <label htmlFor={ids.narration} className="rs-field__label">Narration</label>
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
        {scene.sourceSentences ? (
          <figure className="rs-scene__source" aria-label={`Source sentences told in scene ${number}`}>
            <figcaption>From the source</figcaption>
            <ol>
              {scene.sourceSentences.map((sentence, i) => (
                <li key={i}>{sentence}</li>
              ))}
            </ol>
          </figure>
        ) : null}
        <div className={`rs-field${promptError ? ' rs-field--invalid' : ''}`}>
          <label htmlFor={ids.prompt} className="rs-field__label">Image prompt</label>
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
            busy={uploading || disabled}
            ariaLabel={`Upload a picture for scene ${number}`}
            onFile={(file) => {
              setUploading(true);
              void props.onUpload(file).finally(() => setUploading(false));
            }}
          />
          <span className="rs-scene__spacer" />
          <button type="button" className="rs-icon-button rs-scene__move" disabled={disabled || index === 0} onClick={() => props.onMove(-1)} aria-label={`Move scene ${number} up`}>↑</button>
          <button type="button" className="rs-icon-button rs-scene__move" disabled={disabled || index === count - 1} onClick={() => props.onMove(1)} aria-label={`Move scene ${number} down`}>↓</button>
          <button type="button" className="rs-button rs-button--ghost rs-button--small" disabled={disabled || count >= STORYBOARD_MAX_SCENES} onClick={props.onAddAfter} aria-label={`Add a scene after scene ${number}`}>
            Add after
          </button>
          <button type="button" className="rs-button rs-button--ghost rs-button--small rs-button--danger" disabled={disabled || count <= 1} onClick={props.onDelete} aria-label={`Delete scene ${number}`}>
            Delete
          </button>
        </div>
      </div>
    </li>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="rs-card rs-storyboard__section" aria-label={title}>
      <h2 className="rs-section-title">{title}</h2>
      {children}
    </section>
  );
}

/** What the latest version looks like: the player of the newest file. */
function LatestVersion({ job, version }: { job: Pick<VideoJob, 'result'>; version: number }) {
  const platform = usePlatform();
  const url = job.result?.videoUrl;
  if (!url) return null;
  return (
    <figure className="rs-storyboard__player">
      <video key={url} src={apiUrl(platform, url)} controls playsInline preload="metadata" data-version={version} aria-label={`Version ${version} of the video`} />
      <figcaption>Version {version}</figcaption>
    </figure>
  );
}

/**
 * The storyboard of a finished video at /videos/:id/edit: the title, voice, captions,
 * zoom and music, and one card per scene; Render makes the next version through the same queue and
 * live progress as a first render.
 */
export function StoryboardPage() {
  const { id = '' } = useParams();
  useJobsConnection();
  const api = useApi();
  const token = useAuth((s) => s.token);
  const service = useJobService();
  const queryClient = useQueryClient();
  const job = useJobStore((state) => state.jobs[id]);
  const [draft, setDraft] = useState<StoryboardDraft | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'saving' | 'rendering' | null>(null);
  const [musicBusy, setMusicBusy] = useState(false);
  const [expectedVersion, setExpectedVersion] = useState<number | null>(null);
  const ids = { title: useId(), captionStyle: useId(), captions: useId(), zoom: useId(), volume: useId() };

  const boardQuery = useQuery({ queryKey: storyboardQueryKey(id), queryFn: () => api.call('storyboard', { params: { id } }), enabled: id !== '', retry: false });
  const detailQuery = useQuery({ queryKey: ['videos', 'detail', id], queryFn: () => api.call('video', { params: { id } }), enabled: id !== '' });
  const board: Storyboard | undefined = boardQuery.data;
  const current: VideoJob | undefined = job ?? detailQuery.data?.job;
  const rendering = current ? isActiveJobStatus(current.status) : false;

  useEffect(() => {
    if (board && draft === null) setDraft(draftFrom(board));
  }, [board, draft]);

  // When the render finishes, the storyboard (timings, pictures) and the versions are read again.
  const finishedVersion = current?.status === 'completed' ? current.result?.version : undefined;
  const lastSeen = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (expectedVersion === null || finishedVersion !== expectedVersion || lastSeen.current === finishedVersion) return;
    lastSeen.current = finishedVersion;
    setExpectedVersion(null);
    toast.success(`Version ${finishedVersion} is ready`);
    void queryClient.invalidateQueries({ queryKey: versionsQueryKey(id) });
    void queryClient.invalidateQueries({ queryKey: videoListQueryKey });
    void boardQuery.refetch().then((result) => {
      if (result.data) setDraft(draftFrom(result.data));
    });
  }, [expectedVersion, finishedVersion, id, queryClient, boardQuery]);

  useEffect(() => {
    if (expectedVersion !== null && current?.status === 'completed' && current.error && current.result?.version !== expectedVersion) {
      toast.error(current.error);
      setExpectedVersion(null);
    }
  }, [expectedVersion, current]);

  if (boardQuery.isError) {
    return (
      <div className="rs-page">
        <PageHeader title="Storyboard" />
        <section className="rs-card rs-storyboard__empty" role="alert">
          <p>{errorMessage(boardQuery.error, 'The storyboard could not be loaded. Try again in a moment.')}</p>
          <Link to="/videos" className="rs-button rs-button--ghost">Back to My Videos</Link>
        </section>
      </div>
    );
  }
  if (!board || !draft) {
    return (
      <div className="rs-page">
        <PageHeader title="Storyboard" />
        <p className="rs-videos__loading" role="status">Loading the storyboard…</p>
      </div>
    );
  }

  const params = current?.params ?? detailQuery.data?.job.params;
  const aspect = params?.resolution === '16:9' ? '16 / 9' : params?.resolution === '1:1' ? '1 / 1' : '9 / 16';
  const budget = budgetMessage(draft, board.durationSeconds);
  const locked = rendering || busy !== null;
  const edit = (next: StoryboardDraft) => {
    setDraft(next);
    setErrors({});
    setFormError(null);
  };

  const showError = (error: unknown, fallback: string) => {
    if (error instanceof ApiError && error.fromServer && error.field && error.field !== 'scenes') {
      setErrors({ [error.field]: error.message });
      setFormError(error.message);
    } else {
      setFormError(errorMessage(error, fallback));
    }
  };

  const save = async (): Promise<boolean> => {
    try {
      const saved = await api.call('updateStoryboard', { params: { id }, body: toUpdateBody(draft) });
      queryClient.setQueryData(storyboardQueryKey(id), saved);
      // Keep local previews of pictures just uploaded until the render shows the real ones.
      const next = draftFrom(saved);
      next.scenes = next.scenes.map((scene, index) => ({ ...scene, ...(draft.scenes[index]?.previewUrl && scene.imageUploadId ? { previewUrl: draft.scenes[index]!.previewUrl } : {}) }));
      setDraft(next);
      return true;
    } catch (error) {
      showError(error, 'The storyboard could not be saved. Try again in a moment.');
      return false;
    }
  };

  const saveOnly = async () => {
    setBusy('saving');
    if (await save()) toast.success('Storyboard saved');
    setBusy(null);
  };

  const render = async () => {
    setBusy('rendering');
    try {
      if (!(await save())) return;
      const response = await service.render(id);
      setExpectedVersion(response.version);
      toast.success(`Rendering version ${response.version}`);
    } catch (error) {
      showError(error, 'The render could not be started. Try again in a moment.');
    } finally {
      setBusy(null);
    }
  };

  const uploadPicture = async (index: number, file: File) => {
    try {
      const uploaded = await uploadFile(api, token, file);
      setDraft((before) => (before ? updateScene(before, index, { imageUploadId: uploaded.id, previewUrl: URL.createObjectURL(file), regenerateImage: false }) : before));
      setErrors({});
      toast.success(`Picture added to scene ${index + 1}`);
    } catch (error) {
      const message = errorMessage(error, 'The picture could not be uploaded. Try again in a moment.');
      setErrors({ [`scenes.${index}.imageUploadId`]: message });
      toast.error(message);
    }
  };

  const uploadMusic = async (file: File) => {
    setMusicBusy(true);
    try {
      const uploaded = await uploadFile(api, token, file);
      if (uploaded.kind !== 'audio') throw new ApiError('That file is a picture. Choose an MP3, WAV or M4A file.', 400, { fromServer: true });
      setDraft((before) => (before ? { ...before, music: { uploadId: uploaded.id, volumePercent: before.music?.volumePercent ?? MUSIC_VOLUME_DEFAULT, name: file.name } } : before));
    } catch (error) {
      const message = errorMessage(error, 'The music could not be uploaded. Try again in a moment.');
      setErrors({ 'music.uploadId': message });
      toast.error(message);
    } finally {
      setMusicBusy(false);
    }
  };

  const shownVersion = current?.result?.version ?? board.version;
  return (
    <div className="rs-page rs-storyboard">
      <PageHeader
        title="Storyboard"
        subtitle={`${board.title} · version ${board.version} · ${board.durationSeconds} s`}
        actions={
          <div className="rs-storyboard__header-actions">
            <VersionMenu videoId={id} latestVersion={shownVersion} />
            <Link to="/videos" className="rs-button rs-button--ghost rs-button--small">My Videos</Link>
          </div>
        }
      />
      <SourceCredit source={params?.source} className="rs-source-credit rs-storyboard__source" />

      <div className="rs-storyboard__top">
        <div className="rs-storyboard__watch">
          {current && rendering ? (
            <section className="rs-card rs-storyboard__progress" aria-label="Render progress" aria-live="polite">
              <h2 className="rs-section-title">Rendering version {current.result?.version ? current.result.version + 1 : board.version + 1}</h2>
              <JobProgress job={{ progress: current.progress, currentStep: current.currentStep, ...(job?.stepText ? { stepText: job.stepText } : {}) }} title="the render" />
            </section>
          ) : null}
          {current ? <LatestVersion job={current} version={shownVersion} /> : null}
        </div>
        <div className="rs-storyboard__settings">
          <Section title="Video">
            <div className={`rs-field${errors.title ? ' rs-field--invalid' : ''}`}>
              <label htmlFor={ids.title} className="rs-field__label">Title</label>
              <input id={ids.title} className="rs-field__input" value={draft.title} disabled={locked} onChange={(e) => edit({ ...draft, title: e.target.value })} />
              <FieldError id={`${ids.title}-error`} message={errors.title} />
            </div>
            {params ? (
              <VoicePicker language={params.language} {...(params.voiceProvider ? { provider: params.voiceProvider } : {})} value={draft.voice} onChange={(voice) => voice && voice !== draft.voice && edit({ ...draft, voice })} error={errors.voice} />
            ) : null}
            <div className="rs-storyboard__toggles">
              <Toggle id={ids.captions} label="Captions" checked={draft.enableCaptions} onChange={(on) => edit({ ...draft, enableCaptions: on })} />
              <Toggle id={ids.zoom} label="Zoom Effect" checked={draft.enableZoom} onChange={(on) => edit({ ...draft, enableZoom: on })} />
            </div>
            {draft.enableCaptions ? (
              <div className="rs-field">
                <span id={`${ids.captionStyle}-label`} className="rs-field__label">Caption Style</span>
                <CaptionStylePicker id={ids.captionStyle} labelId={`${ids.captionStyle}-label`} value={draft.captionStyle} disabled={locked} onChange={(style) => edit({ ...draft, captionStyle: style })} descriptions={CAPTION_TEMPLATE_ANIMATES} />
              </div>
            ) : null}
          </Section>

          <Section title="Background music">
            {draft.music ? (
              <>
                <p className="rs-storyboard__music-name">{draft.music.name ?? 'Your track'}</p>
                <div className="rs-field">
                  <label htmlFor={ids.volume} className="rs-field__label">Music volume · {draft.music.volumePercent}%</label>
                  <input id={ids.volume} type="range" min={0} max={100} step={5} value={draft.music.volumePercent} disabled={locked} onChange={(e) => edit({ ...draft, music: { ...draft.music!, volumePercent: Number(e.target.value) } })} />
                </div>
                <button type="button" className="rs-button rs-button--ghost rs-button--small" disabled={locked} onClick={() => edit({ ...draft, music: null })}>Remove music</button>
              </>
            ) : (
              <p className="rs-storyboard__hint">MP3, WAV or M4A up to 20 MB, mixed under the narration and quieter while the narrator speaks.</p>
            )}
            <FileButton label={draft.music ? 'Replace music' : 'Upload music'} accept={AUDIO_TYPES} busy={musicBusy || locked} ariaLabel="Upload background music" onFile={(file) => void uploadMusic(file)} />
            <FieldError id="rs-music-error" message={errors['music.uploadId']} />
          </Section>
        </div>
      </div>

      <section aria-label="Scenes" className="rs-storyboard__scenes-section">
          <h2 className="rs-section-title rs-storyboard__scenes-title">Scenes</h2>
          <ol className="rs-storyboard__scenes">
            {draft.scenes.map((scene, index) => (
              <SceneCard
                key={scene.key}
                scene={scene}
                index={index}
                count={draft.scenes.length}
                aspect={aspect}
                errors={errors}
                disabled={locked}
                onChange={(change) => edit(updateScene(draft, index, change))}
                onMove={(delta) => edit(moveScene(draft, index, delta))}
                onDelete={() => edit(deleteScene(draft, index))}
                onAddAfter={() => edit(addSceneAfter(draft, index))}
                onUpload={(file) => uploadPicture(index, file)}
              />
            ))}
          </ol>
      </section>

      <div className="rs-storyboard__bar" role="region" aria-label="Render">
        <div className="rs-storyboard__bar-text">
          {formError ? <p className="rs-field__error" role="alert">{formError}</p> : budget ? <p className="rs-field__error" role="alert">{budget}</p> : (
            <p>{draft.scenes.length} scenes · {board.rendersLeft} renders left</p>
          )}
        </div>
        <button type="button" className="rs-button rs-button--ghost" disabled={locked} onClick={() => void saveOnly()}>
          {busy === 'saving' ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="rs-button rs-button--primary" disabled={locked || budget !== null || board.rendersLeft === 0} onClick={() => void render()}>
          {busy === 'rendering' ? 'Starting…' : rendering ? 'Rendering…' : 'Render'}
        </button>
      </div>
    </div>
  );
}
