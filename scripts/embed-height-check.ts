/**
 * Issue 31, "Stable height", over every library preset's embed: the height the player reserves
 * at its first paint (src/ui/embed/ReserveHeight.tsx) equals the largest height its content
 * takes at any later moment — a scrub through a stream run (every 1/SAMPLES of it, twice: before
 * and after its end has been seen, since the outcome unfolds there), or a batch schedule played
 * to its end. At each moment the player's own height is lifted (`height: auto`) and its natural
 * height read: taller than the reserve is a frame that would have grown (the content scrolls
 * inside instead), shorter at every moment is blank reserved for nothing. Prints one line per
 * embed and width that differs, the stage that grew the most, and exits 1 if any does.
 *
 * `npx vite build && npx tsx scripts/embed-height-check.ts [preset filter]`; CHECK_DIST (dist/),
 * CHECK_PORT (4405), CHECK_WIDTHS (480,700,1280), CHECK_SAMPLES (40).
 */
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { startPreview } from '../bench/previewServer';
import { batchPresets, labPresets } from '../src/scenarios';
import type { DeliveryLabTestApi } from '../src/ui/testApiTypes';
import { chromiumArgs, findOrInstallChromium } from './chromium.mjs';

const root = join(import.meta.dirname, '..');
const dist = process.env.CHECK_DIST ?? join(root, 'dist');
const port = Number(process.env.CHECK_PORT ?? 4405);
const widths = (process.env.CHECK_WIDTHS ?? '480,700,1280').split(',').map(Number);
const SAMPLES = Number(process.env.CHECK_SAMPLES ?? 40);
const only = process.argv[2];
const base = `http://127.0.0.1:${port}/`;
const PLAYER = '[data-testid="embed-player"]';
/** Sub-pixel layout: a height read as a ceiling may differ from another by one. */
const SLACK = 1;

interface Heights {
  /** The reserved height at first paint. */
  first: number;
  /** The largest natural height at any moment sampled, and the stages' heights then. */
  largest: number;
  grew: string;
}

/** The player's natural height now (its reserved height lifted), and each part's. */
function natural(page: Page): Promise<{ height: number; parts: Record<string, number> }> {
  return page.evaluate((q) => {
    const el = document.querySelector<HTMLElement>(q)!;
    const kept = el.style.height;
    el.style.height = 'auto';
    const height = Math.ceil(el.getBoundingClientRect().height);
    const parts: Record<string, number> = {};
    for (const s of el.querySelectorAll<HTMLElement>('section[aria-label], header, .counters'))
      parts[s.getAttribute('aria-label') ?? s.className] = Math.round(
        s.getBoundingClientRect().height,
      );
    el.style.height = kept;
    return { height, parts };
  }, PLAYER);
}

async function checkOne(page: Page, ref: string, batch: boolean): Promise<Heights> {
  await page.goto(`${base}?embed&preset=${ref}${batch ? '&autoplay=1' : ''}`);
  const shown = page.locator(`${PLAYER}:not([aria-busy])`);
  await shown.waitFor({ timeout: 60_000 });
  await page.waitForFunction(
    (q) => document.querySelector<HTMLElement>(q)!.style.height !== '',
    PLAYER,
  );
  const first = await shown.evaluate((el) => Math.ceil(el.getBoundingClientRect().height));
  const start = await natural(page);
  let top = start;
  const seen = (h: typeof start) => {
    if (h.height > top.height) top = h;
  };
  if (batch) {
    // The schedule autoplays (an attempt every 300 ms): sampled until its summary is in.
    for (let i = 0; i < 200; i++) {
      seen(await natural(page));
      if (await page.locator('[data-testid="batch-summary"]').count()) break;
      await page.waitForTimeout(50);
    }
    seen(await natural(page));
  } else {
    const api = () =>
      page.evaluate(() =>
        (window as unknown as { __deliveryLab: DeliveryLabTestApi }).__deliveryLab.cursor(),
      );
    await page.waitForFunction(() => '__deliveryLab' in window);
    const { endTime } = await api();
    for (let pass = 0; pass < 2; pass++)
      for (let k = 0; k <= SAMPLES; k++) {
        const t = Math.round((endTime * k) / SAMPLES);
        await page.evaluate(
          (t) =>
            (window as unknown as { __deliveryLab: DeliveryLabTestApi }).__deliveryLab.runTo(t),
          t,
        );
        seen(await natural(page));
      }
  }
  const grew = Object.entries(top.parts)
    .map(([k, h]) => [k, h - (start.parts[k] ?? 0)] as const)
    .filter(([, d]) => d !== 0)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
    .slice(0, 3)
    .map(([k, d]) => `${k} ${d > 0 ? '+' : ''}${d}`)
    .join(', ');
  return { first, largest: top.height, grew };
}

const refs = labPresets
  .flatMap((p) =>
    p.variants.map((v) => ({ ref: `${p.id}/${v.id}`, batch: batchPresets.includes(p) })),
  )
  .filter(({ ref }) => !only || ref.includes(only));
const server = await startPreview(dist, port);
const browser = await chromium.launch({
  executablePath: findOrInstallChromium(),
  args: chromiumArgs,
});
let bad = 0;
try {
  for (const width of widths) {
    const page = await browser.newPage({ viewport: { width, height: 800 } });
    await page.addInitScript('window.__name = (f) => f;');
    for (const { ref, batch } of refs) {
      const h = await checkOne(page, ref, batch);
      const off = h.largest - h.first;
      if (Math.abs(off) > SLACK) {
        bad++;
        console.log(
          `${width}px ${ref}: reserved ${h.first}, largest ${h.largest} (${off > 0 ? '+' : ''}${off}; ${h.grew || 'no part'})`,
        );
      }
    }
    await page.close();
  }
  console.log(
    `${refs.length} embeds × ${widths.length} widths: ${bad === 0 ? 'every reserved height is the largest' : `${bad} differ`}`,
  );
} finally {
  await browser.close();
  server.kill();
}
process.exit(bad === 0 ? 0 : 1);
