/**
 * The key noun of an English picture prompt: the head of its first noun phrase, the last word
 * before the first preposition, comma or clause ("a red bicycle on a beach at dawn" shows a
 * bicycle; "lightning over a dark sea" shows lightning). What a generated picture is said to show
 * when the provider does not say it itself.
 */
const PHRASE_END = new Set(
  (
    'about above across after against along among around at before behind below beneath beside between beyond by during for from in inside into near ' +
    'of off on onto out outside over past through throughout to toward towards under underneath until up upon with within without and or but while ' +
    'as that which who where when is are was were being glowing walking standing sitting flying cutting parting breaking rising falling holding looking ' +
    'dancing running swimming riding playing shining floating crossing climbing growing burning erupting blooming sleeping waiting'
  ).split(' '),
);
const LEADING = new Set('a an the this that these those some one two three many several its their his her our my your'.split(' '));

export function keyNoun(prompt: string): string | null {
  const firstClause = prompt.split(/[,;:.!?\n]/u)[0] ?? '';
  const words = firstClause.toLocaleLowerCase().match(/[\p{L}\p{N}'-]+/gu) ?? [];
  const phrase: string[] = [];
  for (const word of words) {
    if (PHRASE_END.has(word) && phrase.some((kept) => !LEADING.has(kept))) break;
    phrase.push(word);
  }
  const head = phrase.filter((word) => !LEADING.has(word)).at(-1);
  return head ?? null;
}
