import { EXTENSION_STORAGE_KEYS, pendingTopicSchema, type PendingTopic } from '@reelsmith/contracts';
import type { StorageAreaLike } from './job-store.js';

/**
 * "Create a video about this" on selected text: remembers the selection as the studio's topic and
 * opens the side panel, whose studio form picks the topic up.
 */
export const CREATE_VIDEO_MENU_ID = 'reelsmith-create-video';
export const OPEN_STUDIO_MENU_ID = 'reelsmith-open-side-panel';
export const CREATE_VIDEO_MENU_TITLE = 'Create a video about this';

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

export async function registerContextMenus(contextMenus: ContextMenusLike): Promise<void> {
  await contextMenus.removeAll();
  contextMenus.create({ id: CREATE_VIDEO_MENU_ID, title: CREATE_VIDEO_MENU_TITLE, contexts: ['selection'] });
  contextMenus.create({ id: OPEN_STUDIO_MENU_ID, title: 'Open Reelsmith Studio', contexts: ['action', 'page'] });
}

export async function handleContextMenuClick(
  deps: { sidePanel: SidePanelLike; session: SessionAreaLike; now?: () => Date; log?: (message: string, detail?: unknown) => void },
  info: Pick<chrome.contextMenus.OnClickData, 'menuItemId' | 'selectionText'>,
  tab: Pick<chrome.tabs.Tab, 'windowId' | 'id'> | undefined,
): Promise<PendingTopic | null> {
  if (info.menuItemId !== CREATE_VIDEO_MENU_ID && info.menuItemId !== OPEN_STUDIO_MENU_ID) return null;
  const topic = info.menuItemId === CREATE_VIDEO_MENU_ID ? topicFromSelection(info.selectionText) : null;
  // sidePanel.open must run inside the click's user gesture, before anything is awaited.
  const opening = tab?.windowId !== undefined ? deps.sidePanel.open({ windowId: tab.windowId }) : Promise.resolve();
  let pending: PendingTopic | null = null;
  if (topic) {
    pending = pendingTopicSchema.parse({ topic, createdAt: (deps.now ?? (() => new Date()))().toISOString() });
    await deps.session.set({ [EXTENSION_STORAGE_KEYS.pendingTopic]: pending });
  }
  // Chrome refuses to open the panel outside a real click (e.g. when driven from DevTools); the
  // topic stays waiting for the next time the panel opens.
  await opening.catch((error: unknown) => deps.log?.('opening the side panel failed', error));
  return pending;
}
