import { STORAGE_KEYS } from './constants.js';
import { DESKTOP_CHROME } from './desktop-chrome.js';

/**
 * The web page's first paint, which a phone shows before any JavaScript arrives. The build prerenders the visitor's Video Studio into
 * index.html so a phone shows the studio before any JavaScript has arrived, beside a copy of the
 * loading splash. One small inline script in <head> picks which of the two shows: the splash when a
 * session is stored (the splash shows while authentication initialises) or the page
 * is not the visitor's studio; the prerendered studio otherwise. For a stored session it also starts
 * the session check (GET /auth/profile) at once, so it runs while the app's code downloads instead
 * of after it. The server allows exactly this script by its hash in the Content-Security-Policy, so
 * no other inline script can run.
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
  /**
   * window property where the boot script leaves the profile request it starts for a stored
   * session ({ token, response }), so the check runs while the app's code downloads.
   */
  bootRequestsGlobal: '__reelsmithBoot',
  /** The request the boot script starts: the same one the app's session check makes. */
  bootProfilePath: '/auth/profile',
  /**
   * Set on <html> by the boot script when the extension banner will show (desktop Chrome, not
   * dismissed for this user in this session): the shell keeps the fixed bar's place from the first
   * paint, so it does not move down when the app adds the bar. The banner takes over when it mounts.
   */
  bannerClass: 'rs-boot-extension-banner',
  /** Whose dismissal of the banner a visitor's is (the stored dismissal names a user id or this). */
  bannerVisitorKey: 'visitor',
} as const;

/** What the boot script leaves on window[WEB_SHELL.bootRequestsGlobal]. */
export interface WebShellBootRequests {
  profile?: { token: string; response: Promise<Response> };
}

/**
 * The boot script's source, byte for byte as index.html carries it (its CSP hash depends on every
 * byte). Storage may be blocked (private modes): then the splash shows, as the app would, and no
 * place is kept for the banner (the app adds it if it shows).
 */
export const WEB_SHELL_BOOT_SCRIPT =
  // The stored session, read once: `k` marks storage that could not be read or parsed.
  `var s,k;try{s=JSON.parse(localStorage.getItem(${JSON.stringify(STORAGE_KEYS.authStore)})||"null")}catch(e){k=1}` +
  `try{if(k)throw 0;var n=navigator,u=n.userAgent,d=n.userAgentData,c=${DESKTOP_CHROME.userAgent}.test(u)&&!${DESKTOP_CHROME.otherUserAgents}.test(u),` +
  `i=s&&s.state&&s.state.isAuthenticated&&s.state.user&&s.state.user.id||${JSON.stringify(WEB_SHELL.bannerVisitorKey)};` +
  `if(d&&d.brands&&d.brands.length)c=c&&!d.mobile&&!d.brands.some(function(b){return ${DESKTOP_CHROME.otherBrands}.test(b.brand)})` +
  `&&d.brands.some(function(b){return ${JSON.stringify(DESKTOP_CHROME.chromeBrands)}.indexOf(b.brand)>=0});` +
  `if(c&&sessionStorage.getItem(${JSON.stringify(STORAGE_KEYS.extensionBannerDismissed)})!==i)document.documentElement.classList.add(${JSON.stringify(WEB_SHELL.bannerClass)})}catch(e){}` +
  `try{if(k)throw 0;var p=location.pathname.replace(/\\/+$/,"")||"/",` +
  `t=s&&s.state&&typeof s.state.token=="string"&&s.state.token;` +
  `if(t){var r=fetch(${JSON.stringify(WEB_SHELL.bootProfilePath)},{headers:{Accept:"application/json",Authorization:"Bearer "+t}});r.catch(function(){});` +
  `window[${JSON.stringify(WEB_SHELL.bootRequestsGlobal)}]={profile:{token:t,response:r}}}` +
  `if(${JSON.stringify(WEB_SHELL.prerenderedPaths)}.indexOf(p)<0||t)throw 0}` +
  `catch(e){document.documentElement.classList.add(${JSON.stringify(WEB_SHELL.splashClass)})}`;
