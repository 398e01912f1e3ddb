/**
 * A streaming sink keyed by content instead of the event id (docs/semantics/sinks.md#content-keys):
 * `INSERT … ON CONFLICT (event_time, amount) DO NOTHING` collapses a replay as an id key would,
 * and also takes a second real payment with the same time and amount for a copy — a false merge.
 * `expect` derived by hand below.
 */
import type { ScenarioInput } from '../../engine';
import type { Preset } from '../types';
import { each, fivePerPoll, ids } from './helpers';
import { sourceUrls } from './sources';

// ------------------------------------------------------------------ content-key-on-conflict

/*
 * e1..e10 at 10, 20, … 100 ms, amounts 10·i except e7, a second real payment made in the same
 * second as e6 for the same amount (09:15:06, 60): the true sum is 550 − 70 + 60 = 540. S13's
 * loop (5 per poll, commit after writing, crash before the 2nd commit), so e6..e10 are written
 * twice (docs/semantics/scenarios.md#s13-commit-after-processing).
 * - key (event_time, amount): batch 1 writes e1..e5; batch 2 writes e6, then e7 conflicts with
 *   e6's row ("ON CONFLICT DO NOTHING simply avoids inserting a row",
 *   https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT), then e8..e10; the
 *   replay of e6..e10 conflicts row by row. 9 rows, sum 540 − 60 = 480, e7 lost (merged into
 *   e6's row), no duplicate: at-most-once.
 * - key event id: the replay conflicts, e7 is its own key: 10 rows, 540, exactly-once.
 */
const payments = ids(1, 10).map((id, i) => {
  const twin = id === 'e7' ? 6 : i + 1;
  return {
    id,
    at: 10 * (i + 1),
    amount: 10 * twin,
    time: `09:15:${String(twin).padStart(2, '0')}`,
  };
});

/** S13's loop (5 per poll, commit after writing, crash before the 2nd commit) over the payments. */
function contentKeyed(
  name: string,
  key: 'business-id' | ['time', 'amount'],
  expect: ScenarioInput['expect'],
): ScenarioInput {
  return fivePerPoll(
    name,
    { topic: 'payments', events: payments },
    {},
    { type: 'table', name: 'payments', statement: 'on-conflict-do-nothing', key },
    [{ id: 'crash', kind: 'crash', target: 'consumer-0', point: 'before-commit', nth: 2 }],
    expect,
  );
}

const TITLE = 'ON CONFLICT on event time and amount merges two real payments';

const contentKeyOnConflict: Preset = {
  id: 'content-key-on-conflict',
  title: TITLE,
  group: 'sink',
  oneLine:
    'A conflict key coarser than the event id collapses the replay — and a second real payment with it.',
  illustrates: 'at-most-once',
  setup:
    'A consumer reads ten payments, e1..e10, polls 5 at a time, writes each with INSERT … ON CONFLICT (event_time, amount) DO NOTHING, then commits. e6 and e7 are two real payments made in the same second for the same amount (09:15:06, $60). It will crash after writing its 2nd batch, before committing it, so e6..e10 are written again.',
  story:
    'The payments feed had no id, so a team made the table idempotent on what a payment looked like: its time and amount. The replay after a crash collapsed as hoped. Months later finance found a customer charged twice in one second whose second payment was missing from every report.',
  watch:
    'e7 arriving at the sink and skipped as if it were e6; then the replay of e6..e10 skipped.',
  fix: 'Try: sink.key business-id (a real event id from the source) → 10 rows, $540.',
  predict: {
    needs: [
      'ON CONFLICT (event_time, amount) DO NOTHING',
      'e6 and e7 are two real payments made in the same second for the same amount',
      'e6..e10 are written again',
    ],
    question: 'How many rows does the payments table hold after the replay?',
    answer:
      '9: e7 has e6’s time and amount, so ON CONFLICT took it for a copy of e6 and it is missing; the replay of e6..e10 added none.',
    mark: { kind: 'numbers', values: [{ value: 9, what: 'rows', units: ['rows', 'row'] }] },
  },
  sources: sourceUrls('PG-INS', 'K-DES'),
  variants: [
    {
      id: 'event-time-amount',
      label: 'key (event_time, amount)',
      summary: 'e7 merges into e6’s row: a real payment lost',
      scenario: contentKeyed(`${TITLE} — key (event_time, amount)`, ['time', 'amount'], {
        totals: { rows: 9, duplicates: 0, lost: 1, sum: 480 },
        rows: { e6: 1, e7: 0, e8: 1 },
        observed: 'at-most-once',
      }),
    },
    {
      id: 'event-id',
      label: 'key event id',
      summary: 'the replay conflicts, e7 is its own row',
      scenario: contentKeyed(`${TITLE} — key event id`, 'business-id', {
        totals: { rows: 10, duplicates: 0, lost: 0, sum: 540 },
        rows: each(ids(1, 10), 1),
        observed: 'exactly-once',
      }),
    },
  ],
};

export const contentKeyPresets = { contentKeyOnConflict };
