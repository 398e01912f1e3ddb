// Measures the "Download PNG (slide)" export of every library story's anomaly (issue 24): per
// preset, the PNG's size, the smallest label's font size in px *on the PNG* (each text element's
// computed font size in the SVG × the scale the PNG drew it at), and the diagram's share of the
// PNG's width and height (its ink: the box of the pixels that are not background). The scale is
// measured, not assumed: the SVG's ink width drawn at its natural size against the PNG's ink width.
// Needs a served page: `npx vite preview --port P [--outDir dir]`, then
// `npx tsx scripts/slide-measure.ts http://127.0.0.1:P/ [--out DIR] [preset filter]`
// (--out keeps each PNG and SVG, to look at).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { presets } from '../src/scenarios';
import { questionVariant } from '../src/views/library/library';
import { testIds } from '../src/ui/testIds';
import { chromiumArgs, findOrInstallChromium } from './chromium.mjs';

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = outAt >= 0 ? args.splice(outAt, 2)[1] : undefined;
// Rows at the PNG's top that hold a title drawn by the canvas, not by the SVG (88 for the slide of
// src/platform/slidePng.ts): left out of the scale's measure, with the SVG's own title.
const bandAt = args.indexOf('--title-band');
const band = bandAt >= 0 ? Number(args.splice(bandAt, 2)[1]) : 0;
const [base = 'http://127.0.0.1:4173/', only] = args;
if (out) mkdirSync(out, { recursive: true });

const byId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);

/** Calls the page's test API by name (its CSP forbids code strings). */
function api(page: Page, method: string, ...a: unknown[]): Promise<unknown> {
  return page.evaluate(
    ([m, x]) =>
      (window.__deliveryLab as unknown as Record<string, (...y: unknown[]) => unknown>)[m](...x),
    [method, a] as const,
  );
}

/** Open the slide tab of a loaded preset, its question skipped; false when it has no anomaly. */
async function openSlide(page: Page): Promise<boolean> {
  await page.waitForFunction(
    () => !['running', 'validating'].includes(window.__deliveryLab!.status()),
    undefined,
    { timeout: 60_000 },
  );
  const hidden = page.locator(`[data-testid="${testIds.outcomeHidden}"][data-what="verdict"]`);
  if (await hidden.isVisible())
    await hidden.getByRole('button', { name: 'Show the answer' }).click();
  const toggle = byId(page, testIds.diagramsToggle);
  await toggle.waitFor({ timeout: 60_000 });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await page.locator(`[data-testid="${testIds.diagramTab}"][data-tab="slide"]`).click();
  const status = byId(page, testIds.diagramStatus);
  await page.waitForFunction(
    (id) =>
      ['ok', 'none', 'error'].includes(
        document.querySelector(`[data-testid="${id}"]`)?.getAttribute('data-state') ?? '',
      ),
    testIds.diagramStatus,
    { timeout: 60_000 },
  );
  const state = await status.getAttribute('data-state');
  if (state === 'error') throw new Error(await status.innerText());
  return state === 'ok';
}

async function download(page: Page, id: string): Promise<Buffer> {
  const [dl] = await Promise.all([page.waitForEvent('download'), byId(page, id).click()]);
  return readFileSync((await dl.path())!);
}

/** In a blank page: the PNG's size and ink box, the SVG's ink width and its labels' font sizes. */
function measure(blank: Page, svg: string, png: Buffer) {
  return blank.evaluate(
    async ([svgText, pngBase64, titleBand]) => {
      /** The box of the pixels that differ from the top-left one (the background). */
      const ink = (source: CanvasImageSource, w: number, h: number, fromY = 0) => {
        const c = new OffscreenCanvas(w, h);
        const ctx = c.getContext('2d')!;
        ctx.drawImage(source, 0, 0, w, h);
        const d = ctx.getImageData(0, 0, w, h).data;
        const [r0, g0, b0] = [255, 255, 255];
        let x0 = w;
        let x1 = -1;
        let y0 = h;
        let y1 = -1;
        for (let y = fromY; y < h; y++)
          for (let x = 0; x < w; x++) {
            const i = (y * w + x) * 4;
            if (d[i + 3]! < 16) continue;
            if (Math.abs(d[i]! - r0) + Math.abs(d[i + 1]! - g0) + Math.abs(d[i + 2]! - b0) < 24)
              continue;
            x0 = Math.min(x0, x);
            x1 = Math.max(x1, x);
            y0 = Math.min(y0, y);
            y1 = Math.max(y1, y);
          }
        return { x0, x1, y0, y1, width: x1 - x0 + 1, height: y1 - y0 + 1 };
      };
      const bytes = Uint8Array.from(atob(pngBase64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const pngInk = ink(bitmap, bitmap.width, bitmap.height);
      const pictureInk = ink(bitmap, bitmap.width, bitmap.height, titleBand);
      // The SVG at its natural size, as an image (as the PNG's canvas draws it) and in the DOM.
      const doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
      const root = doc.documentElement;
      if (titleBand > 0) root.querySelector(':scope > text:not([class])')?.remove();
      const w = Number(root.getAttribute('width'));
      const h = Number(root.getAttribute('height'));
      const img = new Image(w, h);
      img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(root))}`;
      await img.decode();
      const svgInk = ink(img, w, h);
      const scale = pictureInk.width / svgInk.width;
      const live = document.importNode(root, true);
      document.body.append(live);
      const labels: { kind: string; text: string; px: number }[] = [];
      // A label: an SVG text (its lines may be tspans) or an HTML label's innermost element.
      for (const el of live.querySelectorAll<SVGTextElement | HTMLElement>(
        'text, foreignObject div, foreignObject span',
      )) {
        const text = el.textContent?.trim() ?? '';
        if (!text || el.querySelector('div, span')) continue;
        const kind = el.getAttribute('class') ?? el.closest('[class]')?.getAttribute('class') ?? '';
        labels.push({ kind, text, px: Number.parseFloat(getComputedStyle(el).fontSize) * scale });
      }
      live.remove();
      return { png: [bitmap.width, bitmap.height], pngInk, svgSize: [w, h], scale, labels };
    },
    [svg.replace(/^<\?xml[^>]*>\s*/, ''), png.toString('base64'), band] as const,
  );
}

const browser = await chromium.launch({
  executablePath: findOrInstallChromium(),
  args: chromiumArgs,
});
const context = await browser.newContext({
  viewport: { width: 1280, height: 900 },
  acceptDownloads: true,
});
const page = await context.newPage();
const blank = await (await browser.newContext()).newPage();
// tsx keeps function names with a `__name` helper that the blank page lacks.
await blank.addInitScript('window.__name = (f) => f');
await blank.goto('about:blank');
await page.goto(base);
await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready', undefined, {
  timeout: 120_000,
});
console.log(
  'preset\tPNG\tsmallest label px (kind: text)\tmessage px\tnote px\tink width %\tink height %',
);
for (const p of presets.filter((x) => !only || x.id.includes(only))) {
  await api(page, 'load', `${p.id}/${questionVariant(p)}`);
  if (!(await openSlide(page))) {
    console.log(`${p.id}\tno anomaly`);
    continue;
  }
  const svg = (await download(page, testIds.diagramSvgDownload)).toString('utf8');
  const png = await download(page, testIds.diagramPngDownload);
  if (out) {
    writeFileSync(join(out, `${p.id}.svg`), svg);
    writeFileSync(join(out, `${p.id}.png`), png);
  }
  const m = await measure(blank, svg, png);
  const small = m.labels.reduce((a, b) => (b.px < a.px ? b : a));
  const min = (kind: string) =>
    Math.min(...m.labels.filter((l) => l.kind.includes(kind)).map((l) => l.px)).toFixed(1);
  console.log(
    [
      p.id,
      m.png.join('×'),
      `${small.px.toFixed(1)} (${small.kind}: ${small.text.slice(0, 40)})`,
      min('messageText'),
      min('noteText'),
      `${Math.round((100 * m.pngInk.width) / m.png[0]!)}`,
      `${Math.round((100 * m.pngInk.height) / m.png[1]!)}`,
    ].join('\t'),
  );
}
await browser.close();
