import { RESEARCH_UNUSED_MESSAGES, type ResearchOutcome } from '@reelsmith/contracts';
import './source-credit.css';

/**
 * "Told from the topic alone: Wikipedia could not be reached" under a finished video told without
 * Wikipedia (its `result.research`), so filler is never shipped in silence; with the articles the
 * search did find when none matched, to tell the topic again from one of them. Nothing for a video
 * told from an article (its "Based on Wikipedia: …" says that) or made before research said.
 */
export function ResearchNote({ research }: { research: ResearchOutcome | undefined }) {
  if (!research || research.used) return null;
  const articles = research.articles ?? [];
  const text =
    articles.length > 0 ? RESEARCH_UNUSED_MESSAGES[research.reason] : RESEARCH_UNUSED_MESSAGES[research.reason].replace(/\s*—.*$/u, '');
  return (
    <div className="rs-research-note" role="note">
      <p className="rs-source-credit">{text}</p>
      {articles.length > 0 ? (
        <ul className="rs-research-note__articles" aria-label="Articles the search found">
          {articles.map((article) => (
            <li key={article.title}>
              <a href={article.url} target="_blank" rel="noreferrer">
                {article.title}
              </a>
              {article.description ? <span className="rs-research-note__description"> · {article.description}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
