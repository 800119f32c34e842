import type { Attribution } from './source.js';

// Its own module: only the credit lists that copy it load it, never a first screen.
/** The credits as plain text for a post's description: one line each, the licence and the link. */
export function attributionsText(attributions: readonly Attribution[]): string {
  return attributions
    .map((credit) => {
      const what = credit.kind === 'text' ? `Text: "${credit.title}"` : `Picture: "${credit.title}"`;
      const by = credit.author ? ` by ${credit.author}` : '';
      return `${what}${by}, ${credit.license}${credit.licenseUrl ? ` (${credit.licenseUrl})` : ''}, ${credit.sourceUrl}`;
    })
    .join('\n');
}
