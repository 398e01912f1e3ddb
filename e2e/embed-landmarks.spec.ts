/**
 * Several players on one docs page (e2e/embed-host.mjs /docs.html: five embeds by the loader, on
 * another origin than the lab): axe's landmark-unique over the page and its frames. Each frame's
 * regions were named alike (Playback, Counters, Pipeline, Producer, … and the batch job's), and
 * axe reported 12 landmarks a screen reader would list twice; each is now named after its
 * player's caption too (src/ui/landmarkName.ts).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';
import { HOST, SHOWN_PLAYER } from './embedTesting';

test('five embeds on one page: every landmark has a name of its own (axe landmark-unique)', async ({
  page,
}) => {
  await page.goto(`${HOST}/docs.html`);
  const frames = await page.locator('delivery-lab-embed iframe').all();
  expect(frames).toHaveLength(5);
  for (const f of frames) {
    const frame = (await (await f.elementHandle())!.contentFrame())!;
    await expect(frame.locator(SHOWN_PLAYER).first()).toBeVisible({ timeout: 30_000 });
  }
  // The frame captioned "700": its regions carry the caption after their own name.
  const first = (await (await frames[0]!.elementHandle())!.contentFrame())!;
  for (const name of ['Producer 700', 'Sink 700', 'Playback 700', 'Pipeline 700'])
    await expect(
      first
        .getByRole('region', { name, exact: true })
        .or(first.getByRole('main', { name, exact: true })),
    ).toHaveCount(1);
  // Cross-origin frames: axe in each frame, its results put together in the page (not legacy).
  const axe = await new AxeBuilder({ page }).withRules(['landmark-unique']).analyze();
  expect(axe.violations.flatMap((v) => v.nodes.map((n) => n.target.join(' ')))).toEqual([]);
});
