import './source-credit.css';

/**
 * What the creator should know about how a finished video was made (its `result.notes`): "Natural
 * voices are not downloaded yet (npm run voices:download): narrated with the basic voice instead of
 * Heart." `npm run generate` prints these; without them here the studio's creator would hear another
 * voice than the one picked and not know why.
 */
export function VideoNotes({ notes }: { notes: readonly string[] | undefined }) {
  if (!notes || notes.length === 0) return null;
  return (
    <div className="rs-research-note" role="note" aria-label="About this video">
      {notes.map((note) => (
        <p key={note} className="rs-source-credit">
          {note}
        </p>
      ))}
    </div>
  );
}
