/**
 * The primary point's counters as prefix arrays indexed by trace entry ({@link prefixCounters}).
 */
import type { Run, TraceColumns } from '../../engine';
import { roleOf } from './actors';
import { K } from './kinds';
import {
  REC,
  type EventsView,
  type PartitionLogView,
  type PrefixCounters,
  type TableView,
} from './runView';
import { identityOfId } from './tablesView';

/**
 * Counters at the primary point, replayed entry by entry — the same quantities the checker
 * computes at the end (checker.ts `totalsOf`), so at every cursor they equal the verdict of the
 * run cut off at that time (`stopAtMs`).
 */
export function prefixCounters(
  run: Run,
  cols: TraceColumns,
  actors: string[],
  ev: EventsView,
  logs: PartitionLogView[],
  tables: TableView[],
  primary: string,
): PrefixCounters {
  const n = cols.time.length;
  const ids = ev.identities;
  const sent = new Int32Array(n + 1);
  const sentAmtP = new Float64Array(n + 1);
  const rowsP = new Int32Array(n + 1);
  const dupP = new Int32Array(n + 1);
  const missP = new Int32Array(n + 1);
  const dblP = new Int32Array(n + 1);
  const sumP = new Float64Array(n + 1);
  const dblAmtP = new Float64Array(n + 1);
  const missAmtP = new Float64Array(n + 1);
  const procP = new Int32Array(n + 1);

  const rows = new Int32Array(ids);
  const effects = new Int32Array(ids);
  const seen = new Uint8Array(ids);
  const amountOf = ev.identityAmount;
  const keptDelta = new Map(ev.preexisting.kept);
  const prior = new Map(ev.preexisting.prior);
  const expRowsP = new Int32Array(n + 1);
  let nSent = 0;
  // A row under an event's id is there before the event is sent; the event then replaces or keeps it.
  let sentAmount = 0;
  for (const a of prior.values()) sentAmount += a;
  let expectedRows = prior.size;
  let nRows = 0;
  let dup = 0;
  let missing = ids;
  let missingAmount = ev.trueSum;
  let dbl = 0;
  let dblAmount = 0;
  let sum = 0;
  let processed = 0;

  const bump = (j: number, dRows: number, dEffects: number, amount: number) => {
    const before = Math.max(rows[j]!, effects[j]!);
    const r0 = rows[j]!;
    const e0 = effects[j]!;
    rows[j] = r0 + dRows;
    effects[j] = e0 + dEffects;
    nRows += dRows;
    sum += amount;
    dup += Math.max(rows[j]! - 1, 0) - Math.max(r0 - 1, 0);
    const after = Math.max(rows[j]!, effects[j]!);
    if (before === 0 && after > 0) {
      missing--;
      missingAmount -= amountOf[j]!;
    } else if (before > 0 && after === 0) {
      missing++;
      missingAmount += amountOf[j]!;
    }
    if (e0 < 2 && effects[j]! >= 2) dbl++;
    else if (e0 >= 2 && effects[j]! < 2) dbl--;
    dblAmount += amountOf[j]! * (Math.max(effects[j]! - 1, 0) - Math.max(e0 - 1, 0));
  };

  // The clean layer (ROW_NUMBER() = 1 per event id over the raw sink table, checker.ts
  // `cleanTable`) holds one row per event the raw table holds: its counters follow the raw rows,
  // an event counted once however many raw copies it has.
  const clean = primary === 'clean';
  const table = tables.find((x) => x.point === (clean ? 'sink' : primary));
  const rawRows = clean ? new Int32Array(ids) : undefined;
  const bumpRow = (j: number, amount: number) => {
    if (!rawRows) return bump(j, 1, 1, amount);
    if (rawRows[j]!++ === 0) bump(j, 1, 1, amount);
  };
  const rowIdentity = (tb: TableView, r: number) =>
    tb.event[r]! >= 0 ? ev.identity[tb.event[r]!]! : identityOfId(ev, tb.initialLabels[r] ?? '');
  const additive =
    run.scenario.sink.type === 'table' &&
    run.scenario.sink.statement === 'on-conflict-do-update' &&
    run.scenario.sink.set === 'add-excluded';
  const rowAmount: number[] = [];
  let nextRow = 0;
  if (table) {
    // Initial rows exist before the first entry: rows, not effects (as the engine counts them).
    while (nextRow < table.event.length && table.insertedAt[nextRow]! < 0) {
      const j = rowIdentity(table, nextRow);
      rowAmount[nextRow] = table.amount0[nextRow]!;
      if (j >= 0) bump(j, 1, 0, table.amount0[nextRow]!);
      else {
        nRows++;
        sum += table.amount0[nextRow]!;
      }
      nextRow++;
    }
  }
  const serviceActor = actors.indexOf('service');
  const logTopic = primary.startsWith('log:') ? run.trace.topics.indexOf(primary.slice(4)) : -1;
  const logOf = new Map<number, PartitionLogView>();
  for (const l of logs) if (l.topic === logTopic) logOf.set(l.partition, l);
  const logCursor = new Map<number, number>();
  const isProcessor = actors.map((a) => roleOf(a) === 'processor');

  sumP[0] = sum;
  rowsP[0] = nRows;
  dupP[0] = dup;
  missP[0] = missing;
  missAmtP[0] = missingAmount;
  dblP[0] = dbl;
  sentAmtP[0] = sentAmount;
  expRowsP[0] = expectedRows;
  dblAmtP[0] = dblAmount;
  for (let i = 0; i < n; i++) {
    const k = cols.kind[i]!;
    const a = cols.actor[i]!;
    if (k === K['app-send']) {
      const j = ev.identity[cols.event[i]!]!;
      if (seen[j] === 0) {
        seen[j] = 1;
        nSent++;
        // A kept row (ON CONFLICT DO NOTHING, insert-only MERGE) should stay as it was.
        sentAmount += amountOf[j]! + (keptDelta.get(j) ?? 0) - (prior.get(j) ?? 0);
        if (!prior.has(j)) expectedRows++;
      }
    } else if (k === K.process && isProcessor[a]) {
      processed++;
    } else if (table && a === table.actor && k === K['row-insert']) {
      const r = nextRow++;
      const e = cols.event[i]!;
      rowAmount[r] = ev.amount[e]!;
      // A reader's re-read copy is its own replay: the checker leaves it out (RowStore.rereads).
      if (table.reread[r] === 0) bumpRow(ev.identity[e]!, ev.amount[e]!);
    } else if (table && a === table.actor && k === K['row-update']) {
      const r = cols.aux[i]!;
      const e = cols.event[i]!;
      const before = rowAmount[r]!;
      const after = additive ? before + ev.amount[e]! : ev.amount[e]!;
      rowAmount[r] = after;
      bump(ev.identity[e]!, 0, additive ? 1 : 0, after - before);
    } else if (primary === 'effects' && a === serviceActor && k === K.effect) {
      const e = cols.event[i]!;
      bump(ev.identity[e]!, 1, 1, ev.amount[e]!);
    } else if (
      logTopic >= 0 &&
      cols.topic[i] === logTopic &&
      (k === K.append || k === K.truncate)
    ) {
      const l = logOf.get(cols.partition[i]!);
      if (l) {
        // Versions are in entry order: walk this partition's versions added by entry i.
        let v = logCursor.get(l.partition) ?? 0;
        if (k === K.append) {
          while (v < l.addedAt.length && l.addedAt[v]! < i) v++;
          for (; v < l.addedAt.length && l.addedAt[v] === i; v++)
            if (l.flags[v] === REC.data && l.event[v]! >= 0)
              bump(ev.identity[l.event[v]!]!, 1, 1, ev.amount[l.event[v]!]!);
          logCursor.set(l.partition, v);
        } else {
          for (let q = 0; q < l.removedAt.length; q++)
            if (l.removedAt[q] === i && l.flags[q] === REC.data && l.event[q]! >= 0)
              bump(ev.identity[l.event[q]!]!, -1, -1, -ev.amount[l.event[q]!]!);
        }
      }
    }
    sent[i + 1] = nSent;
    sentAmtP[i + 1] = sentAmount;
    expRowsP[i + 1] = expectedRows;
    rowsP[i + 1] = nRows;
    dupP[i + 1] = dup;
    missP[i + 1] = missing;
    dblP[i + 1] = dbl;
    sumP[i + 1] = sum;
    dblAmtP[i + 1] = dblAmount;
    missAmtP[i + 1] = missingAmount;
    procP[i + 1] = processed;
  }
  return {
    sent,
    sentAmount: sentAmtP,
    expectedRows: expRowsP,
    rows: rowsP,
    duplicates: dupP,
    missing: missP,
    doubleCounted: dblP,
    sum: sumP,
    doubleAmount: dblAmtP,
    missingAmount: missAmtP,
    processed: procP,
  };
}
