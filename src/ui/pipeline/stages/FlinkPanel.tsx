import { useMemo } from 'react';
import { checkpointRowsAt, stateUpdatesAt, type CheckpointRow } from '../../../views/run/at';
import { formatBytes, formatCountOf, formatDuration, formatMs } from '../../../views/run/format';
import { keyNameOf, type RunView } from '../../../views/run/runView';
import { lowerBound } from '../../../views/run/steps';
import { testIds } from '../../testIds';
import type { StageProps } from './stageProps';

/**
 * Where a restore put the source: every input partition's offset when the restored checkpoint
 * recorded them ('restore' entries carry the first partition's only).
 */
function restoredAt(view: RunView, restore: number): string {
  const id = view.cols.ckpt[restore]!;
  const positions = id >= 0 ? (view.checkpoints.find((c) => c.id === id)?.positions ?? []) : [];
  return positions.length > 1
    ? `source offsets ${positions.map((e) => view.cols.offset[e]).join(', ')}`
    : `source offset ${view.cols.offset[restore]}`;
}

/** Why a row of checkpoints says "idle", on hover. */
const IDLE_TITLE =
  'Triggered while the job had processed nothing since the checkpoint before: Flink triggers a checkpoint every execution.checkpointing.interval all the same, and each completes at once with the same source position and state.';

/** How the checkpoint history writes its sink transaction's state. */
const TXN_STATUS_LABEL: Record<Exclude<CheckpointRow['txnStatus'], 'none'>, string> = {
  open: '… open',
  'pre-committed': '◐ pre-committed',
  committed: '✓ committed',
  'timed out': '✕ timed out',
  aborted: '⊘ aborted',
};

/** What each XA transaction state means, on hover (Flink's JDBC exactly-once sink). */
const XA_STATUS_TITLE: Record<Exclude<CheckpointRow['txnStatus'], 'none'>, string> = {
  open: "The epoch's rows are written in this XA transaction; none is visible in the table yet",
  'pre-committed':
    'Prepared at the barrier (PREPARE TRANSACTION): durable, invisible, committed once the checkpoint completes',
  committed: 'COMMIT PREPARED after the checkpoint completed: its rows are visible now',
  'timed out': 'Not expected: a prepared PostgreSQL transaction does not time out',
  aborted:
    "Rolled back on restore: its checkpoint did not complete, so the epoch's rows are replayed",
};

/** What each sink transaction state means, on hover. */
const TXN_STATUS_TITLE: Record<Exclude<CheckpointRow['txnStatus'], 'none'>, string> = {
  open: "The epoch's records are being written into this transaction; nothing of it is visible to read_committed readers",
  'pre-committed': 'Flushed at the barrier (preCommit); committed once the checkpoint completes',
  committed:
    'Committed after the checkpoint completed: its records are visible to read_committed readers',
  'timed out':
    'Aborted by the broker after transaction.timeout.ms, before the job could commit it: its records are lost to read_committed readers',
  aborted: "Aborted: the checkpoint did not complete, so the restore discards the epoch's writes",
};

/**
 * The Flink job's checkpoint history and state, with its last restore.
 * @public rendered through the namespace ./processorPanelsOnDemand.ts loads
 */
export function FlinkPanel({ view, idx, t }: StageProps) {
  const rows = useMemo(() => checkpointRowsAt(view, idx, t), [view, idx, t]);
  const inputTopic = view.scenario.workload.topic;
  const xa = view.scenario.sink.type === 'table' && view.scenario.sink.xa;
  const restores = lowerBound(view.restores, idx);
  const lastRestore = restores > 0 ? view.restores[restores - 1]! : -1;
  const state = stateUpdatesAt(view, idx, 5);
  const jm = view.actors.indexOf('jobmanager');
  const p = view.scenario.processor;
  const interval = p.type === 'flink' ? p['execution.checkpointing.interval'] : null;
  return (
    <>
      {jm >= 0 && (
        <div className="chip" data-anchor="jobmanager" title="JobManager: triggers checkpoints">
          jobmanager<span className="chip-role"> · checkpoint coordinator</span>
        </div>
      )}
      {lastRestore >= 0 && (
        <div style={{ fontSize: '0.85em' }}>
          {view.cols.cause[lastRestore]! < 0
            ? 'started'
            : view.cols.ckpt[lastRestore]! >= 0
              ? `restored checkpoint ${view.cols.ckpt[lastRestore]}`
              : 'restarted with no checkpoint'}{' '}
          at {formatMs(view.cols.time[lastRestore]!)}, {restoredAt(view, lastRestore)}
        </div>
      )}
      {/* One entry per checkpoint, newest first, in two short lines: the processor column is
          narrow, and a seven-column table there scrolled its last columns out of sight. */}
      <div className="table-scroll" style={{ maxHeight: '11em' }} tabIndex={0}>
        <ol
          className="checkpoints"
          data-testid={testIds.checkpointTable}
          aria-label="Checkpoint history, newest first"
        >
          {rows.length === 0 && (
            <li className="muted">
              no checkpoint yet
              {view.scenario.processor.type === 'flink' &&
              view.scenario.processor['execution.checkpointing.interval'] === null
                ? ' (checkpointing is off)'
                : ''}
            </li>
          )}
          {rows.map((r) => (
            <li key={r.id} data-status={r.status} data-idle={r.idle ? 'true' : undefined}>
              <span
                title={
                  r.failure === 'expired'
                    ? 'Expired before completing: not acknowledged within execution.checkpointing.timeout. It counts towards execution.checkpointing.tolerable-failed-checkpoints.'
                    : r.failure === 'declined'
                      ? 'Declined: the task failed while the checkpoint was in progress.'
                      : r.idle
                        ? IDLE_TITLE
                        : undefined
                }
              >
                <strong>
                  {r.firstId < r.id ? `checkpoints ${r.firstId}–${r.id}` : `checkpoint ${r.id}`}
                </strong>{' '}
                {r.status === 'completed'
                  ? r.idle
                    ? '✓ done · idle'
                    : '✓ done'
                  : r.failure === 'expired'
                    ? '✕ expired'
                    : r.status === 'failed'
                      ? '✕ failed'
                      : '… running'}
              </span>
              <span>
                {r.firstId < r.id && interval !== null
                  ? `triggered every ${formatDuration(interval)} to ${formatMs(r.triggeredAt)}`
                  : `triggered ${formatMs(r.triggeredAt)}`}
              </span>
              <span title="End-to-end duration: trigger to completion (or so far)">
                {r.durationMs >= 0 ? formatMs(r.durationMs) : '—'}
              </span>
              <br />
              <span
                title={`Source position the checkpoint holds (next offset to read)${
                  r.offsets.length > 1
                    ? `: ${r.offsets.map((o) => `${inputTopic}-${o.partition} at ${o.offset}`).join(', ')}`
                    : ''
                }`}
              >
                {r.offsets.length > 1
                  ? `offsets ${r.offsets.map((o) => o.offset).join(', ')}`
                  : `offset ${r.offset >= 0 ? r.offset : '—'}`}
              </span>
              <span
                title={`Checkpointed state size: 16 bytes (a count and a sum) per key held${
                  r.stateKeys >= 0 ? ` — ${formatCountOf(r.stateKeys, 'key')}` : ''
                }`}
              >
                state {r.stateBytes >= 0 ? formatBytes(r.stateBytes) : '—'}
              </span>
              <span title="Records processed in this checkpoint's epoch: what a restore to the checkpoint before it would replay">
                {formatCountOf(r.epochRecords, 'record')}
              </span>
              {r.txnStatus !== 'none' && (
                <span
                  title={(xa ? XA_STATUS_TITLE : TXN_STATUS_TITLE)[r.txnStatus]}
                  data-testid={testIds.checkpointTxn}
                  data-status={r.txnStatus}
                >
                  {xa ? 'XA txn' : 'sink txn'}
                  {r.txn >= 0 ? ` #${r.txn}` : ''} {TXN_STATUS_LABEL[r.txnStatus]}
                </span>
              )}
            </li>
          ))}
        </ol>
      </div>
      {state.length > 0 && (
        <div className="state-updates">
          <span className="muted">keyed state, latest updates: </span>
          {state.map((u) => (
            <span key={u.entry} className="chip mono">
              {/* The key's name, as the producer sent it ("key 249" was its index: e250's key is k249). */}
              key {keyNameOf(view.events, u.key)} = {u.count}
            </span>
          ))}
        </div>
      )}
    </>
  );
}
