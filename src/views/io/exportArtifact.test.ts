import { describe, expect, it, vi } from 'vitest';
import { parseScenario, simulate, traceHash } from '../../engine';
import { findPreset } from '../../scenarios';
import { computeRunView } from '../run/computeRun';
import { artifactOf, cappedOf, computeArtifact, runCache } from './exportArtifact';
import { traceHashOfView } from '../run/hash';
import { anomalyDiagram } from '../diagrams/anomalyDiagram';

// Whole runs on a loaded two-core machine: its slowest test took 0.9 s in a full CI run
// (this file 2.2 s), so each gets 10 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 10_000 });

const preset = () => structuredClone(findPreset('at-least-once')!.variant.scenario);

describe('artifacts of a run', () => {
  it("the view's scenario simulated again is the run on screen (same traceHash)", () => {
    const r = computeRunView(preset());
    if (!r.ok) throw new Error('preset invalid');
    const parsed = parseScenario(r.view.scenario);
    if (!parsed.ok) throw new Error('view scenario invalid');
    expect(traceHash(simulate(parsed.scenario).trace)).toBe(traceHashOfView(r.view));
  });

  it('each kind gives its text; one simulation serves several artifacts', () => {
    const cache = runCache();
    const seq = computeArtifact(preset(), 'sequence', cache);
    expect(seq.ok && seq.artifact.text.startsWith('sequenceDiagram\n')).toBe(true);
    const run = cache.run;
    const flow = computeArtifact(preset(), 'flow', cache);
    expect(flow.ok && flow.artifact.text.startsWith('flowchart LR\n')).toBe(true);
    expect(cache.run).toBe(run);
    const ev = computeArtifact(preset(), 'event:p-4', cache);
    expect(ev.ok && ev.artifact.text).toContain('p-4');
    const csv = computeArtifact(preset(), 'table-csv', cache);
    expect(csv.ok && csv.artifact.text.split('\n')[0]).toContain('business_id');
    const md = computeArtifact(preset(), 'markdown', cache, { preset: 'at-least-once/default' });
    expect(md.ok && md.artifact.text).toContain('at-least-once/default');
    // The page's Export keeps the report's defaults: an H2 title, the first anomaly's diagram.
    expect(md.ok && md.artifact.text.startsWith('## ')).toBe(true);
    expect(md.ok && md.artifact.text).toContain('### The first anomaly, from its cause\n');
    expect(computeArtifact(preset(), 'ledger-csv', cache).ok).toBe(true);
    const trace = computeArtifact(preset(), 'trace-json', cache);
    expect(trace.ok && JSON.parse(trace.artifact.text).format).toBe('delivery-lab-trace');
  });

  it("the slide's 'anomaly' kind is the CLI's anomaly diagram, not an event named 'y'", () => {
    // The page's Diagrams › Slide asks for 'anomaly'; it must be the same text as diagramOf's
    // (the CLI's --diagram anomaly), drawn from the first anomaly's cause.
    const cache = runCache();
    const slide = computeArtifact(preset(), 'anomaly', cache);
    expect(slide.ok).toBe(true);
    expect(slide.ok && slide.artifact.text).toBe(anomalyDiagram(cache.run!));
    expect(slide.ok && slide.artifact.text).toContain('from the cause to the');
    // A run with no anomaly says so (effectively-once: nothing lost, nothing twice).
    const clean = computeArtifact(
      structuredClone(findPreset('effectively-once')!.variant.scenario),
      'anomaly',
    );
    expect(clean).toMatchObject({ ok: false, missing: true });
    expect(!clean.ok && clean.error).toMatch(/no anomaly/);
  });

  it('an unknown event or an invalid scenario is an error, never a throw', () => {
    const missing = computeArtifact(preset(), 'event:nope');
    expect(missing).toMatchObject({ ok: false, missing: true });
    const bad = computeArtifact({ version: 1, producer: { acks: 'some' } }, 'sequence');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/^invalid scenario: /);
  });

  it('a capped diagram says how much it shows', () => {
    expect(cappedOf('  Note over P0: showing 200 of 1234 steps\n')).toEqual({
      shown: 200,
      total: 1234,
    });
    expect(cappedOf('sequenceDiagram\n')).toBeUndefined();
    // A run drawn from just before its first fault names where the window starts.
    expect(cappedOf('  Note over P0: showing 200 of 1762 steps, from 5052 ms\n')).toEqual({
      shown: 200,
      total: 1762,
      fromMs: 5052,
    });
    const parsed = parseScenario({
      version: 1,
      name: 'many',
      workload: { generate: { count: 400, intervalMs: 5 } },
      processor: { type: 'consumer', 'auto.offset.reset': 'earliest' },
      sink: { type: 'table' },
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const a = artifactOf(simulate(parsed.scenario), 'sequence');
    expect(a?.capped?.shown).toBeGreaterThan(0);
    expect(a!.capped!.total).toBeGreaterThan(a!.capped!.shown);
  });
});

describe('the Sink SQL export', () => {
  it("is the table sink's PostgreSQL script, and a sink that is no table has none", () => {
    // payment-resent-by-app/on-conflict-do-nothing writes a table with ON CONFLICT DO NOTHING.
    const table = computeArtifact(
      findPreset('payment-resent-by-app/on-conflict-do-nothing')!.variant.scenario,
      'sink-sql',
    );
    expect(table.ok && table.artifact.text).toContain('ON CONFLICT (id) DO NOTHING;');
    const kafka = computeArtifact(
      findPreset('flink-checkpoint-replay/2pc-read-committed')!.variant.scenario,
      'sink-sql',
    );
    expect(kafka).toEqual({
      ok: false,
      missing: true,
      error: 'this run has no SQL table sink (its sink is not sink.type "table")',
    });
  });
});
