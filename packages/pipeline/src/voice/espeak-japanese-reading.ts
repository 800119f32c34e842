import { createRequire } from 'node:module';
import path from 'node:path';
import kuromoji from 'kuromoji';
import type { SpeechWord } from './offline-word-timings.js';

/**
 * espeak-ng's Japanese voice only reads kana: every kanji comes out as "Chinese letter". So
 * Japanese narration is first read with kuromoji (a morphological analyser with its own
 * dictionary, no network) and espeak is given the katakana pronunciation, one phrase per word,
 * while captions keep the original writing.
 */

type Tokenizer = kuromoji.Tokenizer<kuromoji.IpadicFeatures>;
let tokenizerPromise: Promise<Tokenizer> | undefined;

function getTokenizer(): Promise<Tokenizer> {
  tokenizerPromise ??= new Promise<Tokenizer>((resolve, reject) => {
    const require = createRequire(import.meta.url);
    const dicPath = path.join(path.dirname(require.resolve('kuromoji/package.json')), 'dict');
    kuromoji.builder({ dicPath }).build((error, tokenizer) => {
      if (error) {
        tokenizerPromise = undefined;
        reject(error);
      } else resolve(tokenizer);
    });
  });
  return tokenizerPromise;
}

/** Parts of speech that lean on the word before them, forming one spoken phrase (bunsetsu). */
const ATTACHING = new Set(['助詞', '助動詞', '記号']);
const ATTACHING_DETAIL = new Set(['接尾', '非自立']);
/** Characters espeak's SSML parser or its ja voice would misread. */
const UNSPEAKABLE = /[<>&\p{Extended_Pictographic}]/gu;

/** Groups Japanese text into caption phrases, each with the kana espeak should say. */
export async function japaneseSpeechWords(text: string): Promise<SpeechWord[]> {
  const tokenizer = await getTokenizer();
  const words: SpeechWord[] = [];
  for (const token of tokenizer.tokenize(text)) {
    const surface = token.surface_form;
    if (surface.trim().length === 0) continue;
    const reading = token.pronunciation && token.pronunciation !== '*' ? token.pronunciation : surface;
    const spoken = reading.replace(UNSPEAKABLE, ' ');
    const previous = words[words.length - 1];
    const attaches =
      previous !== undefined &&
      (ATTACHING.has(token.pos) || ATTACHING_DETAIL.has(token.pos_detail_1)) &&
      // A bracket or quote opening a phrase belongs to the next word, not the previous one.
      !/^[「『（(【]/u.test(surface);
    const afterOpeningBracket = previous !== undefined && /^[「『（(【]+$/u.test(previous.display);
    if ((attaches || afterOpeningBracket) && previous) {
      previous.display += surface;
      previous.spoken += spoken;
    } else {
      words.push({ display: surface, spoken });
    }
  }
  return words;
}
