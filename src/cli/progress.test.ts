/**
 * `--explore`'s progress line on a terminal: rewritten in place at most every 250 ms, cleared
 * before the report; none when stderr is not a terminal (bin.ts passes no status line then).
 */
import { describe, expect, it } from 'vitest';
import { atlasProgress, terminalStatus } from './progress';
import { main } from './main';

describe('the progress line', () => {
  it("rewrites one terminal line in place and erases it ('\\r', the text, erase to its end)", () => {
    const written: string[] = [];
    const status = terminalStatus((s) => written.push(s));
    status('exploring: 1 of 2 runs (50 %)');
    status(null);
    expect(written).toEqual(['\rexploring: 1 of 2 runs (50 %)\x1b[K', '\r\x1b[K']);
  });

  it("shows an atlas's runs at most every 250 ms, its first and its last at once", () => {
    const lines: (string | null)[] = [];
    let t = 0;
    const progress = atlasProgress(
      (l) => lines.push(l),
      () => t,
    );
    progress(1, 20_162);
    t = 100;
    progress(2, 20_162); // too soon
    t = 300;
    progress(1_234, 20_162);
    t = 310;
    progress(20_162, 20_162); // the last, however soon
    expect(lines).toEqual([
      'exploring: 1 of 20,162 runs (0 %)',
      'exploring: 1,234 of 20,162 runs (6 %)',
      'exploring: 20,162 of 20,162 runs (100 %)',
    ]);
  });

  it('sim --explore shows it while the atlas runs and clears it before the report', () => {
    const events: string[] = [];
    const code = main(
      ['acks0-dropped-request', '--explore', '--kinds', 'crash', '--format', 'json'],
      () => events.push('report'),
      () => {},
      { status: (l) => events.push(l === null ? 'cleared' : 'progress') },
    );
    expect(code).toBe(0);
    expect(events[0]).toBe('progress');
    expect(events.slice(-2)).toEqual(['cleared', 'report']);
    expect(events.filter((e) => e === 'cleared')).toHaveLength(1);
  }, 60_000);
});
