/** Importing a lesson file on the page: a valid one opens its presenter view; a bad one is refused naming the field. */
import { describe, expect, it } from 'vitest';
import { LESSON_FILES } from '../../scenarios/lessons';
import { importFile, importText } from './importScenario';

const text = JSON.stringify(LESSON_FILES[0]);

describe('import of a lesson file', () => {
  it('gives back the lesson, with its first step’s scenario as the input', async () => {
    const r = await importFile({ name: 'l.json', size: text.length, text: async () => text });
    expect(r).toMatchObject({ ok: true, name: 'Delivery guarantees in 45 minutes' });
    expect(r.ok && r.lesson?.steps).toHaveLength(11);
    expect(importText(text)).toMatchObject({ ok: true, lesson: { id: 'delivery-guarantees-45' } });
  });

  it('refuses a bad lesson naming the field and its line (not as a scenario missing its workload)', async () => {
    // Pretty-printed as an author writes it: "pace" on line 9 (version 2, id 3, title 4,
    // steps 5, the step's brace 6, title 7, preset 8) — the line `delivery-lab check` names.
    const bad = JSON.stringify(
      {
        version: 1,
        id: 'x',
        title: 'X',
        steps: [{ title: 'x', preset: 'lost-ack-retry', pace: -1 }],
      },
      null,
      2,
    );
    const r = await importFile({ name: 'bad.json', size: bad.length, text: async () => bad });
    expect(r).toEqual({
      ok: false,
      from: '“bad.json”',
      lines: ['bad.json:9: steps.0.pace: at least 0.001'],
      // The Import dialog's heading said "“bad.json” is not a valid scenario".
      heading: 'Not imported: “bad.json” is not a valid lesson.',
    });
    expect(importText(bad)).toMatchObject({
      ok: false,
      lines: ['(pasted text):9: steps.0.pace: at least 0.001'],
    });
  });
});
