import type { PostKit } from '@reelsmith/contracts';
import type { WrittenPost } from '../providers/types.js';
import { stopWordsFor } from './source-stop-words.js';
import { isSpaceless, splitSentences, words } from './source-text.js';

/**
 * The post kit written offline from the story itself: what a creator pastes into YouTube, TikTok or
 * Instagram next to the video. The title is the story's (cut at a word within the platforms' 100
 * characters); the description is the narration's first two or three sentences, then the credits the
 * licences ask for, then a notice that the video was made with AI (every platform asks for one); the
 * hashtags are the words the narration and the topic lean on most, then a few of the language's
 * usual ones, 3 to 8 of them, none twice.
 */
export const POST_TITLE_MAX = 100;
export const POST_SUMMARY_MAX = 320;
export const POST_HASHTAGS_MIN = 3;
export const POST_HASHTAGS_MAX = 8;

export interface PostKitInput {
  title: string;
  topic: string;
  language: string;
  narration: readonly string[];
  /** Lines that credit the source and the pictures, already worded (see postCreditLines). */
  credits: readonly string[];
  /** What the story writer wrote for the post (a model does); its summary and hashtags come first. */
  written?: WrittenPost;
}

interface LanguageWords {
  aiNotice: string;
  basedOn: string;
  pictures: string;
  /** The language's common discovery tags, used after the video's own. */
  common: readonly string[];
}

const LANGUAGE_WORDS: Record<string, LanguageWords> = {
  en: {
    aiNotice: 'Made with AI: the narration and the pictures of this video were generated with Reelsmith.',
    basedOn: 'Based on',
    pictures: 'Pictures',
    common: ['Shorts', 'DidYouKnow', 'Facts', 'Learn'],
  },
  de: {
    aiNotice: 'Mit KI erstellt: Sprecherstimme und Bilder dieses Videos wurden mit Reelsmith erzeugt.',
    basedOn: 'Quelle',
    pictures: 'Bilder',
    common: ['Shorts', 'WusstestDu', 'Fakten', 'Wissen'],
  },
  es: {
    aiNotice: 'Hecho con IA: la narración y las imágenes de este vídeo se generaron con Reelsmith.',
    basedOn: 'Basado en',
    pictures: 'Imágenes',
    common: ['Shorts', 'SabíasQue', 'Datos', 'Aprende'],
  },
  fr: {
    aiNotice: 'Réalisé avec l’IA : la narration et les images de cette vidéo ont été générées avec Reelsmith.',
    basedOn: 'D’après',
    pictures: 'Images',
    common: ['Shorts', 'LeSaviezVous', 'Culture', 'Apprendre'],
  },
  pt: {
    aiNotice: 'Feito com IA: a narração e as imagens deste vídeo foram geradas com o Reelsmith.',
    basedOn: 'Baseado em',
    pictures: 'Imagens',
    common: ['Shorts', 'VocêSabia', 'Curiosidades', 'Aprenda'],
  },
  hi: {
    aiNotice: 'AI से बनाया गया: इस वीडियो की आवाज़ और चित्र Reelsmith से बनाए गए हैं।',
    basedOn: 'स्रोत',
    pictures: 'चित्र',
    common: ['Shorts', 'क्या_आप_जानते_हैं', 'रोचक_तथ्य', 'ज्ञान'],
  },
  ja: {
    aiNotice: 'AIで作成：この動画のナレーションと画像はReelsmithで生成されました。',
    basedOn: '出典',
    pictures: '画像',
    common: ['Shorts', '雑学', '豆知識', '学び'],
  },
};

/** Counting and question words: frequent in a topic ("Why … three hearts"), never what a viewer searches for. */
const NOT_TAGS = new Set(
  `one two three four five six seven eight nine ten first second third hundred thousand million why how what when where which who
  eins zwei drei vier fünf sechs sieben acht neun zehn erste zweite dritte warum wieso weshalb wie was wann wo welche
  uno dos tres cuatro cinco seis siete ocho nueve diez primero segundo tercero qué por cómo cuándo dónde cuál
  deux trois quatre cinq six sept huit neuf dix premier deuxième troisième pourquoi comment quand quel quelle
  dois duas três quatro cinco seis sete oito nove dez primeiro segundo terceiro porquê quê
  एक दो तीन चार पांच पाँच छह सात आठ नौ दस पहला दूसरा तीसरा क्यों कैसे कब कहाँ कौन
  一つ 二つ 三つ 四つ 五つ 一 二 三 四 五 理由 なぜ どう 何 いつ どこ`.split(/\s+/u),
);

const wordsFor = (language: string): LanguageWords => LANGUAGE_WORDS[language.slice(0, 2).toLowerCase()] ?? LANGUAGE_WORDS.en!;

/** A text cut at a word (or, without spaces, a character) so that it and an ellipsis fit `max`. */
export function cutAtWord(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (Array.from(clean).length <= max) return clean;
  const chars = Array.from(clean).slice(0, max - 1);
  const head = chars.join('');
  const space = head.lastIndexOf(' ');
  return `${(space > max * 0.6 ? head.slice(0, space) : head).replace(/[\s,;:.–—-]+$/u, '')}…`;
}

/** The credit lines of a post, in the video's language: its source, then each picture's author and licence. */
export function postCreditLines(
  language: string,
  credits: {
    source?: { title: string; url?: string | undefined } | undefined;
    pictures?: readonly { author?: string | undefined; license?: string | undefined; sourceUrl?: string | undefined }[];
  },
): string[] {
  const labels = wordsFor(language);
  const lines: string[] = [];
  if (credits.source) lines.push(`${labels.basedOn}: ${credits.source.title}${credits.source.url ? ` (${credits.source.url})` : ''}`);
  const pictures = (credits.pictures ?? [])
    .map((picture) => [picture.author, picture.license, picture.sourceUrl].filter(Boolean).join(', '))
    .filter((line, index, all) => line && all.indexOf(line) === index);
  if (pictures.length > 0) lines.push(`${labels.pictures}: ${pictures.join('; ')}`);
  return lines;
}

/** A term as a hashtag: words joined in CamelCase for spaced scripts, as written otherwise; no punctuation. */
function hashtagOf(term: string, language: string): string | null {
  const parts = term
    .split(/[^\p{L}\p{M}\p{N}_]+/u)
    .filter(Boolean)
    .map((part) =>
      isSpaceless(language) || !/\p{Ll}/u.test(part.charAt(0)) ? part : part.charAt(0).toLocaleUpperCase(language) + part.slice(1),
    );
  const tag = parts.join('');
  return tag && !/^\p{N}+$/u.test(tag) ? `#${tag}` : null;
}

/**
 * What a topic is about, in the words the creator typed: its words without stop words, question and
 * counting words, or short words ("How honeybees talk by dancing": honeybees, talk, dancing). The
 * offline writer's hashtags and picture prompts use these, never its own template words.
 */
export function topicTerms(topic: string, language: string): string[] {
  return keyTerms({ title: '', topic, language, narration: [], credits: [] });
}

/**
 * The hashtags of a video told from its topic alone: the topic's words, then the language's usual
 * discovery tags up to the minimum and a little more (3 to 8 in all, none twice). Template sentences
 * ("If you have ever wondered how … really works") say nothing a viewer searches for, so the
 * narration's words are never tags ("#Know #Really #Time").
 */
export function topicHashtags(topic: string, language: string): string[] {
  const tags: string[] = [];
  const push = (tag: string | null) => {
    if (!tag || tags.length >= POST_HASHTAGS_MAX || Array.from(tag).length > 40) return;
    if (!tags.some((known) => known.toLocaleLowerCase(language) === tag.toLocaleLowerCase(language))) tags.push(tag);
  };
  for (const term of topicTerms(topic, language).slice(0, POST_HASHTAGS_MAX - 2)) push(hashtagOf(term, language));
  for (const common of wordsFor(language).common) if (tags.length < POST_HASHTAGS_MIN + 2) push(hashtagOf(common, language));
  return tags;
}

/** Words that say what the video is about: the topic's and the narration's, most used first (topic words count double). */
function keyTerms(input: PostKitInput): string[] {
  const stop = stopWordsFor(input.language);
  const spaceless = isSpaceless(input.language);
  const counts = new Map<string, { word: string; count: number; first: number }>();
  let position = 0;
  const add = (text: string, weight: number) => {
    for (const word of words(text, input.language)) {
      position += 1;
      const lower = word.toLocaleLowerCase(input.language);
      if (stop.has(lower) || NOT_TAGS.has(lower) || /^\p{N}+$/u.test(lower)) continue;
      // Japanese words with kana endings are verbs and adjectives ("送り"); the nouns are kanji or katakana.
      if (
        spaceless
          ? /\p{Script=Hiragana}/u.test(lower) || Array.from(lower).length < 2
          : Array.from(lower).length < (input.language === 'hi' ? 3 : 4)
      )
        continue;
      // "octopus" and "octopuses", "Krake" and "Kraken": one tag, the first spelling met.
      const key = spaceless ? lower : Array.from(lower).slice(0, 5).join('');
      const seen = counts.get(key);
      if (seen) seen.count += weight;
      else counts.set(key, { word, count: weight, first: position });
    }
  };
  add(input.topic, 2);
  add(input.title, 1);
  for (const line of input.narration) add(line, 1);
  // Words said once are kept only to reach the minimum: a word the video leans on is said again or is in the topic.
  const ranked = [...counts.values()].sort((a, b) => b.count - a.count || a.first - b.first);
  const leaned = ranked.filter((entry) => entry.count >= 2);
  return [...leaned, ...ranked.filter((entry) => entry.count < 2).slice(0, Math.max(0, POST_HASHTAGS_MIN - leaned.length))].map(
    (entry) => entry.word,
  );
}

/**
 * The post a model wrote, when it keeps the rules: a title of 1–100 characters, a description, and
 * 3–8 different hashtags (told apart case-insensitively once each is a clean hashtag). Anything else
 * is undefined, and the post is then built offline from the story as for any other writer.
 */
export function writtenPostFrom(value: unknown, language: string): WrittenPost | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { title, description, hashtags } = value as Record<string, unknown>;
  if (typeof title !== 'string' || typeof description !== 'string' || !Array.isArray(hashtags)) return undefined;
  const cleanTitle = title.replace(/\s+/g, ' ').trim();
  const summary = description.trim();
  if (!cleanTitle || Array.from(cleanTitle).length > POST_TITLE_MAX || !summary) return undefined;
  const tags: string[] = [];
  for (const tag of hashtags) {
    const clean = typeof tag === 'string' ? hashtagOf(tag.replace(/^#+/u, ''), language) : null;
    // A tag that is no hashtag at all ("2024", "!!!") is left out; the others still count.
    if (!clean) continue;
    if (!tags.some((known) => known.toLocaleLowerCase(language) === clean.toLocaleLowerCase(language))) tags.push(clean);
  }
  if (tags.length < POST_HASHTAGS_MIN || tags.length > POST_HASHTAGS_MAX) return undefined;
  return { title: cleanTitle, summary, hashtags: tags };
}

/**
 * The post's title: the story's, unless it only names the subject while the topic asked says more. A
 * researched video's story is titled with its article's name ("Octopus"), which as a post title says
 * nothing of the video ("Why octopuses have three hearts"): the topic, as the creator wrote it, is
 * the title then. A title a model wrote for the post is kept as it is.
 */
function postTitle(input: PostKitInput): string {
  const title = input.title.trim();
  const topic = input.topic.trim();
  if (!title || input.written || !topic) return title || topic;
  const locale = input.language;
  if (title.toLocaleLowerCase(locale) === topic.toLocaleLowerCase(locale)) return title;
  const titleWords = words(title, locale).length;
  const topicWords = words(topic, locale).length;
  // "Octopus" or "Great Barrier Reef" against a topic of more words: a name, not a title.
  const onlyAName = titleWords <= 3 && topicWords > titleWords && !/[.!?:;,。？！]/u.test(title);
  if (!onlyAName) return title;
  return topic.charAt(0).toLocaleUpperCase(locale) + topic.slice(1);
}

export function buildPostKit(input: PostKitInput): PostKit {
  const labels = wordsFor(input.language);
  const title = cutAtWord(postTitle(input), POST_TITLE_MAX);

  // Two or three of the narration's sentences, as many as fit the summary's length.
  const sentences = splitSentences(input.narration.join(isSpaceless(input.language) ? '' : ' '), input.language)
    .map((sentence) => sentence.text)
    .filter(Boolean);
  const chosen: string[] = [];
  for (const sentence of sentences) {
    const next = [...chosen, sentence].join(isSpaceless(input.language) ? '' : ' ');
    if (chosen.length >= 2 && (Array.from(next).length > POST_SUMMARY_MAX || chosen.length >= 3)) break;
    chosen.push(sentence);
    if (chosen.length >= 3) break;
  }
  const summary = cutAtWord(input.written?.summary.trim() || chosen.join(isSpaceless(input.language) ? '' : ' '), POST_SUMMARY_MAX * 2);
  const description = [summary, input.credits.join('\n'), labels.aiNotice].filter(Boolean).join('\n\n');

  const hashtags: string[] = [];
  const seen = new Set<string>();
  const push = (tag: string | null) => {
    if (!tag || hashtags.length >= POST_HASHTAGS_MAX) return;
    const key = tag.toLocaleLowerCase(input.language);
    if (seen.has(key) || Array.from(tag).length > 40) return;
    seen.add(key);
    hashtags.push(tag);
  };
  for (const tag of input.written?.hashtags ?? []) push(hashtagOf(tag.replace(/^#+/u, ''), input.language));
  // The writer's own hashtags stand alone when there are enough of them; the story's words only fill up.
  if (hashtags.length >= POST_HASHTAGS_MIN) return { title, description, hashtags };
  for (const term of keyTerms(input).slice(0, POST_HASHTAGS_MAX - 2))
    if (hashtags.length < POST_HASHTAGS_MAX - 2) push(hashtagOf(term, input.language));
  for (const common of labels.common) if (hashtags.length < POST_HASHTAGS_MIN + 2) push(hashtagOf(common, input.language));
  return { title, description, hashtags };
}
