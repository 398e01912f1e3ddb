/** The run view at a cursor: counters, table sources, partition logs, tokens, the sink table, the ledger, progress. */
import { describe, expect, it, vi } from 'vitest';
import { simulate, traceHash, type ScenarioInput } from '../../engine';
import { applyGuarantee, findPreset, presets } from '../../scenarios';
import { cellAt, countersAt, indexAtTime, ledgerRowAt, partitionAt, processorsAt, rowsAt, rowSource, sourceChars, tokensAt } from './at';
import { traceHashOfView } from './hash';
import { eventIdOf, toRunView } from './runView';
import { scenarioOf, viewOf } from './runViewTesting';

// Whole runs on a loaded two-core machine: its slowest test took 1.0 s in a full CI run
// (this file 5.8 s), so each gets 10 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 10_000 });

describe('toRunView counters', () => {
  it.each(presets.map((p) => p.id))('%s: at the end they equal the checker’s totals', (id) => {
    const s = scenarioOf(findPreset(id)!.variant.scenario);
    const run = simulate(s);
    const v = toRunView(run);
    const p = run.verdict.points.find((x) => x.name === run.verdict.primary)!;
    const c = countersAt(v, v.n);
    expect(c.final).toBe(true);
    expect({
      rows: c.rows,
      duplicates: c.duplicates,
      lost: c.missing,
      sum: c.sum,
      doubleCounted: c.doubleCounted,
    }).toEqual({
      rows: p.totals.rows,
      duplicates: p.totals.duplicates,
      lost: p.totals.lost,
      sum: p.totals.observedSum,
      doubleCounted: p.totals.doubleCounted,
    });
  });

  it('at any time they equal the verdict of the same run cut off there (stopAtMs)', () => {
    // The engine's values at time t: the scenario run with stopAtMs = t. The trace prefix is the
    // same run's, so the counters derived at cursor indexAtTime(t) must match exactly.
    const s = scenarioOf(findPreset('at-least-once')!.variant.scenario);
    const v = toRunView(simulate(s));
    const times = [0, 7, 161, 30_263, 40_009, 40_048, 40_050, 41_059, 41_100, v.endTime];
    for (const t of times) {
      const cut = simulate({ ...s, stopAtMs: t });
      const p = cut.verdict.points.find((x) => x.name === 'sink')!;
      const c = countersAt(v, indexAtTime(v, t));
      expect([t, c.rows, c.duplicates, c.missing, c.sum]).toEqual([
        t,
        p.totals.rows,
        p.totals.duplicates,
        p.totals.lost,
        p.totals.observedSum,
      ]);
    }
  });

  it('at-least-once: the double-counted amount is the duplicated payments’ sum', () => {
    // p-4 (40), p-5 (50), p-6 (60), p-7 (70) are applied twice: 40 + 50 + 60 + 70 = 220.
    const v = viewOf('at-least-once');
    const c = countersAt(v, v.n);
    expect(c.doubleAmount).toBe(220);
    expect(c.sum - c.trueSum).toBe(220);
  });

  it('the amount of the events sent so far goes with their count (the total only at the end)', () => {
    // p-k is $10·k: once p-1..p-4 are sent, a correct report holds 4 rows and 10+20+30+40 = $100.
    const v = viewOf('at-least-once');
    const idx = Array.from({ length: v.n + 1 }, (_, i) => i).find(
      (i) => countersAt(v, i).sent === 4,
    )!;
    expect(countersAt(v, idx).sentAmount).toBe(100);
    expect(countersAt(v, 0).sentAmount).toBe(0);
    const end = countersAt(v, v.n);
    expect([end.sent, end.sentAmount]).toEqual([20, end.trueSum]);
  });

  it('at-most-once: the missing amount is p-9 + p-10 = 90 + 100', () => {
    const v = viewOf('at-most-once');
    const c = countersAt(v, v.n);
    expect([c.missing, c.missingAmount]).toEqual([2, 190]);
  });
});

describe('table sources', () => {
  it('the source column is as wide as its longest entry: partition@offset or initial', () => {
    // flink-checkpoint-replay's plain JDBC sink: 300 rows, the last from in-0@249.
    const flink = viewOf('flink-checkpoint-replay/plain-sink');
    const sink = flink.tables.find((t) => t.point === 'sink')!;
    expect(rowSource(sink, 0)).toBe('0@0');
    expect(sourceChars(sink)).toBe('0@249'.length);
    // merge-duplicate-source starts its table with a row of its own.
    const merge = viewOf('merge-duplicate-source');
    const target = merge.tables.find((t) => t.point === 'sink')!;
    expect(rowSource(target, 0)).toBe('initial');
    expect(sourceChars(target)).toBe('initial'.length);
  });
});

describe('partition logs', () => {
  it('at-least-once: p-4 twice, at offsets 3 and 4, all 21 readable at the end', () => {
    const v = viewOf('at-least-once');
    const log = v.logs.find((l) => l.name === 'payments-0')!;
    const marks = partitionAt(log, v.n);
    expect([marks.leo, marks.hw, marks.lso]).toEqual([21, 21, 21]);
    expect(marks.commits).toEqual([{ group: 'processor', offset: 21 }]);
    const ids = Array.from({ length: 21 }, (_, o) => {
      const c = cellAt(v, log, o, v.n)!;
      return `${eventIdOf(v.events, c.identity)}:${c.status}`;
    });
    expect(ids.slice(2, 6)).toEqual(['p-3:data', 'p-4:data', 'p-4:data', 'p-5:data']);
    expect(cellAt(v, log, 21, v.n)).toBeNull();
  });

  it('the committed offset moves only when the consumer commits', () => {
    const v = viewOf('at-least-once');
    const log = v.logs[0]!;
    // First commit (offset 5) at 40,033 ms; the crash at 40,050 happens before the second.
    expect(partitionAt(log, indexAtTime(v, 40_032)).commits[0]!.offset).toBe(-1);
    expect(partitionAt(log, indexAtTime(v, 40_033)).commits[0]!.offset).toBe(5);
    expect(partitionAt(log, indexAtTime(v, 41_000)).commits[0]!.offset).toBe(5);
  });

  it('transactions: open, aborted and committed records and markers, with the LSO', () => {
    const input = {
      version: 1,
      name: 'txn',
      workload: {
        topic: 'in',
        events: Array.from({ length: 4 }, (_, i) => ({ id: `e${i + 1}`, amount: 10, at: i * 20 })),
      },
      producer: { 'transactional.id': 'app', app: { eventsPerTransaction: 2 } },
      processor: { type: 'consumer', startAtMs: 10_000 },
      faults: [{ kind: 'abort-transaction', transaction: 1 }],
    } as ScenarioInput;
    const v = toRunView(simulate(scenarioOf(input)));
    const log = v.logs.find((l) => l.name === 'in-0')!;
    const statuses = (idx: number) => {
      const marks = partitionAt(log, idx);
      const cells = Array.from({ length: marks.leo }, (_, o) => cellAt(v, log, o, idx)!.status);
      return { cells, lso: marks.lso };
    };
    // Transaction 1 (e1, e2) is aborted and re-sent in transaction 2: [e1 e2 ABORT e1 e2 COMMIT].
    const end = statuses(v.n);
    expect(end.cells.slice(0, 6)).toEqual([
      'aborted',
      'aborted',
      'abort-marker',
      'data',
      'data',
      'commit-marker',
    ]);
    // Right after the first append, before its marker: open records hold the LSO at 0.
    const firstAppend = Array.from(v.cols.kind).findIndex(
      (_, i) => v.cols.offset[i] === 0 && log.addedAt[0] === i,
    );
    const open = statuses(firstAppend + 1);
    expect(open.cells).toEqual(['open-txn', 'open-txn']);
    expect(open.lso).toBe(0);
  });
});

describe('tokens', () => {
  it('at-least-once: the lost acknowledgement of p-4 is in flight at 161 ms, marked lost', () => {
    const v = viewOf('at-least-once');
    const tokens = tokensAt(v, 162, indexAtTime(v, 162));
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatchObject({ type: 'produce-response', lost: true, progress: 0.5 });
    expect(eventIdOf(v.events, v.events.identity[tokens[0]!.event]!)).toBe('p-4');
  });

  it('nothing is in flight during the 30 s retry wait', () => {
    const v = viewOf('at-least-once');
    expect(tokensAt(v, 10_000, indexAtTime(v, 10_000))).toEqual([]);
  });
});

describe('sink table and ledger', () => {
  it('at-least-once: rows appear in insertion order, the replayed ones as second copies', () => {
    const v = viewOf('at-least-once');
    const tb = v.tables[v.primaryTable]!;
    expect(rowsAt(tb, v.n)).toBe(24);
    // By the crash at 40,050 ms: p-1..p-4, p-4′ (the producer's retry), p-5, p-6, p-7 = 8 rows.
    expect(rowsAt(tb, indexAtTime(v, 40_050))).toBe(8);
    const copies = Array.from(tb.copy);
    // Rows 0..4 = p-1..p-4, p-4′ (copy 2); 5..7 = p-5..p-7; after the restart p-5..p-7 again.
    expect(copies.slice(0, 11)).toEqual([1, 1, 1, 1, 2, 1, 1, 1, 2, 2, 2]);
  });

  it('the ledger tracks one event through log, processor and sink', () => {
    const v = viewOf('at-least-once');
    const j = v.events.ids!.indexOf('p-5');
    const row = ledgerRowAt(v, j, v.n);
    expect(row).toMatchObject({ id: 'p-5', amount: 50, processed: 2, rows: 2, fate: 'duplicated' });
    expect(row.records.map((r) => r.offset)).toEqual([5]);
    const early = ledgerRowAt(v, j, indexAtTime(v, 20_000));
    expect(early.fate).toBe('pending');
  });

  it('the ledger shows an event’s latency from its first row on, never ahead of the cursor', () => {
    const v = viewOf('at-least-once');
    const j = v.events.ids!.indexOf('p-5');
    // p-5 is sent at 200 ms; its first row is inserted at 40,038 ms: 39,838 ms. The replay's
    // second row (41,059 ms) does not change it.
    const first = v.verdict.visibleAt[j]!;
    expect(v.cols.time[first]).toBe(40_038);
    expect(ledgerRowAt(v, j, v.n).latencyMs).toBe(39_838);
    expect(ledgerRowAt(v, j, first + 1).latencyMs).toBe(39_838);
    // Up to that entry (not yet applied), nothing — the final value is not given away.
    expect(ledgerRowAt(v, j, first).latencyMs).toBe(-1);
    expect(ledgerRowAt(v, j, first).rows).toBe(0);
    expect(ledgerRowAt(v, j, indexAtTime(v, 20_000)).latencyMs).toBe(-1);
  });

  it('an event that never reaches the sink has no latency, even at the end', () => {
    const v = viewOf('at-most-once');
    const lost = ledgerRowAt(v, v.events.ids!.indexOf('p-9'), v.n);
    expect([lost.fate, lost.latencyMs]).toEqual(['lost', -1]);
    expect(v.verdict.latencyOf[lost.identity]).toBe(-1);
  });
});

describe('processor status', () => {
  it('counts what the current incarnation processed since its last commit', () => {
    const v = viewOf('at-least-once');
    // Before the crash (40,048 ms): the 2nd batch's p-5, p-6, p-7 processed since the commit of
    // offset 5 at 40,033 ms.
    expect(processorsAt(v, indexAtTime(v, 40_048), 40_048)[0]!.sinceCommit).toBe(3);
    // After the restart (41,050 ms) the replay has processed p-5 (41,057) and p-6 (41,062):
    // 2 — the previous incarnation's three are being replayed, not at risk again.
    const after = processorsAt(v, indexAtTime(v, 41_063), 41_063)[0]!;
    expect([after.incarnation, after.sinceCommit, after.life]).toEqual([1, 2, 'up']);
  });
});

describe('traceHashOfView', () => {
  it('equals the engine’s traceHash', () => {
    for (const id of ['at-least-once', 'at-most-once']) {
      const run = simulate(scenarioOf(findPreset(id)!.variant.scenario));
      expect(traceHashOfView(toRunView(run))).toBe(traceHash(run.trace));
    }
    const big = applyGuarantee(
      {
        version: 1,
        name: 'g',
        workload: { generate: { count: 300 } },
        processor: { type: 'consumer' },
        sink: { type: 'table' },
      },
      'exactly-once',
    );
    const run = simulate(scenarioOf(big));
    expect(traceHashOfView(toRunView(run))).toBe(traceHash(run.trace));
  });
});

describe('at-most-once progress', () => {
  it('records processed after a commit that already covers them are not at risk of replay', async () => {
    const { findPreset } = await import('../../scenarios');
    const { parseScenario, simulate } = await import('../../engine');
    const { processorsAt } = await import('./at');
    const r = parseScenario(findPreset('at-most-once')!.variant.scenario);
    if (!r.ok) throw new Error('preset invalid');
    const run = simulate(r.scenario);
    const v = toRunView(run);
    // The loop commits offset 20 before processing its last batch (p-16..p-20): a crash now
    // would skip them, not replay them — 0 at risk, though 5 were processed after the commit.
    const [consumer] = processorsAt(v, v.n, run.endTime);
    expect(consumer!.lastProcess!.offset).toBe(19);
    expect(consumer!.sinceCommit).toBe(0);
  });
});

describe('Spark progress', () => {
  it("a micro-batch recorded in the commit log leaves nothing 'since the last commit'", async () => {
    const { findPreset } = await import('../../scenarios');
    const { parseScenario, simulate } = await import('../../engine');
    const { processorsAt } = await import('./at');
    const p = findPreset('spark-batch-replay/file-sink')!;
    const r = parseScenario(p.variant.scenario);
    if (!r.ok) throw new Error('preset invalid');
    const run = simulate(r.scenario);
    const v = toRunView(run);
    // At the end every batch (0, 1, and 2 re-run) has its commits/N entry.
    expect(processorsAt(v, v.n, run.endTime).map((x) => [x.name, x.sinceCommit])).toEqual([
      ['spark', 0],
    ]);
  });
});
