import { EXTENSION_STORAGE_KEYS } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import { CREATE_VIDEO_MENU_ID, CREATE_VIDEO_MENU_TITLE, handleContextMenuClick, OPEN_STUDIO_MENU_ID, registerContextMenus, topicFromSelection, TOPIC_MAX } from './context-menu.js';
import { takePendingTopic } from '../extension-host/topic-requests.js';
import { fakeContextMenus, fakeSidePanel, fakeStorage } from './testing/fake-chrome.js';

describe('context menu', () => {
  it('registers the selection item and the studio item', async () => {
    const menus = fakeContextMenus();
    await registerContextMenus(menus as never);
    await registerContextMenus(menus as never);
    expect(menus.items).toEqual([
      { id: CREATE_VIDEO_MENU_ID, title: CREATE_VIDEO_MENU_TITLE, contexts: ['selection'] },
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

  it('stores the topic and opens the side panel in the tab window', async () => {
    const storage = fakeStorage();
    const sidePanel = fakeSidePanel();
    const pending = await handleContextMenuClick(
      { sidePanel: sidePanel as never, session: storage.session, now: () => new Date('2026-03-03T00:00:00Z') },
      { menuItemId: CREATE_VIDEO_MENU_ID, selectionText: 'Why octopuses have three hearts' },
      { windowId: 7, id: 3 },
    );
    expect(pending).toEqual({ topic: 'Why octopuses have three hearts', createdAt: '2026-03-03T00:00:00.000Z' });
    expect(sidePanel.opened).toEqual([{ windowId: 7 }]);
    expect(await takePendingTopic(storage.session)).toBe('Why octopuses have three hearts');
    expect(await takePendingTopic(storage.session)).toBeNull();
    expect(storage.session.data[EXTENSION_STORAGE_KEYS.pendingTopic]).toBeUndefined();
  });

  it('ignores other menu items', async () => {
    const storage = fakeStorage();
    const sidePanel = fakeSidePanel();
    expect(await handleContextMenuClick({ sidePanel: sidePanel as never, session: storage.session }, { menuItemId: 'nope' }, { windowId: 1, id: 1 })).toBeNull();
    expect(sidePanel.opened).toEqual([]);
    await handleContextMenuClick({ sidePanel: sidePanel as never, session: storage.session }, { menuItemId: OPEN_STUDIO_MENU_ID }, { windowId: 2, id: 1 });
    expect(sidePanel.opened).toEqual([{ windowId: 2 }]);
    expect(await takePendingTopic(storage.session)).toBeNull();
  });

  it('keeps the topic waiting when Chrome refuses to open the panel', async () => {
    const storage = fakeStorage();
    const logged: string[] = [];
    const refusing = { open: async () => Promise.reject(new Error('may only be called in response to a user gesture')) };
    const pending = await handleContextMenuClick({ sidePanel: refusing as never, session: storage.session, log: (m) => logged.push(m) }, { menuItemId: CREATE_VIDEO_MENU_ID, selectionText: 'Tea' }, { windowId: 1, id: 1 });
    expect(pending?.topic).toBe('Tea');
    expect(logged).toEqual(['opening the side panel failed']);
    expect(await takePendingTopic(storage.session)).toBe('Tea');
  });
});
