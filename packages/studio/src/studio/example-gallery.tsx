import { GALLERY_TEXT, RESOLUTIONS, type GalleryExample, type GalleryResponse, type Resolution } from '@reelsmith/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiUrl, usePlatform } from '../platform.js';
import { RESOLUTION_LABELS } from '../preferences/video-defaults.js';
import { useApi } from '../services.js';

export const galleryQueryKey = ['gallery'] as const;
/** While the server is still making examples, it is asked again this often. */
const MAKING_POLL_MS = 20_000;
const SLUG: Record<Resolution, string> = { '9:16': 'portrait', '16:9': 'landscape', '1:1': 'square' };

function ExampleTile({
  resolution,
  example,
  state,
}: {
  resolution: Resolution;
  example: GalleryExample | undefined;
  /** undefined until the server answers: the tile is an empty frame of the video's size. */
  state: GalleryResponse['state'] | undefined;
}) {
  const platform = usePlatform();
  const label = RESOLUTION_LABELS[resolution];
  return (
    <figure className={`rs-gallery__tile rs-gallery__tile--${SLUG[resolution]}`}>
      {example ? (
        // preload="none": nothing of the video loads until the visitor presses play; the small poster
        // holds its place. Muted, so it can play in place without startling anyone.
        <video
          className="rs-gallery__media"
          src={apiUrl(platform, example.videoUrl)}
          poster={apiUrl(platform, example.posterUrl)}
          width={example.width}
          height={example.height}
          preload="none"
          muted
          controls
          playsInline
          aria-label={`Example video, ${label}: ${example.title}`}
        />
      ) : state ? (
        <div
          className="rs-gallery__media rs-gallery__placeholder"
          role="img"
          aria-label={`Example video, ${label}: ${state === 'failed' ? GALLERY_TEXT.failed : GALLERY_TEXT.making}`}
        >
          <span>{state === 'failed' ? GALLERY_TEXT.failed : GALLERY_TEXT.making}</span>
        </div>
      ) : (
        <div className="rs-gallery__media rs-gallery__placeholder" />
      )}
      <figcaption className="rs-gallery__caption">
        <span className="rs-gallery__format">{label}</span>
        {example ? (
          <span className="rs-gallery__title">
            {example.title} · {Math.round(example.durationSeconds)} s
          </span>
        ) : null}
      </figcaption>
    </figure>
  );
}

/**
 * "See what it makes": one example video per format, made by the server's own generator, across the
 * top of the visitor's page. Until the server answers its frame holds the players' place (so the
 * form below does not move when they arrive); while examples are being made their tiles say so.
 * A server that makes none (GALLERY_EXAMPLES=off, or all failed) shows nothing.
 */
export function ExampleGallery() {
  const api = useApi();
  const { data } = useQuery({
    queryKey: galleryQueryKey,
    queryFn: ({ signal }) => api.call('gallery', { signal }),
    refetchInterval: (query) => (query.state.data?.state === 'making' ? MAKING_POLL_MS : false),
  });
  if (data && (data.state === 'off' || (data.state === 'failed' && data.examples.length === 0))) return null;
  return (
    <section className="rs-card rs-gallery" aria-labelledby="rs-gallery-title" aria-busy={data?.state !== 'ready'}>
      <h2 id="rs-gallery-title" className="rs-section-title">
        {GALLERY_TEXT.title}
      </h2>
      <p className="rs-gallery__subtitle">{GALLERY_TEXT.subtitle}</p>
      <div className="rs-gallery__grid">
        {RESOLUTIONS.map((resolution) => (
          <ExampleTile
            key={resolution}
            resolution={resolution}
            example={data?.examples.find((example) => example.resolution === resolution)}
            state={data?.state}
          />
        ))}
      </div>
    </section>
  );
}
