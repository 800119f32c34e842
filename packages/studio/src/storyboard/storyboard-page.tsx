import { Link, useParams } from 'react-router';
import { errorMessage } from '../api/api-client.js';
import { useJobsConnection } from '../jobs/jobs-context.js';
import { PageHeader } from '../ui/page-header.js';
import { JobProgress } from '../videos/job-progress.js';
import { SourceCredit } from '../videos/source-credit.js';
import { VersionMenu } from '../videos/version-menu.js';
import { RenderBar } from './render-bar.js';
import { SceneCard } from './scene-card.js';
import { addSceneAfter, budgetMessage, deleteScene, moveScene, updateScene } from './storyboard-model.js';
import { LatestVersion } from './storyboard-player.js';
import { MusicSettings, VideoSettings } from './storyboard-settings.js';
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

  if (editor.boardQuery.isError) {
    return (
      <div className="rs-page">
        <PageHeader title="Storyboard" />
        <section className="rs-card rs-storyboard__empty" role="alert">
          <p>{errorMessage(editor.boardQuery.error, 'The storyboard could not be loaded. Try again in a moment.')}</p>
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

  const aspect = params?.resolution === '16:9' ? '16 / 9' : params?.resolution === '1:1' ? '1 / 1' : '9 / 16';
  const budget = budgetMessage(draft, board.durationSeconds);
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
          <VideoSettings draft={draft} errors={errors} locked={locked} edit={edit} params={params} />
          <MusicSettings draft={draft} errors={errors} locked={locked} edit={edit} uploading={editor.musicBusy} onUpload={(file) => void editor.uploadMusic(file)} />
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
              onUpload={(file) => editor.uploadPicture(index, file)}
            />
          ))}
        </ol>
      </section>

      <RenderBar
        message={editor.formError ?? budget}
        summary={`${draft.scenes.length} scenes · ${board.rendersLeft} renders left`}
        busy={editor.busy}
        rendering={rendering}
        locked={locked}
        canRender={budget === null && board.rendersLeft > 0}
        onSave={() => void editor.saveOnly()}
        onRender={() => void editor.render()}
      />
    </div>
  );
}
