import { EXTENSION_STORAGE_KEYS, SCRIPT_MAX_LENGTH } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import {
  CREATE_VIDEO_MENU_ID,
  CREATE_VIDEO_MENU_TITLE,
  handleContextMenuClick,
  OPEN_STUDIO_MENU_ID,
  PAGE_VIDEO_MENU_ID,
  PAGE_VIDEO_MENU_TITLE,
  registerContextMenus,
  scriptFromSelection,
  SCRIPT_VIDEO_MENU_ID,
  SCRIPT_VIDEO_MENU_TITLE,
  topicFromSelection,
  TOPIC_MAX,
} from './context-menu.js';
import { takePendingRequest } from '../extension-host/form-requests.js';
import { fakeContextMenus, fakeSidePanel, fakeStorage } from './testing/fake-chrome.js';

const NOW = () => new Date('2026-03-03T00:00:00Z');

describe('context menu', () => {
  it('registers the two selection items, the page item and the studio item', async () => {
    const menus = fakeContextMenus();
    await registerContextMenus(menus as never);
    await registerContextMenus(menus as never);
    expect(menus.items).toEqual([
      { id: CREATE_VIDEO_MENU_ID, title: CREATE_VIDEO_MENU_TITLE, contexts: ['selection'] },
      { id: SCRIPT_VIDEO_MENU_ID, title: SCRIPT_VIDEO_MENU_TITLE, contexts: ['selection'] },
      { id: PAGE_VIDEO_MENU_ID, title: PAGE_VIDEO_MENU_TITLE, contexts: ['page'] },
      { id: OPEN_STUDIO_MENU_ID, title: 'Open Reelsmith Studio', contexts: ['action', 'page'] },
    ]);
  });

  it('tidies selections into a topic that fits', () => {
    expect(topicFromSelection('  The   history\nof tea ')).toBe('The history of tea');
    expect(topicFromSelection('   ')).toBeNull();
    expect(topicFromSelection(undefined)).toBeNull();
    const long = topicFromSelection('word '.repeat(200))!;
    expect(long.length).toBeLessThanOrEqual(TOPIC_MAX);
    expect(long.endsWith('word')).toBe(true);
  });

  it('keeps a selection as a script word for word (line breaks too), within the script limit', () => {
    expect(scriptFromSelection('  Tea came from China.\nIt reached Europe   by sea. ')).toBe(
      'Tea came from China.\nIt reached Europe by sea.',
    );
    expect(scriptFromSelection(' \n ')).toBeNull();
    expect(scriptFromSelection('a'.repeat(SCRIPT_MAX_LENGTH + 10))).toHaveLength(SCRIPT_MAX_LENGTH);
  });

  it('stores the topic and opens the side panel in the tab window', async () => {
    const storage = fakeStorage();
    const sidePanel = fakeSidePanel();
    const pending = await handleContextMenuClick(
      { sidePanel: sidePanel as never, session: storage.session, now: NOW },
      { menuItemId: CREATE_VIDEO_MENU_ID, selectionText: 'Why octopuses have three hearts' },
      { windowId: 7, id: 3 },
    );
    expect(pending).toEqual({
      request: { kind: 'topic', topic: 'Why octopuses have three hearts' },
      createdAt: '2026-03-03T00:00:00.000Z',
    });
    expect(sidePanel.opened).toEqual([{ windowId: 7 }]);
    expect(await takePendingRequest(storage.session)).toEqual({ kind: 'topic', topic: 'Why octopuses have three hearts' });
    expect(await takePendingRequest(storage.session)).toBeNull();
    expect(storage.session.data[EXTENSION_STORAGE_KEYS.pendingRequest]).toBeUndefined();
  });

  it('"Make a video of this text" hands the selection over as a script', async () => {
    const storage = fakeStorage();
    await handleContextMenuClick(
      { sidePanel: fakeSidePanel() as never, session: storage.session, now: NOW },
      { menuItemId: SCRIPT_VIDEO_MENU_ID, selectionText: 'Bees dance. The dance points to flowers.' },
      { windowId: 1, id: 1 },
    );
    expect(await takePendingRequest(storage.session)).toEqual({ kind: 'script', text: 'Bees dance. The dance points to flowers.' });
  });

  it('"Make a video of this page" reads the clicked tab and hands its article over; a failure is reported, nothing stored', async () => {
    const storage = fakeStorage();
    const sidePanel = fakeSidePanel();
    const read: number[] = [];
    const reports: string[] = [];
    const article = { kind: 'article', text: 'Lighthouses guide ships home.', title: 'Lighthouses', url: 'https://example.com/l' } as const;
    const deps = {
      sidePanel: sidePanel as never,
      session: storage.session,
      now: NOW,
      readPage: async (tabId: number) => {
        read.push(tabId);
        if (tabId === 9) throw new Error('This page has no article to tell.');
        return article;
      },
      report: (message: string) => void reports.push(message),
    };
    await handleContextMenuClick(deps, { menuItemId: PAGE_VIDEO_MENU_ID }, { windowId: 2, id: 5 });
    expect(read).toEqual([5]);
    expect(sidePanel.opened).toEqual([{ windowId: 2 }]);
    expect(await takePendingRequest(storage.session)).toEqual(article);

    expect(await handleContextMenuClick(deps, { menuItemId: PAGE_VIDEO_MENU_ID }, { windowId: 2, id: 9 })).toBeNull();
    expect(reports).toEqual(['This page has no article to tell.']);
    expect(await takePendingRequest(storage.session)).toBeNull();
  });

  it('ignores other menu items', async () => {
    const storage = fakeStorage();
    const sidePanel = fakeSidePanel();
    expect(
      await handleContextMenuClick(
        { sidePanel: sidePanel as never, session: storage.session },
        { menuItemId: 'nope' },
        { windowId: 1, id: 1 },
      ),
    ).toBeNull();
    expect(sidePanel.opened).toEqual([]);
    await handleContextMenuClick(
      { sidePanel: sidePanel as never, session: storage.session },
      { menuItemId: OPEN_STUDIO_MENU_ID },
      { windowId: 2, id: 1 },
    );
    expect(sidePanel.opened).toEqual([{ windowId: 2 }]);
    expect(await takePendingRequest(storage.session)).toBeNull();
  });

  it('keeps the request waiting when Chrome refuses to open the panel', async () => {
    const storage = fakeStorage();
    const logged: string[] = [];
    const refusing = { open: async () => Promise.reject(new Error('may only be called in response to a user gesture')) };
    const pending = await handleContextMenuClick(
      { sidePanel: refusing as never, session: storage.session, log: (m) => logged.push(m) },
      { menuItemId: CREATE_VIDEO_MENU_ID, selectionText: 'Tea' },
      { windowId: 1, id: 1 },
    );
    expect(pending?.request).toEqual({ kind: 'topic', topic: 'Tea' });
    expect(logged).toEqual(['opening the side panel failed']);
    expect(await takePendingRequest(storage.session)).toEqual({ kind: 'topic', topic: 'Tea' });
  });
});
