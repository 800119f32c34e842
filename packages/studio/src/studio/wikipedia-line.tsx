import { RESEARCH_UNUSED_MESSAGES, VIDEO_LANGUAGES, type ResearchArticlesResponse, type VideoLanguage } from '@reelsmith/contracts';
import { useEffect, useId, useState } from 'react';
import { useApi, useAuth } from '../services.js';
import type { ResearchChoice, SourceDraft } from '../shared/generation/source-draft.js';

/** The look-up waits until the creator pauses typing, so a topic typed word by word is asked once. */
export const LOOKUP_DELAY_MS = 500;
/**
 * After the server answers that it cannot look anything up (`unavailable`: research switched off, or
 * Wikimedia unreachable) the form stops asking for this long: every keystroke would otherwise ask
 * again for an answer that will not come. Meanwhile the line keeps saying why.
 */
export const UNAVAILABLE_PAUSE_MS = 60_000;
let unavailableUntil = 0;
let unavailableReason: Unavailable = 'unreachable';
type Unavailable = NonNullable<ResearchArticlesResponse['unavailable']>;
/** The server said lately it cannot look anything up: the line says why until the pause is over. */
const paused = (): boolean => Date.now() < unavailableUntil;

/** Forgets an earlier "cannot look it up" (tests start each case afresh). */
export function resetWikipediaLookUp(): void {
  unavailableUntil = 0;
}

/** "Told from the topic alone: Wikipedia could not be reached": what the video will be, and why. */
function TopicAloneNote({ text }: { text: string }) {
  return (
    <p className="rs-wiki rs-wiki--muted rs-wiki--alone" role="note">
      {text}
    </p>
  );
}

export interface WikipediaLineProps {
  /** The topic as typed (not empty). */
  topic: string;
  /** The narration language, whose Wikipedia is asked ('' until one is chosen: English's). */
  language: string;
  /** The form's source (Topic mode): its `research` is this line's answer. */
  source: SourceDraft;
  onSource(source: SourceDraft): void;
}

/** The topic and language each picked article was picked for: the pick holds only while both are the same. */
const pickedFor = new WeakMap<ResearchChoice, string>();

/** The Wikipedia a topic is looked up in: the narration language's, English's until one is chosen. */
export const researchLanguage = (language: string): VideoLanguage =>
  (VIDEO_LANGUAGES as readonly string[]).includes(language) ? (language as VideoLanguage) : 'en';

type Answer = { key: string; result: ResearchArticlesResponse | null };

/**
 * Topic mode's "Facts from Wikipedia: Octopus · change": which article the video will be told from,
 * looked up as the creator types (GET /api/research/articles), with a picker of the other matches
 * and "Don't look it up". When the server cannot look anything up (research off, Wikipedia
 * unreachable) or nothing matches, it says the video will be told from the topic alone, and why.
 */
export default function WikipediaLine({ topic, language: narration, source, onSource }: WikipediaLineProps) {
  const api = useApi();
  const listId = useId();
  // A visitor's topic is not looked up: the look-up is for creators (it needs a session).
  const signedIn = useAuth((state) => state.isAuthenticated && state.user !== null);
  const language = researchLanguage(narration);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [open, setOpen] = useState(false);
  const choice = source.research;
  const off = choice !== undefined && 'research' in choice;
  const query = topic.trim();
  const key = off || !signedIn ? null : `${language}\n${query}`;
  const onChoice = (next: ResearchChoice | undefined) => {
    if (next && 'source' in next) pickedFor.set(next, `${language}\n${query}`);
    onSource({ ...source, research: next });
  };

  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      if (paused()) {
        setAnswer({ key, result: { unavailable: unavailableReason, articles: [] } });
        return;
      }
      api.call('researchArticles', { query: { q: query, language }, signal: controller.signal }).then(
        (result) => {
          if (result.unavailable) {
            unavailableUntil = Date.now() + UNAVAILABLE_PAUSE_MS;
            unavailableReason = result.unavailable;
          }
          setAnswer({ key, result });
        },
        () => {
          if (controller.signal.aborted) return;
          // No answer at all (offline, a server error): the job's own look-up will say what it found.
          setAnswer({ key, result: null });
        },
      );
    }, LOOKUP_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [api, key, query, language]);

  // An article picked for another topic, or from another language's Wikipedia, is not this one's.
  const picked = choice && 'source' in choice ? choice : null;
  const stale = picked !== null && pickedFor.get(picked) !== `${language}\n${query}`;
  useEffect(() => {
    if (stale) onSource({ ...source, research: undefined });
  }, [stale, source, onSource]);

  if (!signedIn) return null;
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
    if (paused()) return <TopicAloneNote text={RESEARCH_UNUSED_MESSAGES[unavailableReason]} />;
    return (
      <p className="rs-wiki rs-wiki--muted" aria-live="polite">
        Looking for a Wikipedia article…
      </p>
    );
  }
  if (!current.result) return null;
  const { articles, match, unavailable } = current.result;
  if (unavailable) return <TopicAloneNote text={RESEARCH_UNUSED_MESSAGES[unavailable]} />;
  const used = (stale ? undefined : picked?.source.title) ?? match;
  if (articles.length === 0 && !used) {
    // Nothing to pick from: the note without its "— pick one".
    return <TopicAloneNote text={RESEARCH_UNUSED_MESSAGES['no-article'].replace(/\s*—.*$/u, '')} />;
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
          <span className="rs-wiki__text">{RESEARCH_UNUSED_MESSAGES['no-article']}</span>
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
                onChange={() => choose(article.title === match ? undefined : { source: { kind: 'wikipedia', title: article.title } })}
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
            <input type="radio" name={listId} checked={false} onChange={() => choose({ research: false })} />
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
