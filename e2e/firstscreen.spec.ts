/**
 * The first screen loads one preset's family, not the library (issues #24, #31;
 * src/scenarios/presetCatalog.ts): an embed of a preset fetches its family's module and its parsed
 * variants, and no other preset's; the page's library, opened, loads the rest and lists them all;
 * a preset of another family opens from the scenario menu once its module is in; an embed played to
 * its end fetches none of what only the lab runs (issue 31: the embed ≤ 150 KB gzip); the lab's
 * first visit reaches its first verdict without zod (issue 24).
 */
import type { Page } from '@playwright/test';
import { PRESET_FAMILIES } from '../src/scenarios/presetFamilies';
import { PRESET_CATALOG } from '../src/scenarios/parsed/catalog';
import { playedToEnd } from './embedTesting';
import { expect, test, testIds } from './fixtures';

const FAMILIES = Object.keys(PRESET_FAMILIES);
const PRESET_IDS = PRESET_CATALOG.map((m) => m.id);

/**
 * What the page fetches from now on: `names`, the scripts' names without the build's hash (a
 * dynamically imported module may come as a small facade chunk and its content, both named so);
 * `families()`, the preset families among them, known by the facade that exports a family's
 * presets (`export{n as consumerPresets}…`, src/scenarios/presetFamilies.ts), not by a file's
 * name: an engine module may share a family's name (src/engine/processors/streamDedupe.ts).
 */
function scriptsFetched(page: Page) {
  const names = new Set<string>();
  const families = new Set<string>();
  const bodies: Promise<void>[] = [];
  page.on('requestfinished', (r) => {
    const m = /\/assets\/(.+)-[\w-]{8}\.js$/.exec(new URL(r.url()).pathname);
    if (!m) return;
    names.add(m[1]!);
    bodies.push(
      r.response().then(async (response) => {
        const text = (await response?.text()) ?? '';
        for (const e of text.matchAll(/\bas (\w+)Presets\}/g))
          if (FAMILIES.includes(e[1]!)) families.add(e[1]!);
      }),
    );
  });
  return {
    names,
    families: async () => {
      await Promise.all(bodies);
      return [...families].sort();
    },
  };
}

test('an embed of one preset fetches its family and its parsed variants, no other preset', async ({
  page,
}) => {
  const fetched = scriptsFetched(page);
  await page.goto('./?embed&preset=zombie-consumer');
  await expect(page.getByTestId(testIds.embedPlayer)).toBeVisible();
  // Anything lazy the first screen asks for (the run's chunk) has had time to come.
  await page.waitForTimeout(1000);
  // src/scenarios/library/consumer.ts (zombie-consumer's family) and its parsed variants only.
  expect(await fetched.families()).toEqual(['consumer']);
  expect([...fetched.names].filter((n) => PRESET_IDS.includes(n))).toEqual(['zombie-consumer']);
});

test('the page loads the default family; the library, opened, lists every preset', async ({
  unopenedDash: dash,
}) => {
  const fetched = scriptsFetched(dash.page);
  await dash.goto();
  expect(await fetched.families()).toEqual(['foundation']);
  await dash.byId(testIds.libraryOpen).click();
  // 26 streaming presets and the 7 batch jobs, every family loaded for the search.
  await expect(dash.byId(testIds.libraryCard)).toHaveCount(33);
  expect(await fetched.families()).toEqual([...FAMILIES].sort());
});

/**
 * Words of what the lab's first screen does not draw, each in its own module only: Compare's
 * lanes, the explanations under the pipeline, the diagrams' copy button, the Embed dialog.
 */
const ON_DEMAND_WORDS = [
  'on one clock: play, step and scrub move them',
  'Why: what went wrong, and how',
  'The mermaid text is on the clipboard.',
  'Compare (the lanes on the page, else the default offer)',
];
/**
 * Hold the chunks `held` matches until the returned `release` is called, and gather the body of
 * every script the page fetches meanwhile (`scripts()`: once the check's load is over).
 */
async function holdChunks(page: Page, held: RegExp) {
  let release = () => {};
  const checked = new Promise<void>((r) => (release = r));
  await page.route(held, async (route) => {
    await checked;
    await route.continue();
  });
  const bodies: Promise<{ file: string; text: string }>[] = [];
  // Only until `scripts()` is asked: a chunk the page fetches later (after `release`) would have
  // its body read as the test ends, and that read fails the test ("response.text: Test ended",
  // once in a clean-clone run).
  let gathering = true;
  page.on('requestfinished', (r) => {
    if (!gathering) return;
    const file = new URL(r.url()).pathname;
    if (/\/assets\/.+\.js$/.test(file))
      bodies.push(
        r.response().then(async (response) => ({ file, text: (await response?.text()) ?? '' })),
      );
  });
  return {
    release,
    scripts: () => {
      gathering = false;
      return Promise.all(bodies);
    },
  };
}

/** Their chunks (src/ui/onDemandPanels.ts), held back until the first screen is checked. */
const ON_DEMAND_CHUNK = /\/assets\/(ComparePanel|Lower|DiagramsPanel|EmbedDialog)-[\w-]{8}\.js$/;

test('the lab’s first screen fetches none of what it does not draw: Compare, the lower panels, the diagrams, the Embed dialog', async ({
  unopenedDash: dash,
}) => {
  // The page preloads those chunks once idle after its first render: held until the check, so
  // that the scripts read below are those the first screen needed.
  const { release, scripts: fetched } = await holdChunks(dash.page, ON_DEMAND_CHUNK);
  await dash.goto();
  const scripts = await fetched();
  expect(scripts.length).toBeGreaterThan(10);
  for (const words of ON_DEMAND_WORDS)
    expect(
      scripts.filter((s) => s.text.includes(words)).map((s) => s.file),
      words,
    ).toEqual([]);
  release();
  // Once in, each opens: the Embed dialog on a click.
  await dash.byId(testIds.embedButton).click();
  await expect(dash.byId(testIds.embedDialog)).toBeVisible();
});

/** The validation's chunks: zod, the scenario schemas, src/views/run/validationParts.ts. */
const VALIDATION_CHUNK = /\/assets\/(schemas?|validate|validationParts)-[\w-]{8}\.js$/;
/** The first verdict, shown or folded until the run's end (scripts/lab-waterfall.ts). */
const VERDICT =
  '[data-testid="verdict"][data-observed], [data-testid="outcome-hidden"][data-what="verdict"]';

test('a first visit of the lab reaches its first verdict without zod; a fault menu loads it', async ({
  unopenedDash: dash,
}) => {
  // Held until the verdict is in: had the first screen needed them, it would never come. The
  // page asks for them once idle after its first verdict (main.tsx), or on a first need.
  const { release, scripts: fetched } = await holdChunks(dash.page, VALIDATION_CHUNK);
  await dash.page.goto('./');
  await expect(dash.page.locator(VERDICT).first()).toBeAttached();
  const scripts = await fetched();
  expect(scripts.length).toBeGreaterThan(10);
  // No file holds zod's code (its schemas' `_zod` key), whatever chunk it landed in.
  expect(scripts.filter((s) => s.text.includes('_zod')).map((s) => s.file)).toEqual([]);
  release();
  // A fault menu is filtered by the validator: it opens once the validation is in.
  await dash.component('consumer-0').locator('.component-head').first().click();
  await expect(dash.byId(testIds.faultMenu).locator('[data-action]').first()).toBeVisible();
});

test('a preset of another family opens from the scenario menu once its module is in', async ({
  dash,
}) => {
  await dash.pickPreset('zombie-consumer/plain-insert');
  await expect(dash.byId(testIds.storyPanel)).toHaveAttribute('data-preset', 'zombie-consumer');
  await expect(dash.byId(testIds.scenarioPicker)).toHaveValue('zombie-consumer/plain-insert');
});

test('a Flink job’s embed played to its end fetches no deep copier, no SQL script, no lab tools CSS', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const bodies: Promise<string>[] = [];
  page.on('requestfinished', (r) => {
    if (/\/assets\/.+\.(js|css)$/.test(new URL(r.url()).pathname))
      bodies.push(r.response().then(async (response) => (await response?.text()) ?? ''));
  });
  await page.goto(
    './?embed&preset=flink-checkpoint-replay/2pc-read-committed&autoplay=1&speed=1000',
  );
  await playedToEnd(page, 30_000);
  await page.waitForTimeout(1000);
  const fetched = (await Promise.all(bodies)).join('\n');
  // The atlas's copier (src/engine/core/deepCopy.ts), the sink's DDL (src/engine/sql/table.ts),
  // the lab's share popover and import dialog (src/ui/io/tools.css).
  for (const onlyTheLab of ['cannot copy ', 'CREATE TABLE ', '.share-popover', '.drop-zone'])
    expect(fetched.includes(onlyTheLab), onlyTheLab).toBe(false);
  // What the embed does load is seen: its notices' and its player's rules (src/ui/io/io.css).
  expect(fetched).toContain('.embed-head');
});

test('a panel whose chunk does not download says so in its place; the page goes on', async ({
  unopenedDash: dash,
}) => {
  // The panels under the pipeline, gone from the server (a newer build published meanwhile).
  await dash.page.route(/\/assets\/Lower-[\w-]{8}\.js$/, (route) => route.fulfill({ status: 404 }));
  await dash.page.goto('./');
  await expect(dash.byId(testIds.panelLoadFailed)).toContainText(
    'This part of the page could not be loaded',
  );
  await expect(dash.byId(testIds.errorBoundary)).toHaveCount(0);
  // The rest works: a guarantee switch applies.
  await dash
    .byId(testIds.guaranteeSwitch)
    .getByText('Exactly-once', { exact: false })
    .first()
    .click();
  await expect(dash.byId(testIds.errorBoundary)).toHaveCount(0);
  await expect(dash.byId(testIds.panelLoadFailed)).toBeVisible();
});
