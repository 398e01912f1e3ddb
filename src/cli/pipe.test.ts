/**
 * The CLI as a real process: a reader that closes the pipe early (`sim … | head -1`) ends the run
 * quietly with the run's own exit code, not an EPIPE stack trace.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// 20,000 events: a JSON report of several MB, far more than a pipe buffer holds.
const dir = mkdtempSync(join(tmpdir(), 'delivery-lab-pipe-'));
const big = join(dir, 'big.json');
writeFileSync(
  big,
  JSON.stringify({ version: 1, name: 'big', workload: { generate: { count: 20_000 } } }),
);

describe('the CLI piped into a reader that stops early', () => {
  it('exits 0 with nothing on stderr', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli/bin.ts', big, '--format', 'json'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    // Like `head -c 1`: read one chunk, then close our end.
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(err).toBe('');
    expect(code).toBe(0);
  }, 60_000);

  // `sim … --check 2>&1 | head -1`: stderr is the same closed pipe, and the check's last line
  // ("check: the run matches…", or the mismatches) is written to it after the reader has gone.
  // The mismatch here: one event, one row; the expect block says 2.
  const mismatch = join(dir, 'mismatch.json');
  writeFileSync(
    mismatch,
    JSON.stringify({
      version: 1,
      name: 'mismatch',
      workload: { events: [{ id: 'e1', amount: 10, at: 0 }] },
      processor: { type: 'consumer', 'auto.offset.reset': 'earliest' },
      expect: { totals: { rows: 2 } },
    }),
  );
  it.each([
    ['a match', 'lost-ack-retry/idempotence-off', 0],
    ['a mismatch', mismatch, 3],
  ] as const)(
    '--check with stderr on the closed pipe too: %s keeps its exit code (%s → %i)',
    async (_, ref, expected) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', ref, '--check'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      // The reader is gone before the last line: stderr closed at once, stdout after its first
      // chunk (with `2>&1 | head -1` both are the one pipe, closed after the first line).
      child.stderr.destroy();
      child.stdout.once('data', () => child.stdout.destroy());
      const code = await new Promise<number | null>((done) => child.on('close', done));
      expect(code).toBe(expected);
    },
    60_000,
  );
});
