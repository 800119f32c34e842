import { attributionsText, type Attribution } from '@reelsmith/contracts';
import { toast } from '../../toaster.js';
import './source-credit.css';

/**
 * "Credits": the Wikipedia article and the Commons pictures a video uses, each with its author and
 * licence, and a button that copies them as text for the post's description (the licences ask that
 * the credit travel with the video).
 */
export function AttributionCredits({ attributions }: { attributions: readonly Attribution[] | undefined }) {
  if (!attributions?.length) return null;
  const copy = () => {
    void navigator.clipboard
      ?.writeText(attributionsText(attributions))
      .then(() => toast.success('Credits copied'))
      .catch(() => toast.error('The credits could not be copied; select them and copy them yourself'));
  };
  return (
    <details className="rs-attribution-credits">
      <summary>Credits ({attributions.length})</summary>
      <ul aria-label="Credits">
        {attributions.map((credit) => (
          <li key={`${credit.kind}:${credit.sourceUrl}`}>
            {credit.kind === 'text' ? 'Text: ' : 'Picture: '}
            <a href={credit.sourceUrl} target="_blank" rel="noreferrer">
              {credit.title}
            </a>
            {credit.author ? ` by ${credit.author}` : null},{' '}
            {credit.licenseUrl ? (
              <a href={credit.licenseUrl} target="_blank" rel="noreferrer">
                {credit.license}
              </a>
            ) : (
              credit.license
            )}
          </li>
        ))}
      </ul>
      <button type="button" className="rs-button rs-button--ghost rs-button--small" onClick={copy}>
        Copy credits
      </button>
    </details>
  );
}
