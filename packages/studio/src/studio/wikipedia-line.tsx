import { VIDEO_LANGUAGES, type ResearchArticlesResponse, type VideoLanguage } from '@reelsmith/contracts';
import { useEffect, useState } from 'react';
import { ApiError } from '../api/api-client.js';
import { useApi } from '../services.js';
import type { ResearchChoice } from './source-draft.js';
import './wikipedia-line.css';

/** The look-up waits until the creator pauses typing, so a topic typed word by word is asked once. */
export const LOOKUP_DELAY_MS = 500;
/**
 * After the server answers 503 (research switched off, or Wikimedia unreachable) the form stops
 * asking for this long: every keystroke would otherwise ask again for an answer that will not come.
 */
export const UNAVAILABLE_PAUSE_MS = 60_000;
let unavailableUntil = 0;

/** Forgets an earlier 503 (tests start each case afresh). */
export function resetWikipediaLookUp(): void {
  unavailableUntil = 0;
}

export interface WikipediaLineProps {
  idBase: string;
  /** The topic as typed (not empty). */
  topic: string;
  /** The narration language, whose Wikipedia is asked ('' until one is chosen: English's). */
  language: string;
  choice: ResearchChoice | undefined;
  onChoice(choice: ResearchChoice | undefined): void;
}

/** The Wikipedia a topic is looked up in: the narration language's, English's until one is chosen. */
export const researchLanguage = (language: string): VideoLanguage =>
  (VIDEO_LANGUAGES as readonly string[]).includes(language) ? (language as VideoLanguage) : 'en';

type Answer = { key: string; result: ResearchArticlesResponse | null };

/**
 * Topic mode's "Facts from Wikipedia: Octopus · change": which article the video will be told from,
 * looked up as the creator types (GET /api/research/articles), with a picker of the other matches
 * and "Don't look it up". Hidden when the server cannot look anything up (503) or the look-up fails:
 * the video is then written as before.
 */
export default function WikipediaLine({ idBase, topic, language: narration, choice, onChoice }: WikipediaLineProps) {
  const api = useApi();
  const language = researchLanguage(narration);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [open, setOpen] = useState(false);
  const off = choice === 'off';
  const query = topic.trim();
  const key = off ? null : `${language}\n${query}`;

  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      if (Date.now() < unavailableUntil) {
        setAnswer({ key, result: null });
        return;
      }
      api.call('researchArticles', { query: { q: query, language }, signal: controller.signal }).then(
        (result) => setAnswer({ key, result }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          if (error instanceof ApiError && error.status === 503) unavailableUntil = Date.now() + UNAVAILABLE_PAUSE_MS;
          setAnswer({ key, result: null });
        },
      );
    }, LOOKUP_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [api, key, query, language]);

  // An article picked from another language's Wikipedia does not exist under that title here.
  const picked = typeof choice === 'object' ? choice : null;
  useEffect(() => {
    if (picked && picked.language !== language) onChoice(undefined);
  }, [picked, language, onChoice]);

  const listId = `${idBase}-wikipedia-list`;
  if (off) {
    return (
      <p className="rs-wiki">
        <span className="rs-wiki__text">Not looked up on Wikipedia</span>
        {' · '}
        <button type="button" className="rs-link-button rs-wiki__action" onClick={() => onChoice(undefined)}>
          look it up
        </button>
      </p>
    );
  }
  const current = answer?.key === key ? answer : null;
  if (!current) {
    return (
      <p className="rs-wiki rs-wiki--muted" aria-live="polite">
        Looking for a Wikipedia article…
      </p>
    );
  }
  if (!current.result) return null;
  const { articles, match } = current.result;
  const used = picked?.title ?? match;
  if (articles.length === 0 && !used) {
    return <p className="rs-wiki rs-wiki--muted">No Wikipedia article on this topic: the video is written without one.</p>;
  }
  const choose = (next: ResearchChoice | undefined) => {
    onChoice(next);
    setOpen(false);
  };
  // The matched article first, then the other matches; a picked article stays listed even if a new answer lacks it.
  const listed = used && !articles.some((article) => article.title === used) ? [{ title: used }, ...articles] : articles;
  return (
    <div className="rs-wiki-box">
      <p className="rs-wiki" aria-live="polite">
        {used ? (
          <span className="rs-wiki__text">
            Facts from Wikipedia: <strong className="rs-wiki__title">{used}</strong>
          </span>
        ) : (
          <span className="rs-wiki__text">No Wikipedia article matches this topic exactly</span>
        )}
        {' · '}
        <button
          type="button"
          className="rs-link-button rs-wiki__action"
          aria-expanded={open}
          aria-controls={listId}
          aria-label={used ? `Change the Wikipedia article (now ${used})` : 'Choose a Wikipedia article'}
          onClick={() => setOpen(!open)}
        >
          {used ? 'change' : 'choose one'}
        </button>
      </p>
      {open ? (
        <fieldset className="rs-wiki__picker" id={listId}>
          <legend className="rs-wiki__legend">Tell the video from</legend>
          {listed.map((article) => (
            <label key={article.title} className="rs-wiki__option">
              <input
                type="radio"
                name={listId}
                checked={article.title === used}
                // The server's own match needs no pick: the request then stays a plain topic.
                onChange={() => choose(article.title === match ? undefined : { title: article.title, language })}
              />
              <span className="rs-wiki__option-text">
                <span className="rs-wiki__option-title">{article.title}</span>
                {'description' in article && article.description ? (
                  <span className="rs-wiki__option-description">{article.description}</span>
                ) : null}
              </span>
            </label>
          ))}
          <label className="rs-wiki__option">
            <input type="radio" name={listId} checked={false} onChange={() => choose('off')} />
            <span className="rs-wiki__option-text">
              <span className="rs-wiki__option-title">Don&apos;t look it up</span>
              <span className="rs-wiki__option-description">Write the video from the topic alone, without Wikipedia.</span>
            </span>
          </label>
        </fieldset>
      ) : null}
    </div>
  );
}
