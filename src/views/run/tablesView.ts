/**
 * A run's sink tables as view data: rows with their insert and update entries ({@link tablesView}).
 */
import type { Run, TraceColumns } from '../../engine';
import { K } from './kinds';
import { FloatList, IntList, buildCsr } from './steps';
import type { EventsView, TableView } from './runView';

export function tablesView(
  run: Run,
  cols: TraceColumns,
  actors: string[],
  ev: EventsView,
): TableView[] {
  const s = run.scenario;
  const specs: { point: string; label: string; actor: number }[] = [];
  const sinkActor = actors.indexOf('sink');
  if (run.state.sink && sinkActor >= 0)
    specs.push({
      point: 'sink',
      // The table's own name (a Delta table's, a file sink's too: "delta sink" hid "orders").
      label:
        s.sink.type === 'table' || s.sink.type === 'delta' || s.sink.type === 'file'
          ? s.sink.name
          : `${s.sink.type} sink`,
      actor: sinkActor,
    });
  s.readers.forEach((r, i) => {
    const a = actors.indexOf(`reader-${i}`);
    if (a >= 0)
      specs.push({
        point: `reader:${r.name}`,
        label: `${r.name} (${r['isolation.level']})`,
        actor: a,
      });
  });
  const additive =
    s.sink.type === 'table' &&
    s.sink.statement === 'on-conflict-do-update' &&
    s.sink.set === 'add-excluded';
  return specs.map((spec) => {
    const event = new IntList();
    const insertedAt = new IntList();
    const partition = new IntList();
    const offset = new IntList();
    const amount0 = new FloatList();
    const copy = new IntList();
    const reread: number[] = [];
    const initialLabels: string[] = [];
    const rowsOf = new Int32Array(ev.identities);
    const amounts: number[] = [];
    if (spec.point === 'sink' && s.sink.type === 'table') {
      for (const r of s.sink.initialRows) {
        const j = identityOfId(ev, r.id);
        initialLabels[event.length] = r.id;
        event.push(-1);
        insertedAt.push(-1);
        partition.push(-1);
        offset.push(-1);
        amount0.push(r.amount);
        amounts.push(r.amount);
        copy.push(j >= 0 ? ++rowsOf[j]! : 1);
      }
    }
    const upRow = new IntList();
    const upEntry = new IntList();
    const upAmount = new FloatList();
    const n = cols.time.length;
    for (let i = 0; i < n; i++) {
      if (cols.actor[i] !== spec.actor) continue;
      const k = cols.kind[i]!;
      if (k === K['row-insert']) {
        const e = cols.event[i]!;
        const j = ev.identity[e]!;
        event.push(e);
        insertedAt.push(i);
        partition.push(cols.partition[i]!);
        offset.push(cols.offset[i]!);
        amount0.push(ev.amount[e]!);
        amounts.push(ev.amount[e]!);
        copy.push(++rowsOf[j]!);
        if (cols.count[i] === 0) reread[event.length - 1] = 1;
      } else if (k === K['row-update']) {
        const row = cols.aux[i]!;
        const e = cols.event[i]!;
        const after = additive ? amounts[row]! + ev.amount[e]! : ev.amount[e]!;
        amounts[row] = after;
        upRow.push(row);
        upEntry.push(i);
        upAmount.push(after);
      }
    }
    const rows = event.length;
    const rowIdx = upRow.toArray();
    const csrEntry = buildCsr(rows, rowIdx, upEntry.toArray());
    // Amounts in the same CSR order: build with indices, then gather.
    const order = buildCsr(
      rows,
      rowIdx,
      Int32Array.from({ length: rowIdx.length }, (_, q) => q),
    );
    const upAm = upAmount.toArray();
    const updAmount = new Float64Array(order.items.length);
    for (let q = 0; q < order.items.length; q++) updAmount[q] = upAm[order.items[q]!]!;
    const eventArr = event.toArray();
    const identRow = new IntList();
    const identItems = new IntList();
    for (let r = 0; r < rows; r++) {
      const e = eventArr[r]!;
      const j = e >= 0 ? ev.identity[e]! : identityOfId(ev, initialLabels[r] ?? '');
      if (j < 0) continue;
      identRow.push(j);
      identItems.push(r);
    }
    return {
      ...spec,
      event: eventArr,
      insertedAt: insertedAt.toArray(),
      partition: partition.toArray(),
      offset: offset.toArray(),
      amount0: amount0.toArray(),
      copy: copy.toArray(),
      reread: Uint8Array.from({ length: rows }, (_, r) => reread[r] ?? 0),
      initialLabels,
      updStart: csrEntry.start,
      updEntry: csrEntry.items,
      updAmount,
      byIdentity: buildCsr(ev.identities, identRow.toArray(), identItems.toArray()),
    };
  });
}

export function identityOfId(ev: EventsView, id: string): number {
  if (ev.ids) return ev.ids.indexOf(id);
  if (!id.startsWith(ev.idPrefix)) return -1;
  const j = Number(id.slice(ev.idPrefix.length)) - 1;
  return Number.isInteger(j) && j >= 0 && j < ev.identities ? j : -1;
}
