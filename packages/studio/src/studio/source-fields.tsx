import { lazy, Suspense, useState } from 'react';
import { usePlatform } from '../platform.js';
import { toast } from '../toaster.js';
import {
  draftFromSource,
  linkIn,
  SOURCE_CHOICE_LABELS,
  SOURCE_CHOICES,
  type SourceChoice,
  type SourceDraft,
} from '../shared/generation/source-draft.js';
import './source-fields.css';

export interface SourceFieldsProps {
  /** Prefix of the fields' ids (one form may not repeat another's). */
  idBase: string;
  topic: string;
  source: SourceDraft;
  duration: number;
  topicError?: string | undefined;
  sourceError?: string | undefined;
  onTopic(topic: string): void;
  onSource(source: SourceDraft): void;
  onTopicBlur?(): void;
  onSourceBlur?(): void;
  /** Fewer rows (the extension popup). */
  compact?: boolean;
  /** The narration language ('' until chosen): a signed-in creator's topic is looked up in its Wikipedia. */
  language: string;
}

// The script and article box (with the word budget's rules) loads when a creator first picks a source:
// the popup's first load has a JavaScript budget, and most videos still start from a topic. Topic
// mode's "Facts from Wikipedia" line comes with it once a topic is typed.
const SourceEditor = lazy(() => import('./source-editor.js'));

/**
 * What a video starts from, shared by every generate form: Topic | Script | Article or link, the
 * text box for it, and where the host can read the page beside it, "Make a video of this page".
 * With a script or an article, the topic becomes optional (the source's title names the video).
 */
export function SourceFields({
  idBase,
  topic,
  source,
  duration,
  topicError,
  sourceError,
  onTopic,
  onSource,
  onTopicBlur,
  onSourceBlur,
  compact = false,
  language,
}: SourceFieldsProps) {
  const platform = usePlatform();
  const reader = platform.pageArticle;
  const [reading, setReading] = useState(false);
  const id = (field: string) => `${idBase}-${field}`;
  // The text stays when the creator switches between Script and Article (a paste in the wrong box); a page credit only with its article.
  const choose = (choice: SourceChoice) => onSource({ ...source, choice, page: choice === 'article' ? source.page : null });
  const readPage = async () => {
    if (!reader) return;
    setReading(true);
    try {
      onSource(draftFromSource(await reader.read()));
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error));
    } finally {
      setReading(false);
    }
  };
  const withSource = source.choice !== 'topic';
  const topicId = id('topic');

  return (
    <div className="rs-source">
      {reader ? (
        <button
          type="button"
          className="rs-button rs-button--ghost rs-button--block rs-source__page"
          disabled={reading}
          onClick={() => void readPage()}
        >
          {reading ? 'Reading the page…' : 'Make a video of this page'}
        </button>
      ) : null}
      {/* Pressed buttons, not radios: the choices' names must not read as the Topic field's label. */}
      <div className="rs-source__switch" role="group" aria-labelledby={id('start-from')}>
        <span id={id('start-from')} className="rs-field__label">
          Start from
        </span>
        <div className="rs-source__options">
          {SOURCE_CHOICES.map((choice) => (
            <button
              key={choice}
              type="button"
              className="rs-source__option"
              aria-pressed={source.choice === choice}
              onClick={() => choose(choice)}
            >
              {SOURCE_CHOICE_LABELS[choice]}
            </button>
          ))}
        </div>
      </div>

      {withSource ? (
        <Suspense fallback={null}>
          <SourceEditor
            id={id('source')}
            source={source}
            duration={duration}
            error={sourceError}
            isLink={source.choice === 'article' && !source.page && linkIn(source.text) !== null}
            rows={compact ? 4 : 7}
            onSource={onSource}
            {...(onSourceBlur ? { onBlur: onSourceBlur } : {})}
          />
        </Suspense>
      ) : null}
      <div className={`rs-field${topicError ? ' rs-field--invalid' : ''}`}>
        <label htmlFor={topicId} className="rs-field__label">
          {withSource ? 'Topic (optional)' : 'Topic'}
        </label>
        <textarea
          id={topicId}
          className={`rs-field__input rs-field__textarea${withSource ? ' rs-source__topic-line' : ''}`}
          rows={withSource ? 1 : compact ? 2 : 3}
          placeholder={withSource ? "Leave empty to use the source's title or first sentence" : 'e.g. The mystery of the Bermuda Triangle'}
          value={topic}
          onChange={(e) => onTopic(e.target.value)}
          onBlur={onTopicBlur}
          aria-invalid={topicError ? true : undefined}
          aria-describedby={topicError ? `${topicId}-error` : undefined}
        />
        {topicError ? (
          <p id={`${topicId}-error`} className="rs-field__error">
            {topicError}
          </p>
        ) : null}
      </div>
      {!withSource && topic.trim() && (
        <Suspense fallback={null}>
          <SourceEditor topic={topic} language={language} source={source} onSource={onSource} />
        </Suspense>
      )}
    </div>
  );
}
