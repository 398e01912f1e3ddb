/**
 * Faults by direct manipulation: what each component's fault menu offers at the current moment,
 * and the scheduled fault each choice becomes. Every action is plain scenario data — a fault with
 * `at` = the current virtual time — so the store only appends it and re-simulates. The menu as
 * offered, filtered by the validator, is ./faultMenu.ts: zod stays off the lab's first load
 * (issue 24), where the pipeline's tokens and markers import this module.
 */
import type { Scenario, ScenarioInput } from '../../engine';
import { lifeAt } from '../run/at';
import { K } from '../run/kinds';
import { eventIdOf, type RunView } from '../run/runView';

export { dropMessageFault, messageLabel } from './messageFaults';
export { faultMarkers, markerText, matchText, type FaultMarker } from './faultMarkers';

/** A fault as written in a scenario (defaults not applied). */
export type FaultInput = NonNullable<ScenarioInput['faults']>[number];

/**
 * A component of the pipeline that has a fault menu: `producer`, `broker-2`, `partition:payments:0`,
 * `consumer-0`, `flink`, `spark`, `sink`, `service`, `reader-0`.
 */
export type ComponentId = string;

/** One entry of a fault menu. */
export interface FaultAction {
  /** Stable id within the menu (for tests and keys). */
  id: string;
  label: string;
  /** One line on what will happen. */
  detail: string;
  /** The fault to append, or an edit of an existing one (a restart). */
  effect: { type: 'add'; fault: FaultInput } | { type: 'edit'; index: number; fault: FaultInput };
}

function lastSentEvent(v: RunView, idx: number, preferred: number): string | null {
  if (preferred >= 0) return eventIdOf(v.events, preferred);
  const c = v.cols;
  for (let i = Math.min(idx, v.n) - 1; i >= 0; i--)
    if (c.kind[i] === K['app-send']) return eventIdOf(v.events, v.events.identity[c.event[i]!]!);
  return v.events.identities > 0 ? eventIdOf(v.events, 0) : null;
}

/** The application's transactions begun by `idx` (distinct txn numbers on its sends). */
function transactionsBegun(v: RunView, idx: number): number {
  const c = v.cols;
  const producer = v.actors.indexOf('producer');
  const seen = new Set<number>();
  for (let i = 0; i < Math.min(idx, v.n); i++)
    if (c.kind[i] === K['app-send'] && c.actor[i] === producer && c.txn[i]! >= 0)
      seen.add(c.txn[i]!);
  return seen.size;
}

/** The scenario fault (index) that crashed `actor` and left it down at `idx`, or -1. */
function downBy(v: RunView, actor: number, idx: number, t: number): number {
  const l = lifeAt(v, actor, idx, t);
  if (l.life !== 'down') return -1;
  return v.cols.aux[l.entry]!;
}

/**
 * Every action of a component's fault menu, before the validator has had its say (./faultMenu.ts
 * keeps those it accepts).
 */
export function menuActions(
  v: RunView,
  s: Scenario,
  component: ComponentId,
  t: number,
  idx: number,
  selected: number,
): FaultAction[] {
  const at = Math.floor(t);
  const add = (id: string, label: string, detail: string, fault: FaultInput): FaultAction => ({
    id,
    label,
    detail,
    effect: { type: 'add', fault: { ...fault, at } as FaultInput },
  });
  const restart = (name: string): FaultAction[] => {
    const actor = v.actors.indexOf(name);
    const f = actor >= 0 ? downBy(v, actor, idx, t) : -1;
    const spec = f >= 0 ? s.faults[f] : undefined;
    if (!spec || !('restartAfterMs' in spec)) return [];
    const crashedAt = v.cols.time[lifeAt(v, actor, idx, t).entry]!;
    return [
      {
        id: 'restart',
        label: 'Restart now',
        detail: `${name} comes back at ${at} ms (edits the fault that took it down).`,
        effect: {
          type: 'edit',
          index: f,
          fault: { ...spec, restartAfterMs: Math.max(0, at - crashedAt) } as FaultInput,
        },
      },
    ];
  };
  const crashNow = (target: string): FaultAction[] => [
    add('crash', 'Crash now', `${target} dies now and restarts 1 s later.`, {
      kind: 'crash',
      target,
      point: 'now',
      restartAfterMs: 1000,
    }),
    add('crash-stay', 'Crash and stay down', `${target} dies now and does not come back.`, {
      kind: 'crash',
      target,
      point: 'now',
      restartAfterMs: null,
    }),
  ];

  if (component === 'producer') {
    const ev = lastSentEvent(v, idx, selected);
    // With acks=0 the broker never answers: there is no acknowledgement to lose.
    const acks0 = s.producer.acks === '0' || s.producer.acks === 0;
    const items: FaultAction[] = [];
    if (!acks0)
      items.push(
        add(
          'lose-next-ack',
          'Lose the next ack',
          'The next produce acknowledgement is dropped on the way back: the producer times out and retries.',
          { kind: 'drop-response', link: 'produce', match: { nth: 1 } },
        ),
      );
    items.push(
      add(
        'lose-next-request',
        'Lose the next produce request',
        'The next produce request never reaches the broker.',
        { kind: 'drop-request', link: 'produce', match: { nth: 1 } },
      ),
    );
    if (ev)
      items.push(
        add(
          'app-resend',
          `Re-send ${ev} from the application`,
          `The application calls send() for ${ev} again: a new record, not a producer retry.`,
          {
            kind: 'app-resend',
            event: ev,
          },
        ),
      );
    if (s.producer['transactional.id'] !== undefined) {
      const n = transactionsBegun(v, idx) + 1;
      items.push(
        add(
          'abort-txn',
          `Abort transaction ${n}`,
          `The application aborts its transaction ${n} and sends its events again in the next one.`,
          {
            kind: 'abort-transaction',
            transaction: n,
          },
        ),
        add(
          'hang-txn',
          `Leave transaction ${n} open`,
          `The application never completes transaction ${n}: it holds the last stable offset.`,
          {
            kind: 'hang-transaction',
            transaction: n,
          },
        ),
      );
    }
    return [...restart('producer'), ...items, ...crashNow('producer')];
  }
  if (component.startsWith('partition:')) {
    const [, topic, p] = component.split(':');
    const partition = Number(p);
    return [
      add(
        'leader-failover',
        `Fail the leader of ${topic}-${partition}`,
        'Its leader broker dies (back after 60 s); a new leader is elected from the in-sync replicas.',
        {
          kind: 'leader-failover',
          topic: topic === s.workload.topic ? undefined : topic,
          partition,
          restartAfterMs: 60_000,
        } as FaultInput,
      ),
      add(
        'leader-failover-after-append',
        `Fail the leader of ${topic}-${partition} right after its next append`,
        'It dies right after appending the next record it is sent (acknowledged with acks=1), before its followers copy it (back after 60 s).',
        {
          kind: 'leader-failover',
          topic: topic === s.workload.topic ? undefined : topic,
          partition,
          point: 'after-append',
          restartAfterMs: 60_000,
        } as FaultInput,
      ),
    ];
  }
  if (component.startsWith('broker-')) return [...restart(component), ...crashNow(component)];
  if (component.startsWith('consumer-')) {
    const p = s.processor;
    const session = p.type === 'consumer' ? p['session.timeout.ms'] : 45_000;
    return [
      ...restart(component),
      add(
        'crash-before-commit',
        'Crash after processing, before the commit',
        `${component} finishes its batch, writes it, and dies before committing its offsets: the restart replays the batch.`,
        {
          kind: 'crash',
          target: component,
          point: 'before-commit',
          restartAfterMs: 1000,
        },
      ),
      add(
        'crash-mid-batch',
        'Crash mid-batch',
        `${component} dies after processing one record of its next batch.`,
        {
          kind: 'crash',
          target: component,
          point: 'mid-batch',
          afterRecords: 1,
          restartAfterMs: 1000,
        },
      ),
      add(
        'crash-after-poll',
        'Crash after poll',
        `${component} dies right after its next poll().`,
        {
          kind: 'crash',
          target: component,
          point: 'after-poll',
          restartAfterMs: 1000,
        },
      ),
      add(
        'crash-after-commit',
        'Crash after the commit',
        `${component} dies right after its next commit.`,
        {
          kind: 'crash',
          target: component,
          point: 'after-commit',
          restartAfterMs: 1000,
        },
      ),
      ...crashNow(component),
      add(
        'rebalance',
        'Rebalance',
        `${component}'s partitions move to the next member (itself, in a new generation, if alone).`,
        {
          kind: 'rebalance',
          target: component,
        },
      ),
      add(
        'zombie',
        'Zombie (long pause)',
        `${component} freezes for ${(session + 15_000) / 1000} s — past session.timeout.ms — is replaced, then wakes up and carries on.`,
        {
          kind: 'zombie',
          target: component,
          pauseMs: session + 15_000,
        },
      ),
      add(
        'lose-commit-response',
        'Lose the next commit response',
        'The commit is stored but its answer is lost.',
        {
          kind: 'drop-response',
          link: 'commit',
          match: { nth: 1 },
        },
      ),
    ];
  }
  if (component === 'flink')
    return [
      ...restart('flink'),
      ...crashNow('flink'),
      add(
        'before-barrier',
        'Crash before the next barrier',
        'The job dies before snapshotting: it restores the previous checkpoint.',
        {
          kind: 'crash',
          target: 'flink',
          point: 'before-barrier',
          restartAfterMs: 1000,
        },
      ),
      add(
        'after-precommit',
        'Crash after pre-commit',
        'The sink transaction is flushed but the checkpoint not complete.',
        {
          kind: 'crash',
          target: 'flink',
          point: 'after-precommit',
          restartAfterMs: 1000,
        },
      ),
      add(
        'after-checkpoint',
        'Crash after the checkpoint completes',
        'The checkpoint is durable; its sink transaction is committed on recovery.',
        {
          kind: 'crash',
          target: 'flink',
          point: 'after-checkpoint',
          restartAfterMs: 1000,
        },
      ),
      add(
        'during-commit',
        'Crash during the commit',
        'The job dies while committing the sink transaction.',
        {
          kind: 'crash',
          target: 'flink',
          point: 'during-commit',
          restartAfterMs: 1000,
        },
      ),
    ];
  if (component === 'spark')
    return [
      ...restart('spark'),
      ...crashNow('spark'),
      add(
        'before-sink-write',
        'Crash before the sink write',
        'The micro-batch is planned but not written.',
        {
          kind: 'crash',
          target: 'spark',
          point: 'before-sink-write',
          restartAfterMs: 1000,
        },
      ),
      add(
        'after-sink-write',
        'Crash after the sink write',
        'The batch is written but not in the commit log: it is re-run.',
        {
          kind: 'crash',
          target: 'spark',
          point: 'after-sink-write',
          restartAfterMs: 1000,
        },
      ),
      add(
        'checkpoint-reset',
        'Delete the checkpoint location',
        'The query restarts from startingOffsets.',
        {
          kind: 'checkpoint-reset',
          restartAfterMs: 1000,
        },
      ),
    ];
  if (component === 'sink') {
    const timeout = s.sink.type === 'table' ? s.sink['statement.timeout.ms'] : 5000;
    return [
      add(
        'lose-sink-response',
        'Lose the next write response',
        'The statement applies but its answer is lost: the writer times out and retries.',
        {
          kind: 'drop-response',
          link: 'sink',
          match: { nth: 1 },
        },
      ),
      add(
        'lose-sink-request',
        'Lose the next write',
        'The next statement never reaches the database.',
        {
          kind: 'drop-request',
          link: 'sink',
          match: { nth: 1 },
        },
      ),
      add(
        'delay-sink-response',
        'Delay the next response past the client’s timeout',
        `The answer arrives ${timeout + 1000} ms late: the writer has already given up.`,
        {
          kind: 'delay-response',
          link: 'sink',
          match: { nth: 1 },
          delayMs: timeout + 1000,
        },
      ),
      ...restart('sink'),
      ...crashNow('sink'),
    ];
  }
  if (component === 'service')
    return [
      add(
        'lose-effect-response',
        'Lose the next service response',
        'The card is charged (the email sent) but the answer is lost: the caller retries.',
        {
          kind: 'drop-response',
          link: 'effect',
          match: { nth: 1 },
        },
      ),
    ];
  if (component.startsWith('reader-')) return [...restart(component), ...crashNow(component)];
  return [];
}
