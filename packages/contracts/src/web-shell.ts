import { STORAGE_KEYS } from './constants.js';

/**
 * The web page's first paint (issue 17). The build prerenders the visitor's Video Studio into
 * index.html so a phone shows the studio before any JavaScript has arrived, beside a copy of the
 * loading splash. One small inline script in <head> picks which of the two shows: the splash when a
 * session is stored (spec section 2: the splash shows while authentication initialises) or the page
 * is not the visitor's studio; the prerendered studio otherwise. The server allows exactly this
 * script by its hash in the Content-Security-Policy, so no other inline script can run.
 */
export const WEB_SHELL = {
  /** Paths a visitor sees the Video Studio on (the route table's studio paths). */
  prerenderedPaths: ['/', '/studio', '/generate'],
  /** Set on <html> by the boot script when the splash, not the prerendered studio, must show. */
  splashClass: 'rs-boot-splash-only',
  /** Wraps the prerendered studio (inert until the app replaces it). */
  prerenderClass: 'rs-prerender',
  /** Wraps the splash copy. */
  splashWrapperClass: 'rs-boot-splash',
} as const;

/**
 * The boot script's source, byte for byte as index.html carries it (its CSP hash depends on every
 * byte). Storage may be blocked (private modes): then the splash shows, as the app would.
 */
export const WEB_SHELL_BOOT_SCRIPT =
  `try{var p=location.pathname.replace(/\\/+$/,"")||"/",s=JSON.parse(localStorage.getItem(${JSON.stringify(STORAGE_KEYS.authStore)})||"null");` +
  `if(${JSON.stringify(WEB_SHELL.prerenderedPaths)}.indexOf(p)<0||(s&&s.state&&s.state.token))throw 0}` +
  `catch(e){document.documentElement.classList.add(${JSON.stringify(WEB_SHELL.splashClass)})}`;
