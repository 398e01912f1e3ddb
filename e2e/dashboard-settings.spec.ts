/**
 * The dashboard's settings against the built page: the knobs, the guarantee switch, the seed and
 * the number fields — what a change applies, what is refused and why, and the undo steps. Exact
 * counts are derived by hand from the foundation presets (src/scenarios/foundation.ts; see each
 * comment and the summary in dashboard.spec.ts).
 */
import { expect, test, testIds } from './fixtures';

test('knobs: real names, a tooltip with the default and the doc, and a change turns the badge to own settings', async ({
  dash,
}) => {
  const { page } = dash;
  await dash.pickPreset('at-least-once');
  await expect(dash.byId(testIds.guaranteeLabel)).toHaveText('✓ recipe');
  await page.getByRole('tab', { name: 'Knobs' }).click();
  const knob = dash.byId(testIds.knobs).locator('[data-knob="sink.statement"]');
  await knob.getByRole('button', { name: 'About statement' }).click();
  await expect(knob.locator('.knob-help')).toContainText('ON CONFLICT');
  await expect(knob.getByRole('link', { name: /Official documentation/ })).toHaveAttribute(
    'href',
    /postgresql\.org/,
  );
  const idem = dash.byId(testIds.knobs).locator('[data-knob="producer.enable.idempotence"]');
  await idem.getByRole('button', { name: 'About enable.idempotence' }).click();
  await expect(idem.locator('.knob-help')).toContainText('real default');
  await expect(idem.getByRole('link')).toHaveAttribute(
    'href',
    /producerconfigs_enable\.idempotence/,
  );

  // An upsert on the payment id: the knobs leave the at-least-once recipe (the claim stays) and
  // the duplicates of the replay vanish.
  await knob.getByRole('combobox').selectOption('on-conflict-do-update');
  await dash.settled();
  await expect(dash.byId(testIds.guaranteeLabel)).toHaveText('✎ own settings');
  await expect(
    dash.byId(testIds.guaranteeSwitch).getByRole('radio', { name: 'At-least-once' }),
  ).toBeChecked();
  await dash.toEnd();
  // The upsert absorbs both the producer's second p-4 and the replayed p-5..p-7 (same key).
  expect((await dash.shown()).duplicates).toBe(0);
  // "What this sets" lists the at-least-once knobs and flags the changed one.
  await page.getByRole('tab', { name: 'What this sets' }).click();
  await expect(
    dash.byId(testIds.whatThisSets).locator('[data-knob="sink.statement"]'),
  ).toHaveAttribute('data-same', 'false');
});

test('the switch shows the claim the verdict checks; choosing it again applies its recipe', async ({
  dash,
}) => {
  // Claims exactly-once with a plain INSERT sink — at-least-once's recipe, not exactly-once's.
  await dash.pickPreset('flink-checkpoint-replay/plain-sink');
  const switcher = dash.byId(testIds.guaranteeSwitch);
  const eo = switcher.getByRole('radio', { name: 'Exactly-once' });
  await expect(eo).toBeChecked();
  await expect(switcher.getByRole('radio', { checked: true })).toHaveCount(1);
  const badge = dash.byId(testIds.guaranteeLabel);
  await expect(badge).toHaveText('✎ own settings');
  await expect(badge).toHaveAttribute(
    'title',
    /^1 knob differs from the exactly-once recipe here \(statement\)\. The verdict checks exactly-once/,
  );
  await expect(eo).toHaveAccessibleDescription(
    '1 knob differs from the exactly-once recipe here (statement): choose Exactly-once again to apply the recipe',
  );
  await dash.showOutcome();
  await expect(dash.byId(testIds.verdict)).toContainText('claimed exactly-once');

  // Choosing it again applies the exactly-once recipe (an upsert): the claim stays.
  await dash.setGuarantee('Exactly-once');
  await expect(badge).toHaveText('✓ recipe');
  await expect(eo).toBeChecked();
  const scenario = (await dash.api('scenario')) as {
    claim?: string;
    sink?: { statement?: string };
  };
  expect(scenario.claim).toBe('exactly-once');
  expect(scenario.sink?.statement).toBe('on-conflict-do-update');
  // And once more: the knobs follow the recipe, nothing to apply — no undo step either, so one
  // undo brings back the library preset's plain INSERT.
  await dash.setGuarantee('Exactly-once');
  await dash.byId(testIds.undo).click();
  await dash.settled();
  const undone = (await dash.api('scenario')) as { sink?: { statement?: string } };
  expect(undone.sink?.statement).toBeUndefined();
  await expect(badge).toHaveText('✎ own settings');

  // From the keyboard: Space on the chosen option applies its recipe (and does not play); once
  // the knobs follow it, Space plays, as everywhere.
  const play = dash.byId(testIds.play);
  await eo.focus();
  await dash.page.keyboard.press(' ');
  await expect(badge).toHaveText('✓ recipe');
  await expect(play).toHaveAttribute('aria-pressed', 'false');
  await dash.settled();
  await dash.page.keyboard.press(' ');
  await expect(play).toHaveAttribute('aria-pressed', 'true');
  expect(dash.errors).toEqual([]);
});

test('each guarantee click is an undo step of its own, and applies its recipe; an arrow-key walk is one step', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  // Claims exactly-once with knobs of its own (a plain INSERT).
  await page.goto('./?preset=payment-resent-by-app/plain-insert');
  await dash.settled();
  const switcher = dash.byId(testIds.guaranteeSwitch);
  const radio = (name: string) => switcher.getByRole('radio', { name });
  const badge = dash.byId(testIds.guaranteeLabel);
  const undo = dash.byId(testIds.undo);
  await expect(radio('Exactly-once')).toBeChecked();
  await expect(badge).toHaveText('✎ own settings');
  const shipped = await dash.api('scenario');

  await dash.setGuarantee('At-most-once');
  await dash.setGuarantee('At-least-once');
  await page.locator('h1').click();
  await page.keyboard.press('Control+z');
  await dash.settled();
  await expect(radio('At-most-once')).toBeChecked();
  await expect(undo).toBeEnabled();
  await page.keyboard.press('Control+z');
  await dash.settled();
  await expect(radio('Exactly-once')).toBeChecked();
  expect(await dash.api('scenario')).toEqual(shipped);

  // Clicked back to the preset's own guarantee: its recipe, as any choice (not the knobs it
  // shipped with; the switch's hint says "choose Exactly-once again to apply the recipe").
  await dash.setGuarantee('At-most-once');
  await dash.setGuarantee('Exactly-once');
  await expect(badge).toHaveText('✓ recipe');
  await undo.click();
  await dash.settled();
  await expect(radio('At-most-once')).toBeChecked();
  await undo.click();
  await dash.settled();
  expect(await dash.api('scenario')).toEqual(shipped);

  // The arrow keys walk the group, checking each option they pass: one step, and back on the
  // option the walk started from, the scenario as it was.
  await radio('Exactly-once').focus();
  await page.keyboard.press('ArrowLeft');
  await expect(radio('At-least-once')).toBeChecked();
  await page.keyboard.press('ArrowLeft');
  await expect(radio('At-most-once')).toBeChecked();
  await dash.settled();
  await undo.click();
  await dash.settled();
  expect(await dash.api('scenario')).toEqual(shipped);
  await expect(undo).toBeDisabled();
  await radio('Exactly-once').focus();
  await page.keyboard.press('ArrowLeft');
  await expect(radio('At-least-once')).toBeChecked();
  await page.keyboard.press('ArrowRight');
  await expect(radio('Exactly-once')).toBeChecked();
  await dash.settled();
  expect(await dash.api('scenario')).toEqual(shipped);
  await expect(badge).toHaveText('✎ own settings');
  expect(dash.errors).toEqual([]);
});

test('a guarantee the scenario’s fault cannot exist under is disabled, its reason shown', async ({
  dash,
}) => {
  // S08's crash waits for a checkpoint step (during-commit); at-most-once turns checkpointing off,
  // so that switch would be refused: the option is disabled and says why, instead.
  await dash.pickPreset('flink-commit-phase-crash/during-commit');
  const switcher = dash.byId(testIds.guaranteeSwitch);
  const amo = switcher.getByRole('radio', { name: 'At-most-once' });
  await expect(amo).toBeDisabled();
  const reason =
    'fault "TaskManager crash" crashes at a checkpoint step (during-commit), and at-most-once turns checkpointing off';
  await expect(amo).toHaveAccessibleDescription(`At-most-once is unavailable: ${reason}`);
  await expect(switcher.locator('label', { hasText: /^At-most-once$/ })).toHaveAttribute(
    'title',
    `At-most-once is unavailable: ${reason}`,
  );
  // A click on it changes nothing: the claim stays, the run is not refused.
  const claimOf = async () => ((await dash.api('scenario')) as { claim?: string }).claim;
  const claim = await claimOf();
  // (force: Playwright itself refuses to click the label of a disabled control; a user can.)
  await switcher.getByText('At-most-once', { exact: true }).click({ force: true });
  await dash.settled();
  expect(await claimOf()).toBe(claim);
  await expect(dash.byId(testIds.runStatus)).not.toHaveAttribute('data-status', 'invalid');
  await expect(switcher.getByRole('radio', { name: 'Exactly-once' })).toBeEnabled();
  expect(dash.errors).toEqual([]);
});

test('an invalid knob combination is refused with the field named, the last run kept', async ({
  dash,
}) => {
  const { page } = dash;
  await dash.pickPreset('at-least-once');
  await page.getByRole('tab', { name: 'Knobs' }).click();
  const acks = dash
    .byId(testIds.knobs)
    .locator('[data-knob="producer.acks"]')
    .getByRole('combobox');
  await acks.selectOption('0');
  await dash.settled();
  const idem = dash
    .byId(testIds.knobs)
    .locator('[data-knob="producer.enable.idempotence"]')
    .getByRole('combobox');
  await idem.selectOption('true');
  await expect(dash.byId(testIds.runStatus)).toHaveAttribute('data-status', 'invalid');
  await expect(dash.byId(testIds.issues)).toContainText('producer.acks');
  await expect(dash.byId(testIds.issues)).toContainText('ConfigException');
  // The panels still show a run.
  await expect(dash.byId(testIds.counters)).toContainText('rows in the sink');
  await page.locator('h1').click();
  await page.keyboard.press('Control+z');
  await expect(dash.byId(testIds.runStatus)).not.toHaveAttribute('data-status', 'invalid');
});

test.describe('the seed field', () => {
  test('an invalid seed is refused with the reason and the range; the run keeps its seed', async ({
    dash,
  }) => {
    await dash.settled();
    const seed = dash.byId(testIds.seedInput);
    const error = dash.byId(testIds.seedError);
    await expect(seed).toHaveValue('1');
    await expect(seed.locator('..')).toHaveAttribute('title', /every random choice/);
    const hash = await dash.api('traceHash');

    const cases: [string, string][] = [
      ['', 'the seed is empty'],
      ['abc', '“abc” is not a number'],
      ['-1', '“-1” is negative'],
      ['1.5', '“1.5” is not a whole number'],
      ['4294967296', '“4294967296” is more than 4,294,967,295'],
    ];
    for (const [typed, reason] of cases) {
      await seed.fill(typed);
      await seed.press('Enter');
      await expect(error).toHaveText(
        `Not a seed: ${reason}. A seed is a whole number from 0 to 4,294,967,295; the run keeps seed 1.`,
      );
      await expect(seed).toHaveAttribute('aria-invalid', 'true');
      await expect(seed).toHaveValue(typed);
      await dash.settled();
      expect(await dash.api('traceHash')).toBe(hash);
      expect(await dash.api('scenario')).toMatchObject({ seed: 1 });
    }

    // Escape puts the run's seed back; a valid seed clears the error and runs.
    await seed.press('Escape');
    await expect(seed).toHaveValue('1');
    await expect(error).toHaveCount(0);
    await seed.fill('4294967295');
    await seed.press('Enter');
    await dash.settled();
    await expect(error).toHaveCount(0);
    expect(await dash.api('scenario')).toMatchObject({ seed: 4294967295 });
    await expect(dash.byId(testIds.seedInput)).toHaveValue('4294967295');
  });
});

test.describe('number fields refuse what the schema refuses, and always show the scenario', () => {
  test('a refused knob combination, undone, shows the value the run uses again', async ({
    dash,
  }) => {
    const { page } = dash;
    await dash.pickPreset('at-least-once');
    await page.getByRole('tab', { name: 'Knobs' }).click();
    const knobs = dash.byId(testIds.knobs);
    const idem = knobs.locator('[data-knob="producer.enable.idempotence"]').getByRole('combobox');
    const inFlight = knobs
      .locator('[data-knob="producer.max.in.flight.requests.per.connection"]')
      .getByRole('textbox');
    const before = await inFlight.inputValue();
    const idemBefore = await idem.inputValue();
    expect(idemBefore).not.toBe('true');
    await idem.selectOption('true');
    await dash.settled();
    await inFlight.fill('10');
    await inFlight.press('Tab');
    await expect(dash.byId(testIds.runStatus)).toHaveAttribute('data-status', 'invalid');
    await expect(dash.byId(testIds.issues)).toContainText(
      'must be set to at most 5. Current value is 10.',
    );
    await expect(inFlight).toHaveValue('10');

    // Undo the refused edit: the field shows the value the scenario has again.
    await page.locator('h1').click();
    await page.keyboard.press('Control+z');
    await expect(dash.byId(testIds.runStatus)).not.toHaveAttribute('data-status', 'invalid');
    await expect(inFlight).toHaveValue(before);
    // Undo idempotence too: still the scenario's value, and redo brings the refused one back.
    await page.keyboard.press('Control+z');
    await dash.settled();
    await expect(idem).toHaveValue(idemBefore);
    await expect(inFlight).toHaveValue(before);
    await page.keyboard.press('Control+Shift+z');
    await page.keyboard.press('Control+Shift+z');
    await expect(inFlight).toHaveValue('10');
    await expect(dash.byId(testIds.runStatus)).toHaveAttribute('data-status', 'invalid');
  });

  test('a number knob outside its schema range is refused beside the field, not applied', async ({
    dash,
  }) => {
    const { page } = dash;
    await dash.pickPreset('at-least-once');
    await page.getByRole('tab', { name: 'Knobs' }).click();
    const row = dash.byId(testIds.knobs).locator('[data-knob="producer.retries"]');
    const retries = row.getByRole('textbox');
    const error = row.getByTestId(testIds.knobError);
    const before = ((await dash.api('scenario')) as { producer?: Record<string, unknown> }).producer
      ?.retries;
    const shown = await retries.inputValue();
    const hash = await dash.api('traceHash');
    const cases: [string, string][] = [
      ['-1', '“-1” is negative'],
      ['2.5', '“2.5” is not a whole number'],
      ['2147483648', '“2147483648” is more than 2,147,483,647'],
    ];
    for (const [typed, reason] of cases) {
      await retries.fill(typed);
      await retries.press('Enter');
      await expect(error).toHaveText(
        `Not applied: ${reason}. retries is a whole number from 0 to 2,147,483,647; the run keeps ${Number(shown).toLocaleString('en-US')}.`,
      );
      await expect(retries).toHaveAttribute('aria-invalid', 'true');
      await expect(retries).toHaveValue(typed);
      await dash.settled();
      expect(await dash.api('traceHash')).toBe(hash);
      expect(
        ((await dash.api('scenario')) as { producer?: Record<string, unknown> }).producer?.retries,
      ).toBe(before);
    }
    await expect(dash.byId(testIds.runStatus)).not.toHaveAttribute('data-status', 'invalid');
    // A valid value clears the error and is applied as typed.
    await retries.fill('3');
    await retries.press('Enter');
    await dash.settled();
    await expect(error).toHaveCount(0);
    expect(
      ((await dash.api('scenario')) as { producer?: Record<string, unknown> }).producer?.retries,
    ).toBe(3);
  });

  test('an armed-from time beyond the schema’s limit is refused in the fault editor', async ({
    dash,
  }) => {
    await dash.pickPreset('at-least-once');
    // Play and the run's end wait for the preset's question (issue 24): skipped first.
    await dash.skipQuestion();
    await dash.toEnd();
    const markers = await dash.byId(testIds.faultMarker).count();
    expect(markers).toBeGreaterThan(0);
    await dash.byId(testIds.faultMarker).first().click();
    const at = dash.byId(testIds.faultAt);
    const before = await at.inputValue();
    const faults = JSON.stringify(((await dash.api('scenario')) as { faults?: unknown[] }).faults);
    await at.fill('99999999999');
    await at.press('Enter');
    await expect(dash.byId(testIds.faultAtError)).toHaveText(
      'Not applied: armed from must be between 0 ms and 7 days (604,800,000 ms), a whole number: “99999999999” is more than 604,800,000.',
    );
    await expect(at).toHaveAttribute('aria-invalid', 'true');
    await expect(dash.byId(testIds.faultDetails)).toBeVisible();
    await expect(dash.byId(testIds.faultMarker)).toHaveCount(markers);
    await dash.settled();
    await expect(dash.byId(testIds.runStatus)).not.toHaveAttribute('data-status', 'invalid');
    expect(JSON.stringify(((await dash.api('scenario')) as { faults?: unknown[] }).faults)).toBe(
      faults,
    );
    // Escape puts the fault's time back.
    await at.press('Escape');
    await expect(at).toHaveValue(before);
    await expect(dash.byId(testIds.faultAtError)).toHaveCount(0);
  });
});
