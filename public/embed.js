/*
 * Delivery Lab's loader for host pages (docs sites, courses): one script, no dependency.
 *
 *   <script src="https://example.org/lab/embed.js" defer></script>
 *   <delivery-lab-embed preset="lost-ack-retry/acks-1" caption="A lost ack" predict></delivery-lab-embed>
 *
 * - <delivery-lab-embed> creates the player's iframe. Its attributes: `preset`, `scenario-hash`
 *   (a share link's `s=2.…`) or `src` (a scenario file beside the page, fetched here), and the player's options under their query names (`predict`,
 *   `caption`, `theme`, `layout`, `height`, `autoplay`, `t`, `speed`, `panels`, `lock`, `q`, `a`;
 *   docs/embed.md). `theme` defaults to `host`. `initial-height` is the frame's height until the
 *   player's first height message. `expect` / `expect-file` are for `delivery-lab
 *   check` and are not sent.
 * - Every Delivery Lab frame on the page (these elements' and hand-written iframes of this lab)
 *   is sized from its height messages.
 * - The host's theme is posted to the frames asking for it (`theme=host`): MkDocs Material's
 *   `data-md-color-scheme` (slate is dark), Docusaurus's `html[data-theme]`, a `dark` class on
 *   <html> or <body>, else what the page paints (its background, or its `color-scheme`) — and
 *   again whenever the host toggles it.
 * - The lab's address and origin are where this script was loaded from: no origin is written in
 *   the snippet, so the same markup works on a deploy preview, staging and production.
 */
(() => {
  const script = document.currentScript;
  if (!script || window.customElements.get('delivery-lab-embed')) return;
  const base = new URL('./', script.src);
  const origin = base.origin;
  // EMBED_PARAMS of src/views/io/embedParams.ts but the scenario's (embed, preset, file): the player's
  // options, pinned equal by src/ui/embed/embedElement.test.ts.
  const OPTIONS = [
    'autoplay',
    't',
    'speed',
    'panels',
    'caption',
    'lock',
    'predict',
    'q',
    'a',
    'id',
    'layout',
    'theme',
    'height',
  ];

  // The element's attributes that are not the player's options: the scenario (`preset`,
  // `scenario-hash`), the pin for `delivery-lab check` (`expect`, `expect-file`), and the page's
  // own (HTML's global attributes, `aria-*`, `data-*`), and `initial-height`, the loader's own.
  const NOT_OPTIONS =
    /^(preset|src|scenario-hash|expect|expect-file|initial-height|class|style|title|hidden|lang|dir|tabindex|slot|part|role|nonce|is|inert|translate|accesskey|autofocus|draggable|spellcheck|contenteditable|enterkeyhint|popover|(aria|data)-.*)$/;

  /** The host page's theme now. */
  function hostTheme() {
    const md = document.body && document.body.getAttribute('data-md-color-scheme');
    if (md) return md === 'slate' ? 'dark' : 'light';
    const dt = document.documentElement.getAttribute('data-theme');
    if (dt === 'dark' || dt === 'light') return dt;
    for (const el of [document.documentElement, document.body])
      if (el && el.classList.contains('dark')) return 'dark';
    return renderedScheme();
  }

  /**
   * A page with no theme marker: what the browser paints. An opaque background on <body> or
   * <html> decides by its lightness; else the canvas is dark only when the page opts in with
   * `color-scheme` (https://www.w3.org/TR/css-color-adjust-1/#color-scheme-prop) — a plain page
   * stays white on a dark system, so its embeds stay light.
   */
  function renderedScheme() {
    for (const el of [document.body, document.documentElement]) {
      if (!el) continue;
      const rgba = getComputedStyle(el).backgroundColor.match(/[\d.]+/g);
      if (rgba && (rgba[3] === undefined || Number(rgba[3]) > 0.5)) {
        const [r, g, b] = rgba.map(Number);
        return 0.2126 * r + 0.7152 * g + 0.0722 * b < 128 ? 'dark' : 'light';
      }
    }
    const scheme = getComputedStyle(document.documentElement).colorScheme || 'normal';
    if (!/\bdark\b/.test(scheme)) return 'light';
    if (!/\blight\b/.test(scheme)) return 'dark';
    return window.matchMedia && matchMedia('(prefers-color-scheme: dark)').matches
      ? 'dark'
      : 'light';
  }

  /**
   * `initial-height` for this frame: `790`, `790px`, or per frame width in the form of `<img
   * sizes>`, `(max-width: 479px) 1210px, 790px` — the first entry the frame's width fits, else
   * the last (src/views/io/initialHeight.ts reads it for `delivery-lab check`, which refuses a
   * value this ignores). Null: none, or not readable (the frame starts at 480 px).
   */
  function initialHeight(value, frame) {
    if (!value) return null;
    const entry =
      /^\s*(?:\(\s*max-width\s*:\s*(\d+(?:\.\d+)?)(?:px)?\s*\)\s*)?(\d+(?:\.\d+)?)(?:px)?\s*$/i;
    const rules = value.split(',').map((e) => entry.exec(e));
    // The whole value or none of it: only the last entry has no condition, every height in range.
    const usable = rules.every(
      (m, i) =>
        m &&
        (m[1] === undefined) === (i === rules.length - 1) &&
        Number(m[2]) >= 200 &&
        Number(m[2]) <= 4000,
    );
    if (!usable) return null;
    const width = frame.getBoundingClientRect().width;
    return Number(rules.find((m) => m[1] === undefined || width <= Number(m[1]))[2]);
  }

  /** Each frame's scenario file (`src`): its name as written, and its text or why not. */
  const files = new WeakMap();

  /**
   * A scenario file, fetched by this page (its own origin for a file beside it: no CORS, and the
   * lab's host needs no access to the docs site) for the player, which validates it.
   */
  function fetchFile(src) {
    let url;
    try {
      url = new URL(src, document.baseURI);
    } catch {
      return Promise.resolve({ error: 'not an address' });
    }
    return fetch(url.href).then(
      (r) =>
        r.ok
          ? r.text().then((text) => ({ text }))
          : { error: `could not be fetched: ${url.href} answered HTTP ${r.status}` },
      () => ({
        error: `could not be fetched: ${url.href} (offline, or another site that does not let this page read it: CORS)`,
      }),
    );
  }

  /** The lab's frames on the page: any iframe whose address is under the lab's. */
  function frames() {
    return [...document.querySelectorAll('iframe')].filter((f) => f.src.startsWith(base.href));
  }

  function sendTheme(frame) {
    if (!frame.contentWindow) return;
    frame.contentWindow.postMessage({ type: 'delivery-lab:theme', theme: hostTheme() }, origin);
  }

  window.addEventListener('message', (event) => {
    if (event.origin !== origin) return;
    const m = event.data;
    if (!m) return;
    const frame = frames().find((f) => f.contentWindow === event.source);
    if (!frame) return;
    // The player says it listens (`delivery-lab:hello`, as soon as it mounts with theme=host,
    // long before it has measured its height); a build without it, by its first height message.
    if (
      m.type === 'delivery-lab:hello' ||
      (m.type === 'delivery-lab:height' && !frame.dataset.themeSent)
    ) {
      frame.dataset.themeSent = '1';
      sendTheme(frame);
    }
    // The player asks for its scenario file (`src`, docs/embed.md): the text, or why not.
    const file = files.get(frame);
    if (m.type === 'delivery-lab:scenario-file' && file && m.file === file.name)
      file.fetched.then(
        (answer) =>
          frame.contentWindow &&
          frame.contentWindow.postMessage(
            { type: 'delivery-lab:scenario-file', file: file.name, ...answer },
            origin,
          ),
      );
    if (m.type === 'delivery-lab:height' && Number.isFinite(m.height))
      frame.style.height = Math.ceil(m.height) + 'px';
    // A frame its element names by no caption nor preset (a share link's scenario) takes the
    // scenario's own name, once the player has it: each was "Delivery Lab: a scenario".
    if (m.type === 'delivery-lab:height' && frame.dataset.untitled && typeof m.title === 'string')
      frame.title = `Delivery Lab: ${m.title.slice(0, 200)}`;
  });

  const watch = new MutationObserver(() => frames().forEach(sendTheme));
  const watchEl = (el) =>
    el &&
    watch.observe(el, {
      attributes: true,
      attributeFilter: ['class', 'style', 'data-theme', 'data-md-color-scheme'],
    });
  watchEl(document.documentElement);
  if (document.body) watchEl(document.body);
  else document.addEventListener('DOMContentLoaded', () => watchEl(document.body));
  if (window.matchMedia)
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () =>
      frames().forEach(sendTheme),
    );

  class DeliveryLabEmbed extends HTMLElement {
    connectedCallback() {
      if (this.querySelector('iframe')) return;
      const q = new URLSearchParams();
      // A share link's `s=2.…`; its bare value (`2.…`, as `delivery-lab check` reads it too) is
      // that same `s=`, not a hash the player would not read; the whole link, as Share copies
      // it, is its hash. A link to the lab's page on a preset, with no hash (its address bar:
      // `…/?preset=lost-ack-retry/acks-1`), names that preset.
      let hash = (this.getAttribute('scenario-hash') || '').trim();
      const linked =
        !hash.includes('#') && hash.includes('?')
          ? new URLSearchParams(hash.slice(hash.indexOf('?') + 1)).get('preset')
          : null;
      hash = linked ? '' : hash.slice(hash.indexOf('#') + 1);
      if (hash && !hash.includes('=')) hash = `s=${hash}`;
      const preset = this.getAttribute('preset') || linked;
      if (preset) q.set('preset', preset);
      // A scenario file beside the page (`src`, resolved against the page's URL): named in the
      // address as written, for the player's notice; this page fetches it when the player asks.
      const src = (this.getAttribute('src') || '').trim();
      if (src) q.set('file', src);
      for (const name of OPTIONS) {
        const v = this.getAttribute(name);
        if (v !== null) q.set(name, v === '' ? '1' : v);
      }
      // Any other attribute but the page's own goes to the player as written, so that its notice
      // names a misspelt option (`autoply` — did you mean autoplay?) instead of the loader
      // dropping it without a word (docs/embed.md, "Options").
      for (const { name, value } of this.attributes)
        if (!OPTIONS.includes(name) && !NOT_OPTIONS.test(name))
          q.set(name, value === '' ? '1' : value);
      if (!q.has('theme')) q.set('theme', 'host');
      const frame = document.createElement('iframe');
      frame.src = `${base.href}?embed&${q.toString()}${hash ? `#${hash}` : ''}`;
      if (src) files.set(frame, { name: src, fetched: fetchFile(src) });
      const named = this.getAttribute('caption') || preset;
      frame.title = `Delivery Lab: ${named || 'a scenario'}`;
      if (!named) frame.dataset.untitled = '1';
      // Loaded at once, not `loading=lazy`: a lazy frame below the fold keeps the default height
      // and the system's theme until the reader scrolls to it, then grows and moves the text
      // under the reader (issue 31). The player reserves its final height as soon as it has its
      // run, whether on screen or not, so every frame is sized and themed before it is seen.
      const h = Number(this.getAttribute('height'));
      frame.style.cssText = `display:block;width:100%;border:0;height:${h > 0 ? h : 480}px`;
      // What the element holds is its fallback, shown where this script does not run (JavaScript
      // off, the script blocked): the player takes its place (docs/embed.md). Run before the page
      // is parsed (in <head>, async, or a classic script before the element as the Embed dialog
      // writes it), the element is connected at its start tag and its content is parsed after
      // the frame: it goes as it is parsed.
      this.replaceChildren(frame);
      // Until the player's first height message (about a second in), the frame is as tall as
      // `initial-height` says for its width, so the text below does not move then
      // (docs/embed.md, "The height message"). A fixed `height` wins: the frame keeps it.
      const initial = h > 0 ? null : initialHeight(this.getAttribute('initial-height'), frame);
      if (initial) frame.style.height = `${initial}px`;
      if (document.readyState === 'loading') {
        // As the parser adds it (before the next paint: observers run at the microtask
        // checkpoint, https://dom.spec.whatwg.org/#mutation-observers), so its line is never
        // painted under the frame — it moved the text below by a line (~18 px) once removed.
        const drop = () => [...this.childNodes].forEach((c) => c !== frame && c.remove());
        const parsing = new MutationObserver(drop);
        parsing.observe(this, { childList: true });
        document.addEventListener(
          'DOMContentLoaded',
          () => {
            parsing.disconnect();
            drop();
          },
          { once: true },
        );
      }
    }
  }
  window.customElements.define('delivery-lab-embed', DeliveryLabEmbed);
})();
