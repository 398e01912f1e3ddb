/**
 * The Markdown report names the fault atlas the page explored (issue #23, "the Markdown report
 * carries it"): its kinds and pairs, and the CLI command that runs the same atlas — for a stream
 * and a batch job; nothing when the atlas was not run, and no wall-clock figure ever.
 */
import { describe, expect, it, vi } from 'vitest';
import { findPreset } from '../../scenarios';
import { computeArtifact } from '../io/exportArtifact';
import { atlasMarkdown } from './atlasMarkdown';

// One run of a small preset each (well under 1 s alone); wide for a shared machine.
vi.setConfig({ testTimeout: 15_000 });

const report = (ref: string, opts: Parameters<typeof computeArtifact>[3] = {}) => {
  const r = computeArtifact(
    structuredClone(findPreset(ref)!.variant.scenario),
    'markdown',
    undefined,
    opts,
  );
  if (!r.ok) throw new Error(r.error);
  return r.artifact.text;
};

describe('the fault atlas in the Markdown report', () => {
  it('names the kinds and pairs explored, with the command that runs the same atlas', () => {
    expect(
      atlasMarkdown({ kinds: ['drop-response', 'crash'], pairs: true, explored: true }, false),
    ).toBe(
      [
        // The report's title is ## (DEFAULT_HEADING_LEVEL), its sections ###.
        '### Fault atlas',
        '',
        'Explored on the page: every pair of faults of 2 of 9 kinds: lost responses, crashes.',
        '',
        'The same atlas from the command line: `sim <scenario> --explore --depth 2 --kinds drop-response,crash`.',
        '',
      ].join('\n'),
    );
    // A report titled # (the CLI's --heading-level 1): sections ##.
    expect(atlasMarkdown({ explored: true }, true, 1)).toBe(
      [
        '## Fault atlas',
        '',
        'Explored on the page: every single fault of every kind (task crashes, clears and re-runs, late rows).',
        '',
        'The same atlas from the command line: `sim <scenario> --explore`.',
        '',
      ].join('\n'),
    );
    // Kinds ticked but never run: the report says nothing of an atlas.
    expect(atlasMarkdown({ kinds: ['crash'] }, false)).toBeNull();
  });

  it('says what the finished atlas found when the page holds it: summary, break, its faults', () => {
    const found = {
      input: {} as never,
      choice: {},
      summary:
        '2 placements: 1 held, 1 duplicate — the duplicate comes from a lost produce acknowledgement.',
      counterexample: {
        words: 'the produce acknowledgement at 99 ms lost (1 duplicated)',
        faults: [
          { kind: 'drop-response' as const, at: 99, link: 'produce' as const, match: { nth: 2 } },
        ],
      },
      survives: false,
    };
    expect(atlasMarkdown({ explored: true }, false, undefined, found)).toBe(
      [
        '### Fault atlas',
        '',
        'Explored on the page: every single fault of every kind (lost requests, lost responses, late responses, crashes, leader failovers, rebalances, zombies, application re-sends, source duplicates).',
        '',
        'What it found: 2 placements: 1 held, 1 duplicate — the duplicate comes from a lost produce acknowledgement.',
        '',
        'The earliest, simplest break: the produce acknowledgement at 99 ms lost (1 duplicated).',
        '',
        "Its faults, to add to the scenario's `faults`:",
        '',
        '```json',
        '[',
        '  {',
        '    "kind": "drop-response",',
        '    "at": 99,',
        '    "link": "produce",',
        '    "match": {',
        '      "nth": 2',
        '    }',
        '  }',
        ']',
        '```',
        '',
        'The same atlas from the command line: `sim <scenario> --explore`.',
        '',
      ].join('\n'),
    );
    // A batch job's break is said in words (it is an edit of the job, not a fault to add).
    const batch = { ...found, counterexample: { words: 'a crash mid-write: 3 lost' } };
    expect(atlasMarkdown({ explored: true }, true, undefined, batch)).toContain(
      'What it found: 2 placements'.concat(
        ': 1 held, 1 duplicate — the duplicate comes from a lost produce acknowledgement.\n\nThe earliest, simplest break: a crash mid-write: 3 lost.\n\nThe same atlas',
      ),
    );
  });

  it('a claim that survives every fault tried: the expect block that pins it, with its kinds and pairs', () => {
    // The Embed dialog and Export → Scenario for docs CI wrote it; the report said only the summary.
    const found = {
      input: {} as never,
      choice: { kinds: ['drop-response' as const, 'crash' as const], pairs: true },
      summary: '12 pairs: 12 held — the exactly-once claim survives every pair of faults tried.',
      counterexample: null,
      survives: true,
    };
    expect(
      atlasMarkdown(
        { kinds: ['drop-response', 'crash'], pairs: true, explored: true },
        false,
        undefined,
        found,
      ),
    ).toContain(
      [
        'What it found: 12 pairs: 12 held — the exactly-once claim survives every pair of faults tried.',
        '',
        "To pin it in docs CI (`delivery-lab check` runs this atlas again), the scenario's `expect` holds:",
        '',
        '```json',
        '{"atlas":{"kinds":["drop-response","crash"],"depth":2,"breaks":0}}',
        '```',
        '',
        'The same atlas from the command line: `sim <scenario> --explore --depth 2 --kinds drop-response,crash`.',
      ].join('\n'),
    );
  });

  it("is the report's last section, after Compare's, for a stream and a batch job", () => {
    const plain = report('at-least-once');
    expect(report('at-least-once', { atlas: { kinds: ['crash'] } })).toBe(plain);
    const explored = report('at-least-once', { atlas: { kinds: ['crash'], explored: true } });
    expect(explored).toBe(
      `${plain.trimEnd()}\n\n${atlasMarkdown({ kinds: ['crash'], explored: true }, false)}`,
    );
    const base = structuredClone(findPreset('at-least-once')!.variant.scenario);
    const both = report('at-least-once', {
      compare: { base, spec: { lanes: [{ guarantee: 'exactly-once' }] } },
      atlas: { explored: true },
    });
    expect(both.indexOf('### Compare')).toBeGreaterThan(0);
    expect(both.indexOf('### Fault atlas')).toBeGreaterThan(both.indexOf('### Compare'));
    expect(both.endsWith('`sim <scenario> --explore`.\n')).toBe(true);
    const batch = report('airflow-retry-append', {
      atlas: { kinds: ['late-row'], explored: true },
    });
    expect(batch).toContain('every single fault of 1 of 3 kinds: late rows.');
    expect(batch).toContain('`sim <scenario> --explore --kinds late-row`');
  });
});
