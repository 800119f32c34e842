import type { ResearchProvider, WikipediaArticle } from '../providers/types.js';
import { leadDefinesTopic, titleMatchesTopic } from './article-match.js';
import { findScenePictures } from './commons-pictures.js';
import type { WikimediaClient } from './wikimedia-client.js';

/** An article shorter than this cannot tell even a 30 s video. */
const MIN_ARTICLE_CHARACTERS = 300;
const SEARCH_RESULTS = 5;
/** Title-matching hits read before giving up on them (each read is a request within the research budget). */
const MAX_ARTICLE_READS = 2;

export { titleMatchesTopic } from './article-match.js';

export function createWikipediaResearch(client: WikimediaClient): ResearchProvider {
  async function usable(article: WikipediaArticle | null): Promise<WikipediaArticle | null> {
    if (!article || article.disambiguation || article.text.length < MIN_ARTICLE_CHARACTERS) return null;
    return article;
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

    findPictures: (request, signal) => findScenePictures(client, request, signal),
    downloadPicture: (candidate, signal) => client.downloadPicture(candidate.downloadUrl, signal),

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
