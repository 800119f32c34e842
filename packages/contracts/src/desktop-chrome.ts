// Its own module: the studio's check and the web shell's boot script read it, and the extension's
// pages, which import the studio's platform module, then carry neither the shell nor its script.

/**
 * Desktop Chrome (where the extension banner shows: not mobile, Opera or Edge), for the studio's check and
 * the boot script alike. User-Agent Client Hints name the real brand where available (Edge and
 * Opera report their own, plain Chromium does not say "Google Chrome"); the user-agent string is
 * the fallback.
 */
export const DESKTOP_CHROME = {
  userAgent: /Chrome\/\d+/,
  otherUserAgents: /Edg\/|Edge\/|OPR\/|Opera|SamsungBrowser|CriOS|Android|Mobile|iPhone|iPad/,
  otherBrands: /Edge|Opera|OPR|Samsung|Brave|Vivaldi|Yandex/i,
  chromeBrands: ['Google Chrome', 'Chromium'],
} as const;
