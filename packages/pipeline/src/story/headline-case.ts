/** Words English headline style leaves lower-case inside a title (articles, short conjunctions and prepositions). */
const MINOR_WORDS = new Set([
  'a',
  'an',
  'the',
  'and',
  'but',
  'or',
  'nor',
  'for',
  'so',
  'yet',
  'as',
  'at',
  'by',
  'in',
  'of',
  'off',
  'on',
  'per',
  'to',
  'up',
  'via',
  'vs',
  'from',
  'into',
  'with',
]);

/** An article as the first word of a typed topic: sentence case, not a name. */
const ARTICLES = new Set(['A', 'An', 'The']);

/**
 * An English topic in headline case, the way titles around it are written ("why octopuses have
 * three hearts" → "Why Octopuses Have Three Hearts"). Only all-lower-case words change, and only
 * their first letter: what the creator typed with capitals (NASA, iPhone, McDonald's), digits or
 * another script stays exactly as typed. The first and last words, and a word after a colon or a
 * dash, are capitalised even when minor. One exception the other way: an article typed with a capital
 * ("The", as a topic usually begins) goes lower case inside the title, where the template put the
 * topic after its own words ("The Mystery of the History of the Lighthouse").
 */
export function headlineCase(text: string): string {
  const tokens = text.split(/(\s+)/);
  const words = tokens.map((token, index) => ({ token, index })).filter(({ token }) => token.trim() !== '');
  return tokens
    .map((token, index) => {
      if (token.trim() === '') return token;
      const position = words.findIndex((word) => word.index === index);
      const previous = position > 0 ? words[position - 1]!.token : '';
      const edge = position === 0 || position === words.length - 1 || /[:—–-]$/.test(previous);
      if (!edge && ARTICLES.has(token)) return token.toLowerCase();
      // Letters first: a word that opens with a quote or a bracket is still capitalised after it.
      const match = /^([^\p{L}\p{N}]*)(\p{Ll}[\p{Ll}\p{M}'’-]*)(.*)$/u.exec(token);
      if (!match || /[\p{Lu}\p{N}]/u.test(match[3] ?? '')) return token;
      const [, before, word, after] = match as unknown as [string, string, string, string];
      if (!/^[\p{Script=Latin}'’-]+$/u.test(word)) return token;
      if (!edge && MINOR_WORDS.has(word.toLowerCase())) return token;
      return `${before}${word.charAt(0).toLocaleUpperCase('en')}${word.slice(1)}${after}`;
    })
    .join('');
}
