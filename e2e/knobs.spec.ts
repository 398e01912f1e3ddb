/**
 * Knobs against the built page that the unit tests cannot show end to end: a nullable number
 * (Flink's checkpoint interval) ticked off stays off across a reload of the autosaved workspace
 * and comes back on with a number; the XA table sink's switch sets statement retries 0 in the same
 * edit (Flink refuses more, FLINK-22311); a refused knob's row says why.
 */
import { readFile } from 'node:fs/promises';
import { WORKSPACE_KEY } from '../src/platform/storage';
import { expect, test, testIds } from './fixtures';

test('Flink knobs: checkpointing "off" stays ticked, also after a reload, and unticks back on; XA sets statement retries 0', async ({
  dash,
}) => {
  const { page } = dash;
  const P = 'processor.execution.checkpointing.interval';
  const written = async (key: 'processor' | 'sink') =>
    ((await dash.api('scenario')) as Record<string, Record<string, unknown> | undefined>)[key];
  await dash.pickPreset('flink-checkpoint-replay/plain-sink');
  await page.getByRole('tab', { name: 'Knobs' }).click();
  const interval = dash.byId(testIds.knobs).locator(`[data-knob="${P}"]`);
  const off = interval.getByRole('checkbox');
  const field = interval.getByRole('textbox');
  await expect(off).not.toBeChecked();
  await expect(field).toHaveValue('1000');
  const hash = await dash.api('traceHash');

  await off.click();
  await dash.settled();
  await expect(off).toBeChecked();
  await expect(field).toHaveValue('');
  await expect(field).toBeDisabled();
  expect((await written('processor'))?.['execution.checkpointing.interval']).toBeNull();
  expect(await dash.api('traceHash')).not.toBe(hash);

  // The autosaved workspace has it off: after a reload the box is still ticked.
  await expect
    .poll(() =>
      page.evaluate(
        (k) =>
          JSON.parse(localStorage.getItem(k) ?? 'null')?.state?.scenario?.processor?.[
            'execution.checkpointing.interval'
          ],
        WORKSPACE_KEY,
      ),
    )
    .toBeNull();
  await dash.reload();
  await page.getByRole('tab', { name: 'Knobs' }).click();
  await expect(off).toBeChecked();
  await expect(field).toHaveValue('');

  // Unticked: checkpoints every 1000 ms again (the number it had, or the fallback), the run as before.
  await off.click();
  await dash.settled();
  await expect(off).not.toBeChecked();
  await expect(field).toHaveValue('1000');
  await expect(field).toBeEnabled();
  await expect(dash.byId(testIds.runStatus)).toContainText(
    'Set execution.checkpointing.interval to 1000 ms — ',
  );
  expect(await dash.api('traceHash')).toBe(hash);

  // XA on a table sink with the default 3 statement retries: one edit sets retries 0 too.
  const retries = dash.byId(testIds.knobs).locator('[data-knob="sink.retries"]');
  await expect(retries.getByRole('textbox')).toHaveValue('3');
  await dash.byId(testIds.knobs).locator('[data-knob="sink.xa"]').getByRole('checkbox').click();
  await dash.settled();
  await expect(dash.byId(testIds.runStatus)).toHaveAttribute('data-status', 'ready');
  await expect(dash.byId(testIds.runStatus)).toContainText(
    'Set JdbcSink.exactlyOnceSink (XA) to true — and statement retries to 0, as Flink’s XA sink requires',
  );
  await expect(retries.getByRole('textbox')).toHaveValue('0');
  expect(await written('sink')).toMatchObject({ xa: true, retries: 0 });

  // Retries back to 2: refused, and the statement retries row says why.
  await retries.getByRole('textbox').fill('2');
  await retries.getByRole('textbox').press('Enter');
  await dash.settled();
  await expect(dash.byId(testIds.runStatus)).toHaveAttribute('data-status', 'invalid');
  await expect(retries.getByTestId(testIds.knobError)).toContainText(
    'Refused here: the JDBC exactly-once (XA) sink requires maxRetries equal to 0',
  );
  expect(dash.errors).toEqual([]);
});

// The sink's key as a content tuple (Knobs tab, sink.key): the column checkboxes sat in the
// select's 14em column, which cannot hold both, so they overflowed under the ⓘ button of the row
// ("use", "iten" at 1280×720). Each one is whole and clear of the button now.
test('a content-tuple key: every column checkbox is whole, clear of the row’s ⓘ button', async ({
  dash,
}) => {
  const { page } = dash;
  await page.setViewportSize({ width: 1280, height: 720 });
  await dash.pickPreset('commit-after-process/on-conflict-do-nothing');
  await dash.skipQuestion();
  await page.getByRole('tab', { name: 'Knobs' }).click();
  const row = dash.byId(testIds.knobs).locator('[data-knob="sink.key"]');
  await row.getByRole('combobox').selectOption('content-tuple');
  await dash.settled();
  const group = row.getByRole('group', { name: 'key column: content columns' });
  await group.scrollIntoViewIfNeeded();
  const about = (await row.getByRole('button', { name: 'About key column' }).boundingBox())!;
  const labels = group.locator('label');
  expect(await labels.count()).toBeGreaterThan(1);
  for (const label of await labels.all()) {
    const box = (await label.boundingBox())!;
    // Whole: its text is not cut (nothing scrolls inside it), and it ends before the button.
    expect(await label.evaluate((l) => l.scrollWidth <= l.clientWidth + 1)).toBe(true);
    const overlaps =
      box.x < about.x + about.width &&
      about.x < box.x + box.width &&
      box.y < about.y + about.height &&
      about.y < box.y + box.height;
    expect(overlaps, `${await label.innerText()} under the ⓘ button`).toBe(false);
    expect(box.x + box.width).toBeLessThanOrEqual(about.x);
  }
  expect(dash.errors).toEqual([]);
});

// A knob's name is one long word (execution.checkpointing.tolerable-failed-checkpoints): it ran
// past its column under the field at 1280×720 ("…tolerable-fa", "…per.connectio"). It wraps before
// a dot now, as names in prose do (Breakable), and anywhere as a last resort.
test('every knob’s name is whole in its column, none under its field', async ({ dash }) => {
  const { page } = dash;
  await page.setViewportSize({ width: 1280, height: 720 });
  await dash.pickPreset('flink-dedupe-ttl/ttl-2s');
  await dash.skipQuestion();
  await page.getByRole('tab', { name: 'Knobs' }).click();
  const cut = await dash.byId(testIds.knobs).evaluate((knobs) =>
    [...knobs.querySelectorAll<HTMLElement>('.knob-row')].flatMap((row) => {
      const label = row.querySelector<HTMLElement>(':scope > label');
      const control = label?.nextElementSibling;
      if (!label || !control) return [];
      const overflows = label.scrollWidth > label.clientWidth + 1;
      const under = label.getBoundingClientRect().right > control.getBoundingClientRect().left + 1;
      return overflows || under ? [row.dataset.knob] : [];
    }),
  );
  expect(cut).toEqual([]);
  expect(dash.errors).toEqual([]);
});

// A doc author's report: an edited preset kept the preset's title, so two files made from one
// preset downloaded under one name and read the same in every `delivery-lab check` line.
test('the scenario is renamed in the Knobs tab: its exported file carries the name; a blank one is refused; Ctrl+Z gives the old one back', async ({
  dash,
}) => {
  const { page } = dash;
  await dash.pickPreset('at-least-once');
  const shipped = ((await dash.api('scenario')) as { name: string }).name;
  await page.getByRole('tab', { name: 'Knobs' }).click();
  const field = dash.byId(testIds.scenarioName);
  await expect(field).toHaveValue(shipped);
  await expect(field).toHaveAccessibleName('Name');

  // Blank: refused beside the field, nothing renamed.
  await field.fill('   ');
  await field.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'Not renamed' })).toHaveText(
    'Not renamed: a scenario needs a name.',
  );
  expect(((await dash.api('scenario')) as { name: string }).name).toBe(shipped);

  await field.fill('Payments: acks=1 loses a record on failover');
  await field.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'Not renamed' })).toHaveCount(0);
  expect(((await dash.api('scenario')) as { name: string }).name).toBe(
    'Payments: acks=1 loses a record on failover',
  );
  await expect(dash.byId(testIds.storyEdited)).toBeVisible();
  await dash.byId(testIds.exportButton).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.locator(`[data-testid="${testIds.exportItem}"][data-format="scenario-json"]`).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^payments-acks-1-loses-a-record-on-failover/);
  const file = JSON.parse(await readFile((await download.path())!, 'utf8')) as { name: string };
  expect(file.name).toBe('Payments: acks=1 loses a record on failover');

  // The field shows the applied name: Ctrl+Z there undoes the page's rename.
  await field.focus();
  await page.keyboard.press('Control+z');
  await expect(field).toHaveValue(shipped);
});
