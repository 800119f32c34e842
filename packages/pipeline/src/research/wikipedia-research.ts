import type { FoundPicture, PictureRequest, ResearchProvider, WikipediaArticle } from '../providers/types.js';
import { leadDefinesTopic, titleMatchesTopic } from './article-match.js';
import { freeLicence, pictureAttribution } from './commons-licence.js';
import type { CommonsPicture, WikimediaClient } from './wikimedia-client.js';

/** An article shorter than this cannot tell even a 30 s video. */
const MIN_ARTICLE_CHARACTERS = 300;
const SEARCH_RESULTS = 5;
/** Title-matching hits read before giving up on them (each read is a request within the research budget). */
const MAX_ARTICLE_READS = 2;
/** A picture whose short side is below this would be blown up into blur. */
const MIN_PICTURE_SIDE = 320;

export { titleMatchesTopic } from './article-match.js';

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
      // The first hit whose title the topic names and that is a readable article (a disambiguation
      // page or a stub passes to the next such hit).
      const named = matches.filter((candidate) => titleMatchesTopic(candidate.title, topic)).slice(0, MAX_ARTICLE_READS);
      for (const match of named) {
        const article = await usable(await client.readArticle(match.title, language, signal));
        if (article) return article;
      }
      // Else the search's top hit, when its lead sentence defines the topic's subject ("The western
      // honey bee (Apis mellifera) is…" for "How honeybees talk by dancing").
      const top = matches[0];
      if (!top || named.some((match) => match.title === top.title)) return null;
      const article = await usable(await client.readArticle(top.title, language, signal));
      return article && leadDefinesTopic(article.text, topic, language) ? article : null;
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
