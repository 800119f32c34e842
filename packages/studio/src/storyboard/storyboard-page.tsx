import { narrationBudget } from '@reelsmith/contracts';
import { useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../api/api-client.js';
import { useJobsConnection } from '../shared/jobs/jobs-context.js';
import { PageHeader } from '../ui/page-header.js';
import { JobProgress } from '../shared/videos/job-progress.js';
import { AttributionCredits } from '../shared/videos/attribution-credits.js';
import { SourceCredit } from '../shared/videos/source-credit.js';
import { ResearchNote } from '../shared/videos/research-note.js';
import { VideoNotes } from '../shared/videos/video-notes.js';
import { VersionMenu } from '../shared/videos/version-menu.js';
import { ConflictBanner } from './conflict-banner.js';
import { RenderBar } from './render-bar.js';
import { SceneCard } from './scene-card.js';
import { addSceneAfter, budgetMessage, deleteScene, moveScene, sceneAt, sceneSpans, updateScene } from './storyboard-model.js';
import { StoryboardPlayer } from './storyboard-player.js';
import { MusicSettings, VideoSettings } from './storyboard-settings.js';
import { useLeaveGuard } from './use-leave-guard.js';
import { useStoryboardEditor } from './use-storyboard-editor.js';
import '../styles/studio.css';
import './storyboard.css';

/**
 * The storyboard of a finished video at /videos/:id/edit: the title, voice, captions, zoom and
 * music, and one card per scene; Render makes the next version through the same queue and live
 * progress as a first render.
 */
export function StoryboardPage() {
  const { id = '' } = useParams();
  useJobsConnection();
  const editor = useStoryboardEditor(id);
  const { board, draft, current, job, params, rendering, errors, locked, edit } = editor;
  const leave = useLeaveGuard(editor.saveStatus !== 'saved');
  const player = useRef<HTMLVideoElement>(null);
  const [playerTime, setPlayerTime] = useState<number | null>(null);

  if (editor.boardQuery.isError) {
    return (
      <div className="rs-page">
        <PageHeader title="Storyboard" />
        <section className="rs-card rs-storyboard__empty" role="alert">
          <p>{errorMessage(editor.boardQuery.error, 'The storyboard could not be loaded. Try again in a moment.')}</p>
          <Link to="/videos" className="rs-button rs-button--ghost">
            Back to My Videos
          </Link>
        </section>
      </div>
    );
  }
  if (!board || !draft) {
    return (
      <div className="rs-page">
        <PageHeader title="Storyboard" />
        <p className="rs-videos__loading" role="status">
          Loading the storyboard…
        </p>
      </div>
    );
  }

  const aspect = params?.resolution === '16:9' ? '16 / 9' : params?.resolution === '1:1' ? '1 / 1' : '9 / 16';
  const budget = budgetMessage(draft, board.durationSeconds);
  const words = narrationBudget(draft.scenes, board.durationSeconds);
  const shownVersion = current?.result?.version ?? board.version;
  const spans = sceneSpans(draft.scenes);
  const playing = playerTime === null ? -1 : sceneAt(spans, playerTime);
  const playFrom = (start: number) => {
    const video = player.current;
    if (!video) return;
    // A hair past the start, so the scene before (which ends where this one starts) is not the one marked.
    video.currentTime = start + 0.05;
    void video.play().catch(() => undefined);
  };
  return (
    <div className="rs-page rs-storyboard">
      <PageHeader
        title="Storyboard"
        subtitle={`${board.title} · version ${board.version} · ${board.durationSeconds} s`}
        actions={
          <div className="rs-storyboard__header-actions">
            <VersionMenu videoId={id} latestVersion={shownVersion} />
            <Link to="/videos" className="rs-button rs-button--ghost rs-button--small">
              My Videos
            </Link>
          </div>
        }
      />
      <SourceCredit source={current?.result?.source ?? params?.source} className="rs-source-credit rs-storyboard__source" />
      <ResearchNote research={current?.result?.research} />
      <VideoNotes notes={current?.result?.notes} />
      {editor.conflict ? <ConflictBanner theirs={editor.conflict} onReload={editor.takeTheirs} onKeepMine={editor.keepMine} /> : null}
      <AttributionCredits attributions={current?.result?.attributions} />

      <div className="rs-storyboard__layout">
        <div className="rs-storyboard__watch">
          {current && rendering ? (
            <section className="rs-card rs-storyboard__progress" aria-label="Render progress" aria-live="polite">
              <h2 className="rs-section-title">
                Rendering version {current.result?.version ? current.result.version + 1 : board.version + 1}
              </h2>
              <JobProgress
                job={{ progress: current.progress, currentStep: current.currentStep, ...(job?.stepText ? { stepText: job.stepText } : {}) }}
                title="the render"
              />
            </section>
          ) : null}
          {current ? <StoryboardPlayer job={current} version={shownVersion} videoRef={player} onTime={setPlayerTime} /> : null}
        </div>
        <div className="rs-storyboard__settings">
          <VideoSettings draft={draft} errors={errors} locked={locked} edit={edit} params={params} />
          <MusicSettings
            draft={draft}
            errors={errors}
            locked={locked}
            edit={edit}
            uploading={editor.musicBusy}
            onUpload={(file) => void editor.uploadMusic(file)}
          />
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
                playing={index === playing}
                onPlay={spans[index] ? () => playFrom(spans[index]!.start) : undefined}
                onChange={(change) => edit(updateScene(draft, index, change))}
                onMove={(delta) => edit(moveScene(draft, index, delta))}
                onDelete={() => edit(deleteScene(draft, index))}
                onAddAfter={() => edit(addSceneAfter(draft, index))}
                onUpload={(file) => editor.uploadPicture(index, file)}
              />
            ))}
          </ol>
        </section>
      </div>

      <RenderBar
        message={editor.formError ?? budget}
        budget={words}
        summary={`${draft.scenes.length} scenes · ${board.rendersLeft} renders left`}
        note={`Only the scenes you changed are re-timed, so the new version may run a few tenths of a second longer or shorter than ${board.durationSeconds} s.`}
        saveStatus={editor.saveStatus}
        invalidText={editor.invalidText}
        onRetrySave={editor.retrySave}
        busy={editor.busy}
        rendering={rendering}
        locked={locked}
        canRender={budget === null && board.rendersLeft > 0 && editor.conflict === null}
        onRender={() => void editor.render()}
      />
      {leave.dialog}
    </div>
  );
}
