import {
  EXTENSION_STORAGE_KEYS,
  pendingRequestSchema,
  SCRIPT_MAX_LENGTH,
  type ArticleSource,
  type FormRequest,
  type PendingRequest,
} from '@reelsmith/contracts';
import type { StorageAreaLike } from './stored-job-list.js';

/**
 * The page's context menu: on selected text, "Create a video about this" (the selection as the
 * topic) and "Make a video of this text" (the selection as a script, told word for word); on the
 * page, "Make a video of this page" (its article, read inside the page). Each remembers what the
 * form should start from and opens the side panel, whose studio form picks it up.
 */
export const CREATE_VIDEO_MENU_ID = 'reelsmith-create-video';
export const SCRIPT_VIDEO_MENU_ID = 'reelsmith-script-video';
export const PAGE_VIDEO_MENU_ID = 'reelsmith-page-video';
export const OPEN_STUDIO_MENU_ID = 'reelsmith-open-side-panel';
export const CREATE_VIDEO_MENU_TITLE = 'Create a video about this';
export const SCRIPT_VIDEO_MENU_TITLE = 'Make a video of this text';
export const PAGE_VIDEO_MENU_TITLE = 'Make a video of this page';

export type ContextMenusLike = Pick<typeof chrome.contextMenus, 'create' | 'removeAll'>;
export type SidePanelLike = Pick<typeof chrome.sidePanel, 'open'>;
export type SessionAreaLike = StorageAreaLike;

/** Longer selections are cut at a word boundary to fit the topic field. */
export const TOPIC_MAX = 500;

export function topicFromSelection(selection: string | undefined): string | null {
  const text = (selection ?? '').replace(/\s+/g, ' ').trim();
  if (!text) return null;
  if (text.length <= TOPIC_MAX) return text;
  const cut = text.slice(0, TOPIC_MAX);
  const lastSpace = cut.lastIndexOf(' ');
  return (lastSpace > TOPIC_MAX * 0.6 ? cut.slice(0, lastSpace) : cut).trim();
}

/** A selection as a script: its words as selected (Chrome gives it on one line), within the script's limit. */
export function scriptFromSelection(selection: string | undefined): string | null {
  const text = (selection ?? '').replace(/[ \t]+/g, ' ').trim();
  return text ? text.slice(0, SCRIPT_MAX_LENGTH) : null;
}

export async function registerContextMenus(contextMenus: ContextMenusLike): Promise<void> {
  await contextMenus.removeAll();
  contextMenus.create({ id: CREATE_VIDEO_MENU_ID, title: CREATE_VIDEO_MENU_TITLE, contexts: ['selection'] });
  contextMenus.create({ id: SCRIPT_VIDEO_MENU_ID, title: SCRIPT_VIDEO_MENU_TITLE, contexts: ['selection'] });
  contextMenus.create({ id: PAGE_VIDEO_MENU_ID, title: PAGE_VIDEO_MENU_TITLE, contexts: ['page'] });
  contextMenus.create({ id: OPEN_STUDIO_MENU_ID, title: 'Open Reelsmith Studio', contexts: ['action', 'page'] });
}

export interface ContextMenuDeps {
  sidePanel: SidePanelLike;
  session: SessionAreaLike;
  /** Reads the article inside the tab (the menu click granted activeTab); rejects with a message to show. */
  readPage?(tabId: number): Promise<ArticleSource>;
  /** Tells the creator why the page could not be read (the side panel opens regardless). */
  report?(message: string): Promise<void> | void;
  now?: () => Date;
  log?: (message: string, detail?: unknown) => void;
}

type MenuClick = Pick<chrome.contextMenus.OnClickData, 'menuItemId' | 'selectionText'>;
const MENU_IDS: readonly unknown[] = [CREATE_VIDEO_MENU_ID, SCRIPT_VIDEO_MENU_ID, PAGE_VIDEO_MENU_ID, OPEN_STUDIO_MENU_ID];

async function requestFor(deps: ContextMenuDeps, info: MenuClick, tabId: number | undefined): Promise<FormRequest | null> {
  if (info.menuItemId === CREATE_VIDEO_MENU_ID) {
    const topic = topicFromSelection(info.selectionText);
    return topic ? { kind: 'topic', topic } : null;
  }
  if (info.menuItemId === SCRIPT_VIDEO_MENU_ID) {
    const text = scriptFromSelection(info.selectionText);
    return text ? { kind: 'script', text } : null;
  }
  if (info.menuItemId !== PAGE_VIDEO_MENU_ID || !deps.readPage || tabId === undefined) return null;
  try {
    return await deps.readPage(tabId);
  } catch (error) {
    deps.log?.('reading the page failed', error);
    await deps.report?.(error instanceof Error ? error.message : String(error));
    return null;
  }
}

export async function handleContextMenuClick(
  deps: ContextMenuDeps,
  info: MenuClick,
  tab: Pick<chrome.tabs.Tab, 'windowId' | 'id'> | undefined,
): Promise<PendingRequest | null> {
  if (!MENU_IDS.includes(info.menuItemId)) return null;
  // sidePanel.open must run inside the click's user gesture, before anything is awaited.
  const opening = tab?.windowId !== undefined ? deps.sidePanel.open({ windowId: tab.windowId }) : Promise.resolve();
  const request = await requestFor(deps, info, tab?.id);
  let pending: PendingRequest | null = null;
  if (request) {
    const parsed = pendingRequestSchema.safeParse({ request, createdAt: (deps.now ?? (() => new Date()))().toISOString() });
    if (parsed.success) {
      pending = parsed.data;
      await deps.session.set({ [EXTENSION_STORAGE_KEYS.pendingRequest]: pending });
    } else {
      await deps.report?.(parsed.error.issues[0]?.message ?? 'The selection cannot be used.');
    }
  }
  // Chrome refuses to open the panel outside a real click (e.g. when driven from DevTools); the
  // request stays waiting for the next time the panel opens.
  await opening.catch((error: unknown) => deps.log?.('opening the side panel failed', error));
  return pending;
}
