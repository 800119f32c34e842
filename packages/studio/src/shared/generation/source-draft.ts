import { sourceSchema, type ArticleSource, type ScriptSource, type SourceInput, type WikipediaSource } from '@reelsmith/contracts';

/** What a video starts from: a topic line, the creator's own script, or an article (its text or its link). */
export const SOURCE_CHOICES = ['topic', 'script', 'article'] as const;
export type SourceChoice = (typeof SOURCE_CHOICES)[number];
export const SOURCE_CHOICE_LABELS: Record<SourceChoice, string> = { topic: 'Topic', script: 'Script', article: 'Article or link' };

/** The form's source as the creator edits it. */
export interface SourceDraft {
  choice: SourceChoice;
  /** The script, or the article's text or its link. */
  text: string;
  /** The page the article's text was read from (its credit); null for pasted text. */
  page: { title?: string; url?: string } | null;
  /**
   * What Topic mode's "Facts from Wikipedia" line adds to the request (wikipedia-line.tsx): the
   * article the creator picked, or `research: false` for "Don't look it up". Absent: the article the
   * server matches, if any.
   */
  research?: ResearchChoice | undefined;
}

export type ResearchChoice = { source: WikipediaSource } | { research: false };

export const TOPIC_ONLY: SourceDraft = { choice: 'topic', text: '', page: null };

/** A lone web address, nothing else in the box, is a link for the server to read; anything else is text. */
export function linkIn(text: string): string | null {
  const trimmed = text.trim();
  if (!/^https?:\/\/\S+$/i.test(trimmed)) return null;
  try {
    return new URL(trimmed).protocol.startsWith('http') ? trimmed : null;
  } catch {
    return null;
  }
}

/** The request's `source` for the draft, or undefined for a topic video. */
export function sourceInput(draft: SourceDraft): SourceInput | undefined {
  if (draft.choice === 'topic') return undefined;
  if (draft.choice === 'script') return { kind: 'script', text: draft.text };
  const link = draft.page ? null : linkIn(draft.text);
  if (link) return { kind: 'url', url: link };
  return {
    kind: 'article',
    text: draft.text,
    ...(draft.page?.title ? { title: draft.page.title } : {}),
    ...(draft.page?.url ? { url: draft.page.url } : {}),
  };
}

/**
 * The first thing wrong with the source, in the contracts' words; undefined when it can be sent.
 * Whether a script fits the duration is script-budget.ts's (loaded with the source editor).
 */
export function sourceError(draft: SourceDraft): string | undefined {
  const input = sourceInput(draft);
  if (!input) return undefined;
  const parsed = sourceSchema.safeParse(input);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

/** A script or an article the host hands the form (the extension's context menu, its page reader). */
export function draftFromSource(source: ScriptSource | ArticleSource): SourceDraft {
  if (source.kind === 'script') return { choice: 'script', text: source.text, page: null };
  return {
    choice: 'article',
    text: source.text,
    page:
      source.title || source.url ? { ...(source.title ? { title: source.title } : {}), ...(source.url ? { url: source.url } : {}) } : null,
  };
}
