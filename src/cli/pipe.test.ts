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
      ['--import', 'tsx', 'src/cli/main.ts', big, '--format', 'json'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    // Like `head -c 1`: read one chunk, then close our end.
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(err).toBe('');
    expect(code).toBe(0);
  }, 30_000);
});
