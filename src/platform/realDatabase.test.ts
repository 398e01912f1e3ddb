/**
 * The page's "Run on a real PostgreSQL" client (realDatabase.ts) with a stand-in worker: progress
 * passed on, the result, Cancel, and a worker that fails to load. The real worker runs in
 * e2e/sink-sql.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import { runOnRealDatabase, type PgliteProgress } from './realDatabase';

/** A worker stand-in: records what it was sent and whether it was terminated. */
class FakeWorker {
  sent: unknown[] = [];
  terminated = false;
  onmessage: ((e: MessageEvent) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  postMessage(m: unknown) {
    this.sent.push(m);
  }
  terminate() {
    this.terminated = true;
  }
  reply(data: unknown) {
    this.onmessage?.({ data } as MessageEvent);
  }
}

function start() {
  const w = new FakeWorker();
  const progress: PgliteProgress[] = [];
  const job = runOnRealDatabase(
    { name: 's' },
    (p) => progress.push(p),
    () => w as unknown as Worker,
  );
  return { w, progress, job };
}

describe('runOnRealDatabase', () => {
  it('sends the scenario, passes progress on, resolves with the result and ends the worker', async () => {
    const { w, progress, job } = start();
    expect(w.sent).toEqual([{ scenario: { name: 's' } }]);
    w.reply({ type: 'progress', phase: 'download', loaded: 10, total: 20 });
    w.reply({ type: 'progress', phase: 'run' });
    const conformance = { ok: true, differences: [], engine: [], real: [] };
    w.reply({ type: 'done', result: { ok: true, conformance }, ms: 12 });
    await expect(job.promise).resolves.toEqual({ ok: true, conformance, ms: 12 });
    expect(progress).toEqual([
      { type: 'progress', phase: 'download', loaded: 10, total: 20 },
      { type: 'progress', phase: 'run' },
    ]);
    expect(w.terminated).toBe(true);
  });
  it('Cancel terminates the worker and resolves "cancelled"', async () => {
    const { w, job } = start();
    job.cancel();
    await expect(job.promise).resolves.toEqual({ ok: false, error: 'cancelled' });
    expect(w.terminated).toBe(true);
  });
  it('a worker that fails to load gives a clear error', async () => {
    const { w, job } = start();
    w.onerror?.({ message: 'Failed to fetch', preventDefault() {} } as ErrorEvent);
    const r = await job.promise;
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/^the PostgreSQL worker failed to load: Failed to fetch/);
  });
});
