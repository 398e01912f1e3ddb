/**
 * The words a jump puts in the status line ("Next commit — event 61 at 1.102 s: …") read the trace
 * entry with src/views/diagrams/describe.ts, ~3.4 kB gzip that an embed which is never jumped in
 * does not need (issue 31: the embed ≤ 150 KB gzip). The lab's page provides them at start-up
 * (src/main.tsx; unit tests in src/testSetup.ts), so a jump there says where it landed at once;
 * the embed imports them at its first jump, and the words follow the cursor by a download.
 */
import type { Moment } from '../views/run/moments';
import type { RunView } from '../views/run/runView';

type MomentWords = (v: RunView, m: Moment, delta: number) => string;

let provided: MomentWords | undefined;

/** Hand the words over (the lab's page, the tests): later jumps say them synchronously. */
export function provideMomentWords(words: MomentWords): void {
  provided = words;
}

/** Call `say` with the words: now if provided, else once their module is in. */
export function withMomentWords(say: (words: MomentWords) => void): void {
  if (provided !== undefined) {
    say(provided);
    return;
  }
  void import('../views/run/momentWords').then((m) => {
    provided = m.momentWords;
    say(provided);
  });
}
