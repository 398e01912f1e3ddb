/**
 * Faults in words: what a scheduled or random fault does ("a crash of consumer-0 mid-batch after 3
 * records"), and why one can never fire. Kept apart from the explanations (explain.ts), which need
 * a whole run: the page names faults on its timeline and in its menus without loading the
 * simulation.
 */
import type { CrashPoint, FaultSpec, RandomFaultSpec, Scenario } from './scenario/schema';
import { normalizeAcks } from './scenario/producerRules';
import { groupDigits } from './groupDigits';

/**
 * Why a fault of the scenario cannot fire whatever happens, in words, or null when it may: a lost
 * acknowledgement of a produce request when the producer sends with acks=0 ("the producer will
 * not wait for any acknowledgment from the server at all",
 * https://kafka.apache.org/documentation/#producerconfigs_acks), or one armed after the run's
 * `stopAtMs`. The checker's never-fired notice says this instead of "its condition never came".
 */
export function whyNeverFires(s: Scenario, f: FaultSpec): string | null {
  // The run ends at stopAtMs (src/engine/world.ts runs no task past it): a fault armed later is
  // never armed at all — a time typed past the window, not a moment that did not come.
  if (s.stopAtMs !== undefined && f.at > s.stopAtMs)
    return `armed at ${groupDigits(f.at)} ms, after the run stops at ${groupDigits(s.stopAtMs)} ms (stopAtMs): it never comes`;
  const lostAck =
    ((f.kind === 'drop-response' || f.kind === 'delay-response') && f.link === 'produce') ||
    (f.kind === 'random' && f.what === 'drop-response' && f.link === 'produce');
  if (lostAck && normalizeAcks(s.producer.acks) === '0')
    return 'with acks=0 the broker sends no acknowledgement to lose';
  // "Right after its offset commit" is the moment a commitSync() returns: a loop whose commits
  // are commitAsync() calls it never waits on has none (src/engine/processors: auto-commit inside
  // poll(); a hand-off worker's or a parallel pool's finished offsets).
  // https://kafka.apache.org/documentation/#consumerconfigs_enable.auto.commit
  const p = s.processor;
  if (
    f.kind === 'crash' &&
    f.point === 'after-commit' &&
    p.type === 'consumer' &&
    f.target.startsWith('consumer-')
  ) {
    if (p['enable.auto.commit'])
      return 'with enable.auto.commit=true its offsets are committed by commitAsync() inside poll(), which the loop never waits on: there is no moment right after a commit';
    if (p.processing.mode === 'parallel')
      return 'a parallel pool commits its finished offsets with commitAsync(), which the loop never waits on: there is no moment right after a commit';
    if (p.processing.mode === 'handoff' && p.commit !== 'before-processing')
      return 'a hand-off worker commits its finished offsets with commitAsync(), which the loop never waits on: there is no moment right after a commit';
  }
  return null;
}

/** 1st, 2nd, 3rd, 4th, 11th, 21st… */
export function ordinal(n: number): string {
  const t = n % 100;
  const s = t >= 11 && t <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${groupDigits(n)}${s}`;
}

/** Where a crash point strikes, in words (the schema's names are for files: "before-commit"). */
export const CRASH_POINT_WORDS: Record<Exclude<CrashPoint, 'now' | 'mid-batch'>, string> = {
  'after-poll': 'right after a poll',
  'before-commit': 'before its offset commit',
  'after-commit': 'right after its offset commit',
  'before-barrier': 'before a checkpoint barrier',
  'after-precommit': 'after the pre-commit, before the checkpoint completes',
  'after-checkpoint': 'after the checkpoint completes, before the commit',
  'during-commit': 'during the commit',
  'before-sink-write': 'before the batch is written to the sink',
  'after-sink-write': 'after the sink write, before the commit log entry',
  'before-commit-transaction': 'before commitTransaction()',
  'after-commit-decision': 'after sending its commit to the transaction coordinator',
};

/** A short description of fault number `i` of the scenario. */
export function describeFault(f: FaultSpec | undefined): string {
  if (!f) return 'a fault';
  const label = f.id ? ` "${f.id}"` : '';
  switch (f.kind) {
    case 'drop-request':
      return `a lost ${f.link} request${label}`;
    case 'drop-response':
      return `a lost ${f.link === 'produce' ? 'acknowledgement' : `${f.link} response`}${label}`;
    case 'delay-response':
      return `a ${f.link} response delayed by ${f.delayMs} ms${label}`;
    case 'random':
      return describeRandomFault(f) + label;
    case 'crash': {
      // Where it strikes, when not at once: "mid-batch after 3 records", "before its offset
      // commit", "in its 2nd batch after 3 records", "before its offset commit (the 2nd time)".
      const nth = f.nth > 1 ? `its ${ordinal(f.nth)} ` : '';
      const records = `after ${f.afterRecords} record${f.afterRecords === 1 ? '' : 's'}`;
      const at =
        f.point === 'now'
          ? ''
          : f.point === 'mid-batch'
            ? nth
              ? ` in ${nth}batch ${records}`
              : ` mid-batch ${records}`
            : ` ${CRASH_POINT_WORDS[f.point]}${f.nth > 1 ? ` (the ${ordinal(f.nth)} time)` : ''}`;
      return `a crash of ${f.target}${at}${label}`;
    }
    case 'periodic-crash':
      return `a periodic crash of ${f.target}${label}`;
    case 'leader-failover':
      return `a failure of the leader of partition ${f.partition}${f.point === 'after-append' ? ' right after an append' : ''}${label}`;
    case 'rebalance':
      return `a rebalance moving ${f.target}'s partitions${label}`;
    case 'zombie':
      return `${f.target} pausing for ${f.pauseMs} ms${label}`;
    case 'app-resend':
      return `the application sending ${f.event} again${label}`;
    case 'source-duplicate':
      return `the upstream source emitting ${f.event} twice${label}`;
    case 'abort-transaction':
      return `the application aborting transaction ${f.transaction}${label}`;
    case 'hang-transaction':
      return `the application leaving transaction ${f.transaction} open${label}`;
    case 'checkpoint-reset':
      return `the checkpoint being deleted${label}`;
  }
}

/** A `random` fault in plain words: what happens each time it fires. */
function describeRandomFault(f: RandomFaultSpec): string {
  // Sure to fire at one instant, it is no chance: the fault atlas places a leader failover so,
  // right after an append (src/engine/atlas/placements.ts). Said with its time, not "random".
  if (f.probability === 1 && f.untilMs === f.at)
    return `${certainRandomFault(f)} at ${groupDigits(f.at)} ms`;
  switch (f.what) {
    case 'drop-request':
      return `a randomly lost request on ${f.link}`;
    case 'drop-response':
      return `a randomly lost response on ${f.link}`;
    case 'crash':
      return `a random crash of ${f.target}`;
    case 'rebalance':
      return `a random rebalance moving ${f.target}'s partitions`;
    case 'app-resend':
      return 'a random application re-send';
    case 'source-duplicate':
      return 'a random duplicate from the upstream source';
    case 'leader-failover':
      return f.partition === undefined
        ? 'a random failure of a partition leader'
        : `a random failure of the leader of partition ${f.partition}`;
  }
}

/** What a `random` fault of probability 1 does, without the chance words. */
function certainRandomFault(f: RandomFaultSpec): string {
  switch (f.what) {
    case 'drop-request':
      return `a lost request on ${f.link}`;
    case 'drop-response':
      return `a lost response on ${f.link}`;
    case 'crash':
      return `a crash of ${f.target}`;
    case 'rebalance':
      return `a rebalance moving ${f.target}'s partitions`;
    case 'app-resend':
      return 'an application re-send';
    case 'source-duplicate':
      return 'a duplicate from the upstream source';
    case 'leader-failover':
      return f.partition === undefined
        ? 'a failure of a partition leader'
        : `a failure of the leader of partition ${f.partition}`;
  }
}
