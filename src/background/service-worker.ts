/**
 * Background service worker: registers every listener synchronously at the top level (Manifest V3
 * only delivers events to listeners added in the first turn) and hands each event to the
 * background controller, whose modules hold the logic and their tests.
 */
import { io } from 'socket.io-client';
import { readApiBaseUrl } from '../extension-host/api-origin.js';
import { WEB_APP_ORIGINS } from '../extension-host/web-app-origins.js';
import { createBackground } from './background-controller.js';
import { registerContextMenus } from './context-menu.js';
import { createExternalMessageListener, createInternalMessageListener } from './runtime-messages.js';
import { tokenChange } from './session.js';

const background = createBackground({
  storage: { local: chrome.storage.local, session: chrome.storage.session },
  action: chrome.action,
  alarms: chrome.alarms,
  notifications: chrome.notifications,
  tabs: chrome.tabs,
  sidePanel: chrome.sidePanel,
  scripting: chrome.scripting,
  createSocket: (url, options) => io(url, options),
  fetch: (...args) => fetch(...args),
  apiBaseUrl: () => readApiBaseUrl(chrome.storage.local),
  iconUrl: chrome.runtime.getURL('store-assets/icons/icon-128.png'),
  version: chrome.runtime.getManifest().version,
  log: (message, detail) => console.warn(`[reelsmith] ${message}`, detail instanceof Error ? detail.message : (detail ?? '')),
});

chrome.runtime.onInstalled.addListener(() => {
  // The toolbar button opens the popup; the side panel opens from the popup or the context menu.
  void chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: false });
  void registerContextMenus(chrome.contextMenus);
});
chrome.runtime.onStartup.addListener(() => void background.wake());
chrome.alarms.onAlarm.addListener((alarm) => void background.alarmFired(alarm.name));
chrome.notifications.onClicked.addListener((notificationId) => void background.notificationClicked(notificationId));
chrome.contextMenus.onClicked.addListener((info, tab) => void background.contextMenuClicked(info, tab));
chrome.storage.onChanged.addListener((changes, areaName) => {
  const change = tokenChange(changes, areaName);
  if (change) void background.tokenChanged(change.token);
});
chrome.runtime.onMessage.addListener(createInternalMessageListener(chrome.runtime.id, (request) => background.handleRequest(request)));
chrome.runtime.onMessageExternal.addListener(
  createExternalMessageListener(WEB_APP_ORIGINS, (request) => background.handleExternal(request)),
);

// Lets DevTools and the end-to-end suite drive the handlers that cannot be clicked (context menus).
(globalThis as typeof globalThis & { reelsmith?: typeof background }).reelsmith = background;

// Every wake (alarm, message, start-up) reconnects and catches up over REST.
void background.wake();
