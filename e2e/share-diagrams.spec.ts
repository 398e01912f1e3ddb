/**
 * Mermaid diagrams in the page, against the built page: mermaid is fetched only when the panel
 * opens (it is not in the entry bundle); the run's sequence diagram, the selected event's chain
 * and the topology render with the expected participants; the mermaid text copies; the SVG and
 * PNG downloads are valid files (parsed: XML with an <svg> root; a PNG that decodes to a slide).
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test, testIds } from './fixtures';
import { SameOriginAxeBuilder } from './support/axe';

const svgOf = (page: Page) => page.getByTestId(testIds.diagramSvg).locator('svg');

async function openDiagrams(page: Page, tab: 'slide' | 'sequence' | 'event' | 'flow') {
  const toggle = page.getByTestId(testIds.diagramsToggle);
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await page.locator(`[data-testid="${testIds.diagramTab}"][data-tab="${tab}"]`).click();
  await expect(page.getByTestId(testIds.diagramStatus)).toHaveAttribute('data-state', 'ok', {
    timeout: 20_000,
  });
}

test('mermaid loads only when the diagrams open; the run diagram has the pipeline’s participants', async ({
  dash,
  context,
}) => {
  const { page } = dash;
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));
  await dash.pickPreset('at-least-once');
  expect(requested.filter((u) => /mermaid/.test(u))).toEqual([]);
  // Predict first: the whole run's diagram waits for the answer, like the verdict.
  await page.getByTestId(testIds.diagramsToggle).click();
  const hiddenRun = page.locator(`[data-testid="${testIds.outcomeHidden}"][data-what="diagrams"]`);
  await expect(hiddenRun).toContainText('Hidden until you answer the prediction');
  await expect(page.getByTestId(testIds.diagramSvg)).toHaveCount(0);
  await hiddenRun.getByRole('button', { name: 'Show the answer' }).click();
  // Told, the run's diagram folds until its end as the verdict does: "Reveal now" shows both.
  await expect(hiddenRun).toContainText('Shown when the run reaches its end.');
  await expect(
    page.locator(`[data-testid="${testIds.outcomeHidden}"][data-what="verdict"]`),
  ).toContainText('Shown when the run reaches its end.');
  await hiddenRun.getByRole('button', { name: 'Reveal now' }).click();
  await expect(hiddenRun).toHaveCount(0);
  await openDiagrams(page, 'sequence');
  expect(requested.some((u) => /mermaid\.core-[\w-]+\.js$/.test(u))).toBe(true);
  const svg = svgOf(page);
  for (const name of ['producer', 'broker-1', 'coordinator', 'consumer-0', 'sink (table payments)'])
    await expect(svg.locator('text.actor', { hasText: name }).first()).toBeVisible();
  await expect(svg).toContainText('ack p-4 offset 3 (lost)');

  // The mermaid text goes to the clipboard.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId(testIds.diagramCopy).click();
  await expect(page.getByTestId(testIds.notice)).toContainText('mermaid text is on the clipboard');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(/^sequenceDiagram\n/);
  expect(copied).toBe(await page.getByTestId(testIds.diagramText).textContent());

  // The panel is accessible (mermaid's own SVG aside: it carries its own aria roles).
  const axe = await new SameOriginAxeBuilder(page)
    .include(`[data-testid="${testIds.diagrams}"]`)
    .exclude(`[data-testid="${testIds.diagramSvg}"]`)
    .analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  // The topology: a flowchart with the knobs that matter.
  await openDiagrams(page, 'flow');
  await expect(svgOf(page)).toContainText('acks=all');
  await expect(svgOf(page)).toContainText('lost ack');
  expect(dash.errors).toEqual([]);
});

test('the selected event’s causal chain; a capped run says how much it shows', async ({ dash }) => {
  const { page } = dash;
  await dash.pickPreset('at-least-once');
  // The event's chain tells its fate: skip the preset's prediction first.
  await dash.showOutcome();
  // Select p-4 in the ledger.
  await dash.byId(testIds.ledgerRow).filter({ hasText: 'p-4' }).first().click();
  await openDiagrams(page, 'event');
  await expect(page.locator(`[data-testid="${testIds.diagramTab}"][data-tab="event"]`)).toHaveText(
    'Event p-4',
  );
  await expect(svgOf(page)).toContainText('p-4 — duplicated');
  await expect(svgOf(page)).toContainText('REQUEST_TIMED_OUT');

  // A run with more steps than the cap: "showing N of M".
  await dash.api('load', {
    version: 1,
    name: 'many',
    workload: { generate: { count: 400, intervalMs: 5 } },
    processor: { type: 'consumer', 'auto.offset.reset': 'earliest' },
    sink: { type: 'table' },
  });
  await openDiagrams(page, 'sequence');
  await expect(page.getByTestId(testIds.diagramStatus)).toHaveText(
    /^Showing 200 of \d[\d,]* steps/,
  );
  await expect(svgOf(page)).toContainText(/showing 200 of \d+ steps/);
});

/** Download the diagram on screen as SVG and PNG. */
async function downloads(page: Page): Promise<{ svg: string; png: Buffer; names: string[] }> {
  const [svgDl] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId(testIds.diagramSvgDownload).click(),
  ]);
  const [pngDl] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId(testIds.diagramPngDownload).click(),
  ]);
  return {
    svg: await readFile((await svgDl.path())!, 'utf8'),
    png: await readFile((await pngDl.path())!),
    names: [svgDl.suggestedFilename(), pngDl.suggestedFilename()],
  };
}

/** Parse the files in a browser page away from the app: the SVG as XML, the PNG decoded. */
async function parse(blank: Page, svg: string, png: Buffer) {
  return blank.evaluate(
    async ([svgText, pngBase64]) => {
      const doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
      const bytes = Uint8Array.from(atob(pngBase64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      // Not a blank picture: dark pixels (the diagram's lines and text) in its top half.
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(bitmap, 0, 0);
      const px = ctx.getImageData(0, 0, bitmap.width, Math.floor(bitmap.height / 2)).data;
      let dark = 0;
      for (let i = 0; i < px.length; i += 4) if (px[i]! + px[i + 1]! + px[i + 2]! < 300) dark++;
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        root: doc.documentElement.localName,
        ns: doc.documentElement.namespaceURI,
        width: Number(doc.documentElement.getAttribute('width')),
        png: [bitmap.width, bitmap.height],
        dark,
      };
    },
    [svg, png.toString('base64')] as const,
  );
}

/** The PNG's signature and its IHDR size. */
function pngHeader(png: Buffer): number[] {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}

test('the downloaded SVG and PNG are valid files', async ({ dash, browser }) => {
  // Four files rendered and decoded in two pages: 34 s seen on a loaded two-core machine.
  test.setTimeout(90_000);
  const { page } = dash;
  const blank = await (await browser.newContext()).newPage();
  await dash.pickPreset('at-least-once');
  // The whole run's diagram waits for the preset's prediction: skip it.
  await dash.showOutcome();

  // The topology is landscape: a 1920 × 1080 slide.
  await openDiagrams(page, 'flow');
  const flow = await downloads(page);
  expect(flow.names).toEqual([
    'at-least-once-retry-everything-dedupe-nothing-flow.svg',
    'at-least-once-retry-everything-dedupe-nothing-flow.png',
  ]);
  expect(pngHeader(flow.png)).toEqual([1920, 1080]);
  const f = await parse(blank, flow.svg, flow.png);
  expect(f).toMatchObject({ error: null, root: 'svg', ns: 'http://www.w3.org/2000/svg' });
  expect(f.png).toEqual([1920, 1080]);
  expect(f.dark).toBeGreaterThan(1000);
  expect(flow.svg).toContain('acks=all');

  // The whole run is tall: a slide's width, as long as it needs.
  await openDiagrams(page, 'sequence');
  const seq = await downloads(page);
  expect(seq.names[1]).toBe('at-least-once-retry-everything-dedupe-nothing-sequence.png');
  const [w, h] = pngHeader(seq.png);
  expect(w).toBe(1920);
  expect(h).toBeGreaterThan(1080);
  const s = await parse(blank, seq.svg, seq.png);
  expect(s).toMatchObject({ error: null, root: 'svg', png: [w, h] });
  expect(s.width).toBeGreaterThan(100);
  expect(s.dark).toBeGreaterThan(1000);
  expect(seq.svg).toContain('producer');
  expect(dash.errors).toEqual([]);
});

test('the slide: one 1920 × 1080 frame, 28 px labels, one row of actors, the duplicate rows edged', async ({
  dash,
  browser,
}) => {
  // Two files rendered and decoded in two pages, on a loaded two-core machine.
  test.setTimeout(90_000);
  const { page } = dash;
  const blank = await (await browser.newContext()).newPage();
  await dash.pickPreset('at-least-once');
  await dash.showOutcome();
  await openDiagrams(page, 'slide');
  const slide = await downloads(page);
  expect(slide.names).toEqual([
    'at-least-once-retry-everything-dedupe-nothing-slide.svg',
    'at-least-once-retry-everything-dedupe-nothing-slide.png',
  ]);
  // 16 steps from the lost ack to row 5 (21 before its repeats were folded): a slide still,
  // never a tall page.
  expect(pngHeader(slide.png)).toEqual([1920, 1080]);
  const s = await parse(blank, slide.svg, slide.png);
  expect(s).toMatchObject({ error: null, root: 'svg', png: [1920, 1080] });
  expect(s.dark).toBeGreaterThan(1000);
  // Every label at 28 px (mermaid's default 16 px came out 11.5–13 px on the PNG): the 8
  // messages of p-4's story (the commit after row 5 is past the duplicate), its notes and the 5
  // actors, drawn once (no mirrored row).
  expect(slide.svg.match(/class="messageText"[^>]*font-size: 28px/g)).toHaveLength(8);
  expect(slide.svg.match(/class="actor actor-box"[^>]*font-size: 28px/g)).toHaveLength(5);
  expect(slide.svg).not.toMatch(/font-size: 16px/);
  expect(slide.svg).not.toContain('actor-bottom');
  // Row 5 (the duplicate): its note and its reply, on the page's --dup-bg, edged in --dup.
  expect(slide.svg.match(/<rect [^>]*fill="rgb\(253, 233, 210\)"/g)).toHaveLength(2);
  expect(slide.svg).toContain('Before the cause, 3 steps as usual');
  expect(dash.errors).toEqual([]);
});
