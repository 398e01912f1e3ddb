/**
 * The rows a table sink holds before the run (`initialRows`) and what they add to the rows and
 * sum the sink should end with. The checker uses it for its verdict, the page for its counters.
 */
import type { Scenario } from './schema';
import type { Events } from './workload';

/**
 * What a table sink's rows from before the run (`initialRows`) add to the rows and sum it should
 * hold, on top of the events (whose expected sum counts each event's last amount):
 * - a row under an id no workload event has: the pipeline never touches it, so the table is right
 *   when it still holds it — one more row, its amount more;
 * - a row under an event's id is that event's prior effect (no extra row). A statement that
 *   replaces it (upsert, MERGE … WHEN MATCHED THEN UPDATE) should leave the event's amount; one
 *   that keeps an existing row — `ON CONFLICT DO NOTHING`, MERGE with WHEN MATCHED THEN DO NOTHING
 *   or no WHEN MATCHED clause — should leave the old row's amount, keyed on the business id
 *   (https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT,
 *   https://www.postgresql.org/docs/current/sql-merge.html).
 * @returns `rows` and `untouchedSum`: the rows under ids no event has; `prior`: business identity
 *   → amount of the row under its id (there before the event is sent); `kept`: identity → old
 *   amount − the event's last amount, for each row a keep-existing statement should leave; `sum`:
 *   what the sink's expected sum adds to the events' once every event is in.
 */
export function preexistingRows(
  s: Scenario,
  events: Events,
): {
  rows: number;
  sum: number;
  untouchedSum: number;
  prior: Map<number, number>;
  kept: Map<number, number>;
} {
  let rows = 0;
  let sum = 0;
  const prior = new Map<number, number>();
  const kept = new Map<number, number>();
  if (s.sink.type !== 'table') return { rows, sum, untouchedSum: 0, prior, kept };
  const c = s.sink;
  const keeps =
    c.key === 'business-id' &&
    (c.statement === 'on-conflict-do-nothing' ||
      (c.statement === 'merge' && c.merge.whenMatched !== 'update'));
  for (const r of c.initialRows) {
    const j = events.identityOf(r.id);
    if (j < 0) {
      rows++;
      sum += r.amount;
    } else prior.set(j, r.amount);
    if (j >= 0 && keeps) kept.set(j, r.amount - events.identityAmount[j]!);
  }
  const untouchedSum = sum;
  for (const d of kept.values()) sum += d;
  return { rows, sum, untouchedSum, prior, kept };
}
