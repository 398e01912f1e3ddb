/**
 * The autosaved workspace against the built page: edits and preferences survive a reload; a
 * corrupt or incompatible saved state is set aside with a notice and the app works; an embedded
 * player never touches the reader's workspace.
 */
import type { Page } from '@playwright/test';
import { SET_ASIDE_KEY, WORKSPACE_KEY } from '../src/platform/storage';
import type { ScenarioInput } from '../src/engine';
import { expect, test, testIds } from './fixtures';

const saved = (page: Page) => page.evaluate((k) => localStorage.getItem(k), WORKSPACE_KEY);

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
  ['a newer format', JSON.stringify({ state: {}, version: 99 }), 'saved by a newer Delivery Lab'],
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
    // The app works: the default preset plays, and the notice goes when dismissed.
    await page.getByTestId(testIds.play).click();
    await expect(page.getByTestId(testIds.play)).toHaveAttribute('aria-pressed', 'true');
    await page.getByTestId(testIds.noticeDismiss).click();
    await expect(notice).toHaveCount(0);
    expect(errors).toEqual([]);
  });
}

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
  await expect(page.getByTestId(testIds.embedPlayer)).toContainText('at-least-once');
  // …and an edit in it is not saved over the reader's workspace.
  await page.getByRole('radiogroup', { name: 'Guarantee' }).getByText('Exactly-once').click();
  await page.waitForTimeout(800);
  await page.goto('about:blank');
  await page.goto('./');
  await ready(page);
  expect(await saved(page)).toBe(before);
});
