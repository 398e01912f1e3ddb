/**
 * A setting's name on a stage card in projector mode (issue 24): `transactional.id` breaks before
 * its dot or not at all — never at a syllable ("transaction-" / "al.id", cardWords' soft hyphens)
 * and never unhyphenated inside "transactional" (present.spec's rule for the page's column). The
 * page's projector column (aborted-transaction-dirty-read, asked and answered) and the lesson
 * view without a room, at 1280×720 and at 1920×1080; with a room live: e2e/lessonRoom.spec.ts.
 * Before: the producer's card had 109 px for the word's 117.7 on the page, 117 in the lesson view.
 * The value beside it, enable.idempotence's "on (transactional)", breaks at its space only (it
 * broke "on (trans-" / "actional)"); at 1280×720 its "(transactional)" is folded (127 px in 120).
 */
import { expect, test, type Page } from '@playwright/test';
import { testIds } from '../src/ui/testIds';
import { lessonTestIds } from '../src/ui/lesson/lessonTestIds';
import {
  brokenWords,
  textLines,
  TRANSACTIONAL,
  TRANSACTIONAL_ID_LABEL,
} from './support/brokenWords';

/**
 * The producer's idempotence value, "on (transactional)": on one line, or broken at its space —
 * at 1920×1080; at 1280×720 (under 1600 px) its "(transactional)" is folded (settingName.css:
 * 127 px in 120), the value "on" and transactional.id's line in sight.
 */
async function expectValueWhole(page: Page, where: string, narrow: boolean) {
  const value = '.pipeline .stage[aria-label="Producer"] dd:has(.setting-why)';
  await expect(page.locator(value), where).toHaveText('on (transactional)');
  if (narrow) {
    await expect(page.locator(`${value} .setting-why`), where).toBeHidden();
    await expect(page.locator(TRANSACTIONAL_ID_LABEL, { hasText: /^trans/ }), where).toBeVisible();
    return;
  }
  const lines = (await textLines(page, value)).map((l) => l.trim()).filter((l) => l !== '');
  expect(
    [['on (transactional)'], ['on', '(transactional)']],
    `${where}: ${lines.join(' | ')}`,
  ).toContainEqual(lines);
}

/** The label's words split across lines: none, and the label is the one setting's name. */
async function expectWhole(page: Page, where: string) {
  const label = page.locator(TRANSACTIONAL_ID_LABEL, { hasText: /^trans/ });
  await expect(label, where).toHaveCount(1);
  // Its text is the setting's name (the soft hyphens aside): no other label matched.
  expect((await label.textContent())!.replace(/\u00ad/g, ''), where).toBe('transactional.id');
  expect(await brokenWords(page, TRANSACTIONAL_ID_LABEL, TRANSACTIONAL), where).toEqual([]);
}

for (const [W, H] of [
  [1280, 720],
  [1920, 1080],
] as const) {
  test(`at ${W}×${H} the page's projector column: transactional.id never breaks at a syllable, its idempotence at its space only, asked and answered`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: W, height: H });
    await page.clock.install();
    // The bare id, as a teacher's link writes it, opens the variant its question is about,
    // read-uncommitted (src/scenarios/defaultVariant.ts), and asks: it opened read-committed,
    // its first, where the box said "This question is about the “read_uncommitted” variant.
    // Open it" and offered no answer (nor "Show the answer", below).
    await page.goto('./?present=1&preset=aborted-transaction-dirty-read');
    await expect(page.getByTestId(testIds.app)).toHaveAttribute('data-present', 'true');
    await expect(page.getByTestId(testIds.storyPanel)).toHaveAttribute(
      'data-variant',
      'read-uncommitted',
    );
    await expect(page).toHaveURL(/[?&]preset=aborted-transaction-dirty-read\/read-uncommitted/);
    await expect(page.getByTestId(testIds.predictAbout)).toHaveCount(0);
    await expect(page.locator('.pipeline .stage[aria-label="Producer"]')).toBeVisible();
    await expectWhole(page, 'asked');
    await expectValueWhole(page, 'asked', W < 1600);
    // Answered: the story beside the pipeline, the columns at their narrowest.
    await page.getByTestId(testIds.predictReveal).click();
    await expect(page.locator('.story')).toHaveAttribute('data-asking', 'false');
    await expectWhole(page, 'answered');
    await expectValueWhole(page, 'answered', W < 1600);
  });

  test(`at ${W}×${H} the lesson view without a room: transactional.id never breaks at a syllable`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: W, height: H });
    await page.clock.install();
    await page.goto('./?lesson=exactly-once-flink-spark&step=7');
    const view = page.getByTestId(lessonTestIds.presenter);
    await expect(view).toHaveAttribute('data-step', '7');
    await expect(page.locator('.pipeline .stage[aria-label="Producer"]')).toBeVisible();
    await expectWhole(page, 'asked');
    await page.keyboard.press('r');
    await expect(view).toHaveAttribute('data-revealed', 'true');
    await expectWhole(page, 'revealed');
  });
}
