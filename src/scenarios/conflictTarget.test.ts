/**
 * What the room reads names the column the sink conflicts on as the sink's card and its SQL do
 * (src/engine/sinks/keyColumns.ts: `id`, `uuid`, `src`, or the content columns). A setup that
 * said `ON CONFLICT (payment_id)` beside a card that says `ON CONFLICT (id)` had a room ask which
 * of the two the table has. The conflict target is the arbiter's column list
 * (https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT).
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../engine';
import { keyColumn } from '../engine/sinks/keyColumns';
import { challenges } from './challenges';
import { LESSON_FILES } from './lessons/library';
import { findPreset, presets } from '.';

/** Every `ON CONFLICT (…)` target a text names. */
function targets(text: string): string[] {
  return [...text.matchAll(/ON CONFLICT \(([^)]*)\)/g)].map((m) => m[1]!);
}

/** The key columns of the table sinks of a preset's variants. */
function columnsOf(presetId: string): Set<string> {
  const preset = presets.find((p) => p.id === presetId)!;
  const out = new Set<string>();
  for (const v of preset.variants) {
    const parsed = parseScenario(v.scenario);
    if (!parsed.ok) throw new Error(`${presetId}/${v.id}: ${parsed.issues[0]?.message}`);
    const sink = parsed.scenario.sink;
    if (sink.type === 'table') out.add(keyColumn(sink));
  }
  return out;
}

describe('ON CONFLICT in the texts names the sink’s key column', () => {
  it.each(presets.map((p) => [p.id]))('%s', (id) => {
    const p = presets.find((x) => x.id === id)!;
    const texts = [
      p.setup,
      p.story,
      p.watch,
      p.fix,
      p.oneLine,
      p.predict.question,
      p.predict.answer,
      ...p.predict.needs,
      ...p.variants.map((v) => v.summary),
    ];
    const named = texts.flatMap(targets);
    const columns = columnsOf(id);
    for (const t of named) expect([...columns], `ON CONFLICT (${t})`).toContain(t);
  });

  it('in the shipped lessons’ own setups and questions', () => {
    for (const lesson of LESSON_FILES) {
      lesson.steps.forEach((step, i) => {
        if (step.preset === undefined) return;
        const texts = [
          step.setup ?? '',
          step.question?.question ?? '',
          step.question?.answer ?? '',
        ];
        const columns = columnsOf(findPreset(step.preset)!.preset.id);
        for (const t of texts.flatMap(targets))
          expect([...columns], `${lesson.id} step ${i + 1}: ON CONFLICT (${t})`).toContain(t);
      });
    }
  });

  it('in the challenges’ solutions', () => {
    for (const c of challenges()) {
      if (!('preset' in c.start)) continue;
      const columns = columnsOf(findPreset(c.start.preset)!.preset.id);
      for (const t of targets(c.solution.why))
        expect([...columns], `${c.id}: ON CONFLICT (${t})`).toContain(t);
    }
  });
});

/**
 * The sink's statement timeout is the lab's scenario key `statement.timeout.ms`; what the room
 * can look up is PgJDBC's `socketTimeout` (the Knobs tab's name, src/views/edit/knobsSink.ts), not
 * PostgreSQL's `statement_timeout`, which cancels the statement instead. The duplicate-with-
 * idempotence-on solution told the phones "the consumer times out (statement.timeout.ms)".
 */
it('the challenges’ texts name the JDBC client’s socketTimeout, not the lab’s key', () => {
  for (const c of challenges()) {
    const texts = [c.intro, c.solution.why, ...c.hints.map((h) => h.text)];
    for (const t of texts) expect(t, c.id).not.toContain('statement.timeout.ms');
  }
});
