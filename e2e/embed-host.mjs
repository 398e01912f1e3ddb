// A second origin for the embed tests: a plain static host on another port (127.0.0.1:4174) that
//   - serves /host.html: a page that embeds the player in an iframe and records the height
//     messages it receives (the iframe's src, or a whole snippet from the Embed dialog, comes in
//     the hash as base64url JSON: { src } or { snippet });
//   - serves /payments/page.html: a docs page whose embed plays a scenario file beside it
//     (e2e/host-files/payments/, served as a static host would, with no CORS header);
//   - serves /pasted.html: a docs page with the Embed dialog's element snippet pasted in its column;
//   - serves /docs.html: a docs page with five embeds by the loader (public/embed.js), and
//     /docs-dark.html: a dark one with four, the last far below the fold;
//   - serves dist/ under /some/base/path/ with no special headers and no fallback, to show that
//     the build runs from any base path on any static host.
// Started by playwright.config.ts (webServer); stops with it.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const port = Number(process.argv[2] ?? 4174);
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const BASE = '/some/base/path/';
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

// The host page runs its own inline script: it is the docs site, not the lab, and has no CSP.
const HOST = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Host page</title>
<style>body{font-family:sans-serif;margin:16px;background:#eef}iframe{display:block;width:100%;border:0;background:#fff}</style>
</head><body>
<h1>A docs page on another origin</h1>
<p>Height messages received: <span id="count">0</span>, last height: <span id="height">none</span>, id: <span id="id">none</span></p>
<div id="slot"></div>
<p>Text after the frame.</p>
<script>
  const data = JSON.parse(atob(location.hash.slice(1).replace(/-/g, '+').replace(/_/g, '/')));
  const slot = document.getElementById('slot');
  let count = 0;
  window.addEventListener('message', (e) => {
    const m = e.data;
    if (!m || m.type !== 'delivery-lab:height') return;
    count++;
    document.getElementById('count').textContent = String(count);
    document.getElementById('height').textContent = String(m.height);
    document.getElementById('id').textContent = m.id || '(empty)';
    document.body.dataset.origin = e.origin;
  });
  if (data.src) {
    const f = document.createElement('iframe');
    f.src = data.src;
    f.title = 'Delivery Lab';
    f.style.height = '300px';
    slot.append(f);
    window.addEventListener('message', (e) => {
      if (e.source === f.contentWindow && e.data && e.data.type === 'delivery-lab:height')
        f.style.height = Math.ceil(e.data.height) + 'px';
    });
  } else {
    // The Embed dialog's snippet as an author pastes it: markup, then its script.
    const doc = new DOMParser().parseFromString(data.snippet, 'text/html');
    for (const el of doc.body.querySelectorAll('iframe')) slot.append(document.importNode(el, true));
    for (const s of doc.querySelectorAll('script')) {
      const run = document.createElement('script');
      run.textContent = s.textContent;
      document.body.append(run);
    }
  }
</script>
</body></html>`;

// A docs page (Docusaurus's theme convention, html[data-theme]) with three loader embeds in
// columns of 700, 480 and 1,280 px, then a batch job's in columns of 480 and 700 px. The loader is the lab's own (under BASE, on 127.0.0.1): opened
// as http://localhost:<port>/docs.html the page is on another origin than the lab.
const DOCS = `<!doctype html>
<html lang="en" data-theme="light"><head><meta charset="utf-8"><title>Docs</title>
<script src="http://127.0.0.1:${port}${BASE}embed.js" defer></script>
<style>body{font-family:sans-serif;margin:8px}.col{margin:0 0 24px}</style>
</head><body>
<button id="toggle" onclick="document.documentElement.dataset.theme = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark'">Theme</button>
<div class="col" style="width:700px"><delivery-lab-embed preset="lost-ack-retry/acks-1" autoplay speed="1000" caption="700"></delivery-lab-embed></div>
<div class="col" style="width:480px"><delivery-lab-embed preset="consume-transform-produce/read-uncommitted" autoplay speed="1000" caption="480"></delivery-lab-embed></div>
<div class="col" style="width:1280px"><delivery-lab-embed preset="lost-ack-retry/acks-1" autoplay speed="1000" caption="1280"></delivery-lab-embed></div>
<div class="col" style="width:480px"><delivery-lab-embed preset="backfill-beside-production/overwrite" autoplay caption="batch 480"></delivery-lab-embed></div>
<div class="col" style="width:700px"><delivery-lab-embed preset="backfill-beside-production/overwrite" autoplay caption="batch 700"></delivery-lab-embed></div>
</body></html>`;

// A dark docs page (MkDocs Material's slate scheme on <body>) with four loader embeds, as the
// issue's tester built it: 700 and 480 px columns, an autoplayed compact Flink run, and a last
// embed far below the fold (it loads, is sized and themed before the reader scrolls to it).
const DARK = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dark docs</title>
<script src="http://127.0.0.1:${port}${BASE}embed.js" defer></script>
<style>body{font-family:sans-serif;margin:8px;background:#1e2129;color:#ddd}.col{margin:0 0 24px}.far{height:3000px}</style>
</head><body data-md-color-scheme="slate">
<div class="col" style="width:700px"><delivery-lab-embed preset="lost-ack-retry/acks-1" caption="a"></delivery-lab-embed></div>
<div class="col" style="width:480px"><delivery-lab-embed preset="consume-transform-produce/read-uncommitted" caption="b"></delivery-lab-embed></div>
<div class="col" style="width:480px"><delivery-lab-embed preset="flink-checkpoint-replay/plain-sink" autoplay speed="1000" caption="c"></delivery-lab-embed></div>
<div class="far"></div>
<div class="col" id="last" style="width:480px"><delivery-lab-embed preset="flink-checkpoint-replay/2pc-read-committed" autoplay speed="1000" caption="d"></delivery-lab-embed></div>
</body></html>`;

// A docs page as the payments team's writer built it: a 720 px column (a phone's 358 px on a
// 390 px screen), the Embed dialog's element snippet pasted as it is (base64url in `?snippet=`),
// and a paragraph below it whose position is recorded at every frame from the first
// (`window.__below`: its top, in px, each time it changes), to show whether the page moves.
const pasted = (snippet) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Payments: a lost ack</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:sans-serif;margin:0}main{max-width:720px;margin:0 auto;padding:0 16px}</style>
</head><body>
<script>
  window.__below = [];
  (function record() {
    const p = document.getElementById('below');
    const top = p && Math.round(p.getBoundingClientRect().top);
    if (p && window.__below.at(-1) !== top) window.__below.push(top);
    requestAnimationFrame(record);
  })();
</script>
<main><h1>Payments: a lost ack</h1><p>The producer retries a payment whose ack was lost.</p>
${snippet}
<p id="below">Text below the embed.</p></main>
</body></html>`;

// A docs page of the payments team's beside its scenario files (e2e/host-files/payments/): one
// embed that plays `?file=` (its `src`), the lab's loader from this host (`?lab=same`, the lab
// under /some/base/path/ of the docs site) or from the lab's own origin (`?lab=<origin>/`).
const filePage = (file, lab) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Payments</title>
<style>body{font-family:sans-serif;margin:0}main{max-width:720px;margin:0 auto;padding:0 16px}</style>
</head><body><main><h1>Payments</h1>
<script src="${lab}embed.js"></script>
<delivery-lab-embed src="${file.replace(/[&"<]/g, '')}" initial-height="800"></delivery-lab-embed>
<p>Text below the embed.</p></main>
</body></html>`;
const HOST_FILES = fileURLToPath(new URL('./host-files/', import.meta.url));

createServer((req, res) => {
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
  if (url.pathname === '/health') return res.end('ok');
  if (url.pathname === '/docs.html') {
    res.writeHead(200, { 'content-type': TYPES['.html'] });
    return res.end(DOCS);
  }
  if (url.pathname === '/docs-dark.html') {
    res.writeHead(200, { 'content-type': TYPES['.html'] });
    return res.end(DARK);
  }
  if (url.pathname === '/payments/page.html') {
    const lab = url.searchParams.get('lab') ?? 'same';
    res.writeHead(200, { 'content-type': TYPES['.html'] });
    return res.end(filePage(url.searchParams.get('file') ?? '', lab === 'same' ? BASE : lab));
  }
  if (url.pathname.startsWith('/payments/')) {
    // The docs site's own files, served with no CORS header: only its own pages may read them.
    const file = normalize(join(HOST_FILES, decodeURIComponent(url.pathname)));
    if (file.startsWith(HOST_FILES) && existsSync(file) && statSync(file).isFile()) {
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      return createReadStream(file).pipe(res);
    }
  }
  if (url.pathname === '/pasted.html') {
    res.writeHead(200, { 'content-type': TYPES['.html'] });
    return res.end(
      pasted(Buffer.from(url.searchParams.get('snippet') ?? '', 'base64url').toString('utf8')),
    );
  }
  if (url.pathname === '/host.html') {
    res.writeHead(200, { 'content-type': TYPES['.html'] });
    return res.end(HOST);
  }
  if (url.pathname.startsWith(BASE)) {
    let rel = decodeURIComponent(url.pathname.slice(BASE.length)) || 'index.html';
    if (rel.endsWith('/')) rel += 'index.html';
    const file = normalize(join(dist, rel));
    if (file.startsWith(dist) && existsSync(file) && statSync(file).isFile()) {
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      return createReadStream(file).pipe(res);
    }
  }
  res.writeHead(404, { 'content-type': 'text/plain' });
  res.end('not found');
}).listen(port, '127.0.0.1');
