/**
 * The "Fault atlas" section of the Markdown report, when the atlas was run on the page: which
 * kinds it explored and whether pairs too (the page's choice, src/views/atlas/atlasChoice.ts), and
 * the CLI command that runs the same atlas (`sim --explore`, docs/cli.md); and, when the page
 * still holds the finished atlas of the scenario reported, what it found (./atlasFindings.ts: the
 * same on every machine). How long it took is left out: that is one machine's.
 */
import { DEFAULT_HEADING_LEVEL, heading, type HeadingLevel } from '../io/markdown';
import type { AtlasChoice } from './atlasChoice';
import { ATLAS_KINDS, BATCH_ATLAS_KINDS, kindsTicked } from './atlasKinds';
import { survivalPin, type AtlasFindings } from './atlasFindings';

/**
 * The section, ending with a newline, or null when the atlas was not run on this choice.
 * @param batch - the scenario is a batch job (its atlas has the batch kinds).
 * @param level - the report's title level (the section is one below).
 * @param found - what the finished atlas of this choice found, when the page holds it
 *   (./atlasFindings.ts `findingsOf`).
 */
export function atlasMarkdown(
  choice: AtlasChoice,
  batch: boolean,
  level: HeadingLevel = DEFAULT_HEADING_LEVEL,
  found?: AtlasFindings,
): string | null {
  if (!choice.explored) return null;
  const options = batch ? BATCH_ATLAS_KINDS : ATLAS_KINDS;
  const ticked = kindsTicked(options, choice);
  const all = ticked.length === options.length;
  const words = options.filter((o) => ticked.includes(o.kind)).map((o) => o.words);
  const what = choice.pairs ? 'every pair of faults' : 'every single fault';
  const kinds = all
    ? `of every kind (${words.join(', ')})`
    : ticked.length === 0
      ? 'of no kind'
      : `of ${ticked.length} of ${options.length} kinds: ${words.join(', ')}`;
  const command = [
    'sim <scenario> --explore',
    ...(choice.pairs ? ['--depth 2'] : []),
    ...(all ? [] : [`--kinds ${ticked.join(',')}`]),
  ].join(' ');
  return `${[
    heading(level, 1, 'Fault atlas'),
    '',
    `Explored on the page: ${what} ${kinds}.`,
    '',
    ...(found ? foundLines(found) : []),
    `The same atlas from the command line: \`${command}\`.`,
  ].join('\n')}\n`;
}

/**
 * What it found: the summary, the earliest break and the faults it adds (JSON); or, when the
 * claim survives every fault tried, the `expect` block that pins it for `delivery-lab check`
 * (docs/format.md#the-fault-atlas-in-expect).
 */
function foundLines(f: AtlasFindings): string[] {
  const c = f.counterexample;
  const pin = survivalPin(f);
  return [
    `What it found: ${f.summary}`,
    '',
    ...(pin
      ? [
          "To pin it in docs CI (`delivery-lab check` runs this atlas again), the scenario's `expect` holds:",
          '',
          '```json',
          JSON.stringify({ atlas: pin }),
          '```',
          '',
        ]
      : []),
    ...(c
      ? [
          `The earliest, simplest break: ${c.words}.`,
          '',
          ...(c.faults
            ? [
                "Its faults, to add to the scenario's `faults`:",
                '',
                '```json',
                JSON.stringify(c.faults, null, 2),
                '```',
                '',
              ]
            : []),
        ]
      : []),
  ];
}
