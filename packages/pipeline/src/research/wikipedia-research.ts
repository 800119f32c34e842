import type { FoundPicture, PictureRequest, ResearchProvider, WikipediaArticle } from '../providers/types.js';
import { freeLicence, pictureAttribution } from './commons-licence.js';
import type { CommonsPicture, WikimediaClient } from './wikimedia-client.js';

/** An article shorter than this cannot tell even a 30 s video. */
const MIN_ARTICLE_CHARACTERS = 300;
const SEARCH_RESULTS = 5;
/** A picture whose short side is below this would be blown up into blur. */
const MIN_PICTURE_SIDE = 320;

/** Words that never decide a match ("Why", "the", "haben"). */
const FILLER = new Set(
  (
    'a an the of and or in on at to for from by is are was were be why how what who when where which do does did have has had ' +
    'der die das und oder in im am an zu von mit ist sind warum wie was wer wann wo haben hat ein eine einen ' +
    'el la los las y o en de del con es son por qué como cómo un una ' +
    'le la les et ou en de du des avec est sont pourquoi comment un une ' +
    'o a os as e ou em de do da dos das com é são por que como um uma'
  ).split(' '),
);

const wordsOf = (text: string): string[] =>
  text
    .normalize('NFKC')
    .toLocaleLowerCase()
    .replace(/\([^)]*\)/g, ' ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word && !FILLER.has(word));

/** Same word, or one an inflection of the other ("octopus"/"octopuses", "herz"/"herzen"). */
const sameWord = (a: string, b: string): boolean => {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 4 && long.startsWith(short) && long.length - short.length <= 3;
};

/**
 * An article clearly matches a topic when every word of its title (less a "(disambiguation)" note)
 * is a word of the topic: "Octopus" for "Why octopuses have three hearts", never "Heart" alone.
 * Topics in spaceless scripts (Japanese) match when the title appears in them whole.
 */
export function titleMatchesTopic(title: string, topic: string): boolean {
  const titleWords = wordsOf(title);
  if (titleWords.length === 0) return false;
  const bare = title.replace(/\s*\([^)]*\)\s*/g, '').trim();
  if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(bare)) return bare.length >= 2 && topic.includes(bare);
  const topicWords = wordsOf(topic);
  if (titleWords.length > topicWords.length) return false;
  const matched = titleWords.filter((word) => topicWords.some((topicWord) => sameWord(word, topicWord)));
  // A title that is one word must be a distinctive one; longer ones must be whole in the topic.
  return matched.length === titleWords.length && (titleWords.length > 1 || titleWords[0]!.length >= 3);
}

const aspectDistance = (picture: CommonsPicture, width: number, height: number): number =>
  Math.abs(Math.log(picture.width / picture.height / (width / height)));

/**
 * The candidates worth showing, best first: free, big enough, not yet used; among those a picture
 * whose shape suits the frame is preferred to a higher-ranked one that would lose most of itself to
 * the crop (a panorama in a 9:16 frame).
 */
export function rankPictures(
  pictures: readonly CommonsPicture[],
  request: Omit<PictureRequest, 'queries' | 'leadImage'>,
): CommonsPicture[] {
  const usable = pictures.filter(
    (picture) =>
      !request.avoidFiles.has(picture.fileName) &&
      Math.min(picture.width, picture.height) >= MIN_PICTURE_SIDE &&
      freeLicence(picture.metadata) !== null,
  );
  return usable
    .map((picture, rank) => ({ picture, score: rank + 6 * aspectDistance(picture, request.width, request.height) }))
    .sort((a, b) => a.score - b.score)
    .map(({ picture }) => picture);
}

export function createWikipediaResearch(client: WikimediaClient): ResearchProvider {
  async function usable(article: WikipediaArticle | null): Promise<WikipediaArticle | null> {
    if (!article || article.disambiguation || article.text.length < MIN_ARTICLE_CHARACTERS) return null;
    return article;
  }

  async function download(picture: CommonsPicture, signal: AbortSignal): Promise<FoundPicture> {
    const licence = freeLicence(picture.metadata)!;
    return {
      bytes: await client.downloadPicture(picture.downloadUrl, signal),
      fileName: picture.fileName,
      attribution: pictureAttribution(picture, licence),
    };
  }

  return {
    name: 'wikipedia',
    findArticles: (query, language, signal) => client.searchArticles(query, language, SEARCH_RESULTS, signal),

    async findArticle(topic, language, signal) {
      const matches = await client.searchArticles(topic, language, SEARCH_RESULTS, signal);
      const match = matches.find((candidate) => titleMatchesTopic(candidate.title, topic));
      return match ? usable(await client.readArticle(match.title, language, signal)) : null;
    },

    async readArticle(title, language, signal) {
      return usable(await client.readArticle(title, language, signal));
    },

    async findPicture(request, signal) {
      if (request.leadImage && !request.avoidFiles.has(`File:${request.leadImage}`)) {
        const lead = await client.pictureByName(request.leadImage, request.width, signal);
        const [fits] = lead ? rankPictures([lead], request) : [];
        // The lead image leads only where its shape suits the frame reasonably (a crop keeps most of it).
        if (fits && aspectDistance(fits, request.width, request.height) < 0.9) return download(fits, signal);
      }
      for (const query of request.queries) {
        const [best] = rankPictures(await client.searchPictures(query, request.width, signal), request);
        if (best) return download(best, signal);
      }
      return null;
    },

    async health(signal) {
      try {
        await client.searchArticles(
          'Wikipedia',
          'en',
          1,
          signal ? AbortSignal.any([signal, AbortSignal.timeout(8_000)]) : AbortSignal.timeout(8_000),
        );
        return { name: 'wikipedia', status: 'healthy', details: 'Wikipedia search answers' };
      } catch (error) {
        return { name: 'wikipedia', status: 'error', details: (error as Error).message };
      }
    },
  };
}
