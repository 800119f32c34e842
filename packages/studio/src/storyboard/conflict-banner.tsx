import type { Storyboard } from '@reelsmith/contracts';

/**
 * Shown when a save found the storyboard changed in another tab or window since this one opened it:
 * autosave stops until the creator takes the other version or keeps theirs over it.
 */
export function ConflictBanner({ theirs, onReload, onKeepMine }: { theirs: Storyboard; onReload(): void; onKeepMine(): void }) {
  const changed = theirs.scenes.length;
  return (
    <section
      className="rs-card rs-storyboard__conflict"
      role="alertdialog"
      aria-labelledby="rs-conflict-title"
      aria-describedby="rs-conflict-text"
    >
      <h2 id="rs-conflict-title" className="rs-section-title">
        This storyboard changed in another tab: reload or keep yours
      </h2>
      <p id="rs-conflict-text">
        {`Another tab or window saved "${theirs.title}" (${changed} ${changed === 1 ? 'scene' : 'scenes'}) after this page opened it. `}
        Reload shows that version and drops the edits made here; Keep yours saves this page&apos;s version over it.
      </p>
      <div className="rs-storyboard__conflict-actions">
        <button type="button" className="rs-button rs-button--ghost" onClick={onReload}>
          Reload
        </button>
        <button type="button" className="rs-button rs-button--primary" onClick={onKeepMine}>
          Keep yours
        </button>
      </div>
    </section>
  );
}
