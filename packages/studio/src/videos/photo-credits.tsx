import type { ArtworkCredit, ImageCredit } from '@reelsmith/contracts';

const SOURCE_NAMES: Record<ImageCredit['source'], string> = { pexels: 'Pexels', unsplash: 'Unsplash' };

/**
 * "Photos: Ana Reef, Ben Deep on Pexels": the credit Pexels and Unsplash ask for, with links to
 * each photographer (or videographer) and to the library. One mention per author, in the order
 * first used.
 */
export function PhotoCredits({ credits }: { credits: readonly ImageCredit[] | undefined }) {
  if (!credits?.length) return null;
  const bySource = new Map<ImageCredit['source'], ImageCredit[]>();
  for (const credit of credits) {
    const list = bySource.get(credit.source) ?? [];
    if (!list.some((seen) => seen.authorUrl === credit.authorUrl)) list.push(credit);
    bySource.set(credit.source, list);
  }
  // Pexels clips carry a 'pexels-video:' id: the label names what the video really shows.
  const clips = credits.filter((credit) => credit.sourceId.startsWith('pexels-video:')).length;
  const label = clips === 0 ? 'Photos' : clips === credits.length ? 'Videos' : 'Photos and videos';
  return (
    <p className="rs-video-row__credits">
      {label}:{' '}
      {[...bySource].map(([source, authors], group) => (
        <span key={source}>
          {group > 0 ? '; ' : null}
          {authors.map((credit, index) => (
            <span key={credit.authorUrl}>
              {index > 0 ? ', ' : null}
              <a href={credit.authorUrl} target="_blank" rel="noreferrer">
                {credit.author}
              </a>
            </span>
          ))}{' '}
          on{' '}
          <a href={source === 'pexels' ? 'https://www.pexels.com' : 'https://unsplash.com'} target="_blank" rel="noreferrer">
            {SOURCE_NAMES[source]}
          </a>
        </span>
      ))}
    </p>
  );
}

/** "Artwork: Fluent Emoji by Microsoft (MIT)": the artwork sets the generated pictures draw on, as their licences ask. */
export function ArtworkCredits({ artwork }: { artwork: readonly ArtworkCredit[] | undefined }) {
  if (!artwork?.length) return null;
  return (
    <p className="rs-video-row__credits">
      Artwork:{' '}
      {artwork.map((credit, index) => (
        <span key={credit.name}>
          {index > 0 ? '; ' : null}
          <a href={credit.url} target="_blank" rel="noreferrer">
            {credit.name}
          </a>{' '}
          by {credit.author} ({credit.licence})
        </span>
      ))}
    </p>
  );
}
