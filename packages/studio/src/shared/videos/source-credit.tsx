import type { SourceCredit as SourceCreditValue } from '@reelsmith/contracts';
import './source-credit.css';

/** What the credit link reads: the source's title, else the page's host, else what kind of text it was. */
export function sourceCreditText(source: SourceCreditValue): string {
  if (source.title) return source.title;
  if (source.url) {
    try {
      return new URL(source.url).host;
    } catch {
      return source.url;
    }
  }
  return source.kind === 'script' ? 'your script' : 'pasted text';
}

/** "Based on Wikipedia: Octopus" for an article research found or the creator chose; "Based on: …" otherwise. */
const basedOn = (source: SourceCreditValue): string => (source.kind === 'wikipedia' ? 'Based on Wikipedia:' : 'Based on:');

/** "Based on: <title>" linking to the page a video was made from (My Videos, Recent Videos, the storyboard). */
export function SourceCredit({ source, className = 'rs-source-credit' }: { source: SourceCreditValue | undefined; className?: string }) {
  if (!source) return null;
  const text = sourceCreditText(source);
  return (
    <p className={className}>
      {basedOn(source)}{' '}
      {source.url ? (
        <a href={source.url} target="_blank" rel="noreferrer">
          {text}
        </a>
      ) : (
        text
      )}
    </p>
  );
}
