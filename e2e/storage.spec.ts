/**
 * The autosaved workspace against the built page: edits and preferences survive a reload; a
 * corrupt or incompatible saved state is set aside with a notice and the app works; one that
 * cannot be copied aside is never written over until the user exports or discards it; an embedded
 * player never touches the reader's workspace.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { PENDING_KEY, SET_ASIDE_KEY, WORKSPACE_KEY } from '../src/platform/storage';
import { KEPT_FILE_NAME } from '../src/ui/io/keptWorkspace';
import type { ScenarioInput } from '../src/engine';
import { expect, test, testIds } from './fixtures';

const stored = (page: Page, key: string) => page.evaluate((k) => localStorage.getItem(k), key);
const saved = (page: Page) => stored(page, WORKSPACE_KEY);

async function ready(page: Page) {
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
}

test('reload restores the workspace: the scenario with its clicked faults, and the preferences', async ({
  dash,
}) => {
  const { page } = dash;
  await dash.pickPreset('at-most-once');
  await dash.fault('consumer-0', 'crash-before-commit');
  await dash.byId(testIds.fontLarger).click();
  const before = await page.evaluate(() => ({
    scenario: window.__deliveryLab!.scenario(),
    hash: window.__deliveryLab!.traceHash(),
  }));
  const faults = await dash.byId(testIds.faultMarker).count();
  await expect.poll(async () => JSON.parse((await saved(page)) ?? 'null')?.version).toBe(1);
  await page.reload();
  await ready(page);
  expect(
    await page.evaluate(() => ({
      scenario: window.__deliveryLab!.scenario(),
      hash: window.__deliveryLab!.traceHash(),
    })),
  ).toEqual(before);
  await expect(dash.byId(testIds.faultMarker)).toHaveCount(faults);
  await expect(dash.byId(testIds.app)).toHaveAttribute('style', /--scale: 1.125/);
  await expect(dash.byId(testIds.notice)).toHaveCount(0);
  expect(dash.errors).toEqual([]);
});

for (const [what, stored, says] of [
  ['corrupt JSON', '{"state": {"scenario": ', 'it is not valid JSON'],
  [
    'an invalid scenario',
    JSON.stringify({
      state: { scenario: { version: 1, producer: { acks: 7 } }, prefs: {} },
      version: 1,
    }),
    'producer.acks',
  ],
] as const) {
  test(`a saved workspace with ${what} is set aside with a notice; the app works`, async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('./');
    await ready(page);
    await page.evaluate(([k, v]) => localStorage.setItem(k, v), [WORKSPACE_KEY, stored] as const);
    await page.reload();
    await ready(page);
    const notice = page.getByTestId(testIds.notice);
    await expect(notice).toContainText('Your saved workspace could not be restored');
    await expect(notice).toContainText(says);
    await expect(notice).toHaveAttribute('data-tone', 'warn');
    // Nothing lost: the stored text is kept aside, unchanged.
    const aside = await page.evaluate((k) => localStorage.getItem(k), SET_ASIDE_KEY);
    expect(JSON.parse(aside!).raw).toBe(stored);
    // The app works: the default preset plays (once its question is skipped: Play waits for it,
    // issue 24), and the notice goes when dismissed.
    await page.getByTestId(testIds.outcomeShow).filter({ visible: true }).first().click();
    await page.getByTestId(testIds.play).click();
    await expect(page.getByTestId(testIds.play)).toHaveAttribute('aria-pressed', 'true');
    await page.getByTestId(testIds.noticeDismiss).click();
    await expect(notice).toHaveCount(0);
    expect(errors).toEqual([]);
  });
}

test('a workspace saved by a newer format stays where it was (that version opens it); edits go aside', async ({
  dash,
}) => {
  const { page } = dash;
  const newer = JSON.stringify({ state: {}, version: 99 });
  await page.evaluate(([k, v]) => localStorage.setItem(k, v), [WORKSPACE_KEY, newer] as const);
  await page.reload();
  await ready(page);
  const notice = page.getByTestId(testIds.notice);
  await expect(notice).toContainText('saved by a newer Delivery Lab');
  await expect(notice).toContainText('so that the newer version opens it');
  await dash.pickPreset('at-most-once');
  const mine = await dash.api('scenario');
  await expect
    .poll(async () => JSON.parse((await stored(page, PENDING_KEY)) ?? '{}').state?.scenario)
    .toEqual(mine);
  expect(await saved(page)).toBe(newer);
  expect(await stored(page, SET_ASIDE_KEY)).toBeNull();
  expect(dash.errors).toEqual([]);
});

test('a saved workspace with no room to copy it aside (4.5 MB of invalid JSON) is never written over; Export downloads it, Discard resumes autosave', async ({
  dash,
}) => {
  test.setTimeout(120_000);
  const { page } = dash;
  // 4.5 million characters: the page's own notice says whether a copy fits (it does not in
  // Chromium, whose localStorage holds at most 10 MiB per origin).
  const SIZE = 4_500_000;
  const sameAsPut = (key: string) =>
    page.evaluate(([k, n]) => localStorage.getItem(k) === `{"state":${'x'.repeat(n - 9)}`, [
      key,
      SIZE,
    ] as const);
  await page.evaluate(([k, n]) => localStorage.setItem(k, `{"state":${'x'.repeat(n - 9)}`), [
    WORKSPACE_KEY,
    SIZE,
  ] as const);
  await page.reload();
  await ready(page);
  const notice = page.getByTestId(testIds.notice);
  await expect(notice).toContainText('it is not valid JSON');
  await expect(notice).toContainText(
    "There is no room in this browser's storage to copy it aside, so it stays where it was, untouched: autosave will not write over it.",
  );
  await expect(notice).toContainText('your edits are saved separately');
  await expect(notice).toHaveAttribute('data-tone', 'warn');

  // An edit: saved aside; the stored bytes are unchanged (4.5 MB, not the 5 KB workspace).
  await dash.pickPreset('at-most-once');
  const mine = await dash.api('scenario');
  await expect
    .poll(async () => JSON.parse((await stored(page, PENDING_KEY)) ?? '{}').state?.scenario)
    .toEqual(mine);
  expect(await sameAsPut(WORKSPACE_KEY)).toBe(true);

  // A reload: the notice again, the edit back, the stored bytes still unchanged.
  await page.reload();
  await ready(page);
  await expect(notice).toContainText('Your edits made since were restored.');
  expect(await dash.api('scenario')).toEqual(mine);
  expect(await sameAsPut(WORKSPACE_KEY)).toBe(true);

  // Export: a download of the stored bytes as they were; the notice stays (Discard still to do).
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    notice.getByRole('button', { name: 'Export the saved workspace as a file' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(KEPT_FILE_NAME);
  const file = await readFile((await download.path())!, 'utf8');
  expect(file.length).toBe(SIZE);
  expect(file).toBe(`{"state":${'x'.repeat(SIZE - 9)}`);
  await expect(notice).toHaveCount(1);
  expect(await sameAsPut(WORKSPACE_KEY)).toBe(true);

  // Discard: the stored bytes go, the edits move back to the workspace key at once, and
  // autosave works again.
  await notice.getByRole('button', { name: 'Discard the saved workspace' }).click();
  await expect(notice).toHaveCount(0);
  expect(JSON.parse((await saved(page))!).state.scenario).toEqual(mine);
  expect(await stored(page, PENDING_KEY)).toBeNull();
  await dash.byId(testIds.fontLarger).click();
  await expect
    .poll(async () => JSON.parse((await saved(page)) ?? '{}').state?.prefs?.fontStep)
    .toBe(2);
  await page.reload();
  await ready(page);
  await expect(notice).toHaveCount(0);
  expect(await dash.api('scenario')).toEqual(mine);
  expect(dash.errors).toEqual([]);
});

test('a refused edit survives a reload: shown again with its reasons, Undo brings the last valid scenario back', async ({
  dash,
}) => {
  const { page } = dash;
  await dash.pickPreset('at-least-once');
  const valid = await page.evaluate(() => ({
    scenario: window.__deliveryLab!.scenario(),
    hash: window.__deliveryLab!.traceHash(),
  }));
  const scenario = valid.scenario as ScenarioInput;
  const refused = { ...scenario, producer: { ...scenario.producer, acks: 7 } };
  await page.evaluate((s) => window.__deliveryLab!.load(s), refused as unknown as ScenarioInput);
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'invalid');
  await expect
    .poll(async () => JSON.parse((await saved(page)) ?? 'null')?.state?.refused)
    .toEqual(refused);
  await page.reload();
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'invalid');
  expect(await page.evaluate(() => window.__deliveryLab!.scenario())).toEqual(refused);
  const alert = page.getByRole('alert').filter({ hasText: 'This scenario is refused' });
  await expect(alert).toContainText('the panels show the last valid run');
  await expect(alert).toContainText('producer.acks');
  // A link to a refused scenario could not be opened: Share and Embed wait for a fix or an Undo.
  await expect(dash.byId(testIds.shareButton)).toBeDisabled();
  await expect(dash.byId(testIds.embedButton)).toBeDisabled();
  await expect(page.getByText('could not be restored')).toHaveCount(0);
  await page.keyboard.press('Control+z');
  await ready(page);
  await expect(dash.byId(testIds.shareButton)).toBeEnabled();
  expect(
    await page.evaluate(() => ({
      scenario: window.__deliveryLab!.scenario(),
      hash: window.__deliveryLab!.traceHash(),
    })),
  ).toEqual(valid);
  expect(dash.errors).toEqual([]);
});

test('a share link or ?preset= wins over the workspace, and Undo brings the workspace back', async ({
  dash,
}) => {
  // Five page loads and two runs: over 30 s on a loaded machine.
  test.setTimeout(120_000);
  const { page } = dash;
  await dash.pickPreset('at-most-once');
  await dash.fault('consumer-0', 'crash-before-commit');
  const mine = await dash.api('scenario');
  await expect
    .poll(async () => JSON.parse((await saved(page)) ?? '{}').state?.scenario)
    .toEqual(mine);
  await page.goto('./?preset=effectively-once');
  await ready(page);
  await expect(page.getByTestId(testIds.scenarioPicker)).toHaveValue('effectively-once/default');
  await expect(page.getByTestId(testIds.runStatus)).toContainText('Undo (Ctrl+Z) brings back');
  await page.getByTestId(testIds.undo).click();
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  expect(await page.evaluate(() => window.__deliveryLab!.scenario())).toEqual(mine);

  // The same with a share link (of another scenario), and an unknown preset is said so.
  const { encodeShare } = await import('../src/platform/share');
  const other = {
    version: 1,
    name: 'from a link',
    workload: { generate: { count: 3 } },
  } as ScenarioInput;
  await page.goto(`./?preset=no-such-preset#${encodeShare(other)}`);
  await ready(page);
  expect(await page.evaluate(() => window.__deliveryLab!.scenario())).toEqual(other);
  await page.getByTestId(testIds.undo).click();
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  expect(await page.evaluate(() => window.__deliveryLab!.scenario())).toEqual(mine);
  await page.goto('./?preset=no-such-preset');
  await ready(page);
  await expect(page.getByTestId(testIds.notice)).toContainText('no-such-preset');
  expect(await page.evaluate(() => window.__deliveryLab!.scenario())).toEqual(mine);
});

test('an embedded player neither reads nor writes the workspace', async ({ dash }) => {
  const { page } = dash;
  await dash.pickPreset('at-most-once');
  await dash.fault('consumer-0', 'crash-before-commit');
  const mine = await dash.api('scenario');
  // Wait for the autosave of the last edit (it comes a moment after).
  await expect
    .poll(async () => JSON.parse((await saved(page)) ?? '{}').state?.scenario)
    .toEqual(mine);
  const before = await saved(page);
  await page.goto('./?embed&preset=at-least-once');
  await ready(page);
  // The embed shows its own scenario, not the saved one…
  // (Its title: the verdict that names the guarantee is folded until the run's end.)
  await expect(page.getByTestId(testIds.embedPlayer)).toContainText(
    'At-least-once: retry everything',
  );
  // …and an edit in it is not saved over the reader's workspace.
  await page.getByRole('radiogroup', { name: 'Guarantee' }).getByText('Exactly-once').click();
  await page.waitForTimeout(800);
  await page.goto('about:blank');
  await page.goto('./');
  await ready(page);
  expect(await saved(page)).toBe(before);
});
