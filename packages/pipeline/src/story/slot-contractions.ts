import type { VideoLanguage } from '@reelsmith/contracts';

/**
 * French, Spanish and Portuguese merge a preposition with a following article ("de le" is "du",
 * "de el" is "del", "em o" is "no"). Creators often type a topic with its article ("le Triangle
 * des Bermudes"), so a template's "de {topic}" would read wrongly. The merge is applied only at
 * the seam between a template's preposition and a slot value, so the rest of the template and
 * the typed words themselves stay as they are.
 */
const CONTRACTIONS: Partial<Record<VideoLanguage, Readonly<Record<string, string>>>> = {
  fr: { 'de le': 'du', 'de les': 'des', 'à le': 'au', 'à les': 'aux' },
  es: { 'de el': 'del', 'a el': 'al' },
  pt: {
    'de o': 'do',
    'de a': 'da',
    'de os': 'dos',
    'de as': 'das',
    'em o': 'no',
    'em a': 'na',
    'em os': 'nos',
    'em as': 'nas',
    'a o': 'ao',
    'a os': 'aos',
    'a a': 'à',
    'a as': 'às',
    'por o': 'pelo',
    'por a': 'pela',
    'por os': 'pelos',
    'por as': 'pelas',
  },
};

function matchCase(original: string, replacement: string): string {
  const first = original[0] ?? '';
  return first !== first.toLocaleLowerCase() ? replacement[0]!.toLocaleUpperCase() + replacement.slice(1) : replacement;
}

/** Fills `{name}` slots, contracting a preposition before a slot with the slot value's leading article. */
export function fillSlots(template: string, slots: Readonly<Record<string, string>>, language: VideoLanguage): string {
  const table = CONTRACTIONS[language];
  if (!table) return template.replace(/\{(\w+)\}/g, (whole, name: string) => slots[name] ?? whole);
  return template.replace(/(?:(\p{L}+) )?\{(\w+)\}/gu, (whole, preposition: string | undefined, name: string) => {
    const value = slots[name];
    if (value === undefined) return whole;
    if (preposition === undefined) return value;
    const article = /^(\p{L}+) (?=\S)/u.exec(value)?.[1];
    const merged = article === undefined ? undefined : table[`${preposition.toLocaleLowerCase()} ${article.toLocaleLowerCase()}`];
    // A capitalised article ("Le Monde") is part of a name, so it is not merged.
    if (merged === undefined || article !== article!.toLocaleLowerCase()) return `${preposition} ${value}`;
    return `${matchCase(preposition, merged)} ${value.slice(article!.length + 1)}`;
  });
}
