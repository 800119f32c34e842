const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** What /embed answers a page whose origin is not in EMBED_ALLOWED_ORIGINS: no studio. */
export function notAllowedPage(origin: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Reelsmith</title></head>
<body style="font-family:system-ui,sans-serif;background:#0d0c16;color:#f3f1ff;padding:24px">
<p>${escapeHtml(origin)} is not allowed to embed the Reelsmith studio.</p>
</body></html>`;
}

/** The snippet a partner copies (also shown in the README). */
export function embedSnippet(serverOrigin: string): string {
  return `<div id="reelsmith-studio"></div>
<script src="${serverOrigin}/embed.js"></script>
<script>
  Reelsmith.mount(document.getElementById('reelsmith-studio'), {
    sessionToken: TOKEN_FROM_YOUR_BACKEND, // POST /api/embed/sessions with your x-api-key
    mode: 'studio',                         // or 'compact'
    theme: 'dark',                          // or 'light'
    onEvent(event) { console.log(event.type, event); },
  });
</script>`;
}

/** /embed/demo (EMBED_DEMO=true): the snippet and a live embed in which the creator signs in. */
export function embedDemoPage(serverOrigin: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Embed Reelsmith · demo</title>
<link rel="icon" type="image/png" href="/icons/icon-32.png">
<style>
body{margin:0;font-family:system-ui,sans-serif;background:#f4f3f8;color:#17142a}
main{max-width:1100px;margin:0 auto;padding:32px 20px}
pre{background:#17142a;color:#f3f1ff;padding:16px;border-radius:10px;overflow:auto;font-size:13px}
#events{font-family:ui-monospace,monospace;font-size:12px;max-height:200px;overflow:auto;background:#fff;border:1px solid #ddd;border-radius:10px;padding:8px 8px 8px 28px}
</style>
</head>
<body>
<main>
<h1>Embed Reelsmith in your site</h1>
<p>Paste this where the studio should appear. Mint the session token on your server with your API key; without one, the creator signs in inside the studio (as here).</p>
<pre><code>${escapeHtml(embedSnippet(serverOrigin))}</code></pre>
<h2>Live embed</h2>
<div id="studio"></div>
<h2>Events</h2>
<ol id="events" reversed></ol>
</main>
<script src="/embed.js"></script>
<script src="/embed/demo.js"></script>
</body>
</html>`;
}
