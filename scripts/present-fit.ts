// Measures projector mode at 1280×720 (issue 24) for every library story, as the library opens it
// (at its question's variant): while its question is asked, how far each stage card and the
// pipeline's box are cut (the card's content past its own box, scrollHeight − clientHeight; the
// card's bottom past the pipeline's box; the pipeline's box scrolling) — and with --answered, at
// the run's end after "Show the answer", the sink table's bottom row cut by its box (or by the pipeline's), how far
// the pipeline's box scrolls there and which stages scroll inside themselves ("▾ more below") — and
// with --locked, once an answer is locked in (as a user does), whether the story goes beside the
// pipeline or stays the band above it (useBandWhileLocked). Needs a served page:
// `npx vite preview --port P` (or `npx vite --port P`), then
// `npx tsx scripts/present-fit.ts http://127.0.0.1:P/ [--shots DIR] [--answered] [--locked] [--size WxH] [preset filter]`.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { presets } from '../src/scenarios';
import { questionVariant } from '../src/views/library/library';
import { chromiumArgs, findOrInstallChromium } from './chromium.mjs';
import { writtenAnswer } from '../e2e/support/writtenAnswer';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const [, value] = args.splice(i, 2);
  return value;
};
const option = (name: string) => {
  const i = args.indexOf(name);
  if (i >= 0) args.splice(i, 1);
  return i >= 0;
};
const answered = option('--answered');
const locked = option('--locked');
const shots = flag('--shots');
// --size 1920x1080: another screen (a 1080p projector's view is the 1280×720 one at 1.5×).
const [width, height] = (flag('--size') ?? '1280x720').split('x').map(Number) as [number, number];
const [base = 'http://127.0.0.1:4173/', only] = args;
if (shots) mkdirSync(shots, { recursive: true });

/** Calls the page's test API by name (its CSP forbids code strings). */
function api(page: Page, method: string, ...a: unknown[]): Promise<unknown> {
  return page.evaluate(
    ([m, x]) =>
      (window.__deliveryLab as unknown as Record<string, (...y: unknown[]) => unknown>)[m](...x),
    [method, a] as const,
  );
}

async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      window.__deliveryLab !== undefined &&
      !['running', 'validating'].includes(window.__deliveryLab.status()),
  );
  await page.waitForTimeout(150); // the band's balancing and the pads' observers
}

/** Each stage's cut and the pipeline box's, in px (0: whole). */
function cuts(page: Page) {
  return page.evaluate(() => {
    const scroll = document.querySelector('.pipeline-scroll')!;
    const box = scroll.getBoundingClientRect();
    const inner = box.top + scroll.clientTop + scroll.clientHeight;
    const stages = [...document.querySelectorAll<HTMLElement>('.pipeline .stage')].map((s) => {
      const r = s.getBoundingClientRect();
      // Its spare: how far under the box's bottom its card would end at its content's height
      // (stretched by the grid, a card's height says nothing of what it holds).
      const { alignSelf, height } = s.style;
      s.style.alignSelf = 'start';
      s.style.height = 'auto';
      const natural = s.getBoundingClientRect().bottom;
      Object.assign(s.style, { alignSelf, height });
      return {
        name: s.getAttribute('aria-label') ?? '?',
        own: s.scrollHeight - s.clientHeight,
        pastBox: Math.round(Math.max(0, r.bottom - box.bottom)),
        spare: Math.round(inner - natural),
      };
    });
    return {
      frame: Math.round(document.querySelector('.pipeline-frame')!.getBoundingClientRect().height),
      scrolls: scroll.scrollHeight - scroll.clientHeight,
      stages,
    };
  });
}

/** The sink tables' bottom rows cut by their box (px hidden), the rows seen whole or not. */
function sinkRowCut(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('.pipeline .table-scroll')].flatMap((t) => {
      const b = t.getBoundingClientRect();
      // The table's own view, or the pipeline's box's where the stage grows past it.
      const box = t.closest('.pipeline-scroll');
      const bottom = Math.min(
        b.top + t.clientTop + t.clientHeight,
        box ? box.getBoundingClientRect().top + box.clientTop + box.clientHeight : Infinity,
      );
      const head = t
        .querySelector('[role=rowgroup] [role=row], .sink-cols')
        ?.getBoundingClientRect();
      const top = head ? Math.max(b.top, head.bottom) : b.top;
      return [...t.querySelectorAll('[role=row]')]
        .map((r) => r.getBoundingClientRect())
        .filter((r) => r.top < bottom - 0.5 && r.bottom > top + 0.5 && r.top >= top - 0.5)
        .filter((r) => r.bottom > bottom + 0.5)
        .map(
          (r) =>
            `${t.closest('.stage')?.getAttribute('aria-label')}: ${Math.round(r.bottom - bottom)} px of a row hidden (scrollTop ${Math.round(t.scrollTop)})`,
        );
    }),
  );
}

const browser = await chromium.launch({
  executablePath: findOrInstallChromium(),
  args: chromiumArgs,
});
const page = await browser.newPage({ viewport: { width, height } });
await page.goto(`${base}?present=1`);
await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
let fit = 0;
let beside = 0;
const list = presets.filter((p) => !only || p.id.includes(only));
for (const p of list) {
  await api(page, 'load', `${p.id}/${questionVariant(p)}`);
  await settled(page);
  const c = await cuts(page);
  const cut = c.stages.filter((s) => s.own > 0 || s.pastBox > 0);
  if (c.scrolls <= 0 && cut.length === 0) fit++;
  const spare = c.stages.map((s) => `${s.name} ${s.spare}`).join(', ');
  console.log(
    `${p.id}\tframe ${c.frame}\tscrolls ${c.scrolls}\t${cut.map((s) => `${s.name}: own ${s.own}, past ${s.pastBox}`).join('; ') || 'fits'}\tspare px: ${spare}`,
  );
  if (shots) await page.screenshot({ path: join(shots, `${p.id}-asked.png`) });
  if (locked) {
    const mark = p.predict.mark;
    if (mark.kind === 'choice')
      await page.getByTestId('predict-options').locator('input').first().check();
    else await page.getByTestId('predict-input').fill(writtenAnswer(mark));
    await page.getByTestId('predict-lock').click();
    await page.getByTestId('predict-yours').waitFor();
    await settled(page);
    const at = await page.evaluate(() => {
      const story = document.querySelector('.story')!;
      const yours = document
        .querySelector('[data-testid="predict-yours"]')!
        .getBoundingClientRect();
      return {
        band: story.getAttribute('data-asking') === 'true',
        yours: `${Math.round(yours.x)},${Math.round(yours.y)} ${Math.round(yours.width)}×${Math.round(yours.height)}`,
        pipelineTop: Math.round(
          document.querySelector('.pipeline-frame')!.getBoundingClientRect().top,
        ),
      };
    });
    if (!at.band) beside++;
    console.log(
      `  locked\t${at.band ? 'band' : 'beside'}\t"You predicted" at ${at.yours}\tpipeline top ${at.pipelineTop}`,
    );
    if (shots) await page.screenshot({ path: join(shots, `${p.id}-locked.png`) });
  }
  if (answered) {
    await page.getByTestId('predict-reveal').click();
    const end = ((await api(page, 'cursor')) as { endTime: number }).endTime;
    await api(page, 'runTo', end);
    await settled(page);
    await page.waitForTimeout(400);
    const rows = await sinkRowCut(page);
    const after = await cuts(page);
    // The stages that scroll inside themselves, "▾ more below" at their foot (useMoreBelow), by how much.
    const more = await page.$$eval('.pipeline > .stage[data-more-below]', (ss) =>
      ss.map((s) => `${s.getAttribute('aria-label')} +${s.scrollHeight - s.clientHeight}`),
    );
    console.log(
      `  answered\tpipeline scrolls ${after.scrolls}\t${rows.join('; ') || 'rows whole'}\tmore below: ${more.join(', ') || 'none'}`,
    );
    if (shots) await page.screenshot({ path: join(shots, `${p.id}-answered.png`) });
  }
}
console.log(`${fit} of ${list.length} fit while asked`);
if (locked) console.log(`${beside} of ${list.length} go beside the pipeline locked in`);
await browser.close();
