import { useMemo } from 'react';
import type { Scenario } from '../../engine';
import { targetNameOf } from '../../views/actors';
import {
  batchRowsAt,
  checkpointRowsAt,
  countersAt,
  effectsAt,
  lifeAt,
  partitionAt,
  processorsAt,
  producerAt,
  producerSettings,
  stateUpdatesAt,
  type CheckpointRow,
  type ProcessorStatus,
} from '../../views/at';
import {
  formatBytes,
  formatCount,
  formatCountOf,
  formatDuration,
  formatMoney,
  moneyOffWords,
  formatMs,
  sqlShape,
} from '../../views/format';
import { eventIdOf, keyNameOf, type RunView } from '../../views/runView';
import { lowerBound } from '../../views/steps';
import { Icon } from '../Icon';
import { testIds } from '../testIds';
import { SinkSqlView } from '../sql/SinkSqlView';
import { ComponentBox } from './ComponentBox';
import { PartitionLog } from './PartitionLog';
import { RowTable } from './RowTable';

/** Props every stage gets: the view and the cursor. */
interface StageProps {
  view: RunView;
  idx: number;
  t: number;
}

/** The source application and its Kafka producer. */
export function ProducerStage({ view, idx, t }: StageProps) {
  const s = view.scenario;
  const settings = producerSettings(s);
  const c = producerAt(view, idx);
  const life = lifeAt(view, view.actors.indexOf('producer'), idx, t).life;
  return (
    <section className="stage" aria-label="Producer">
      <h2>① Producer</h2>
      <ComponentBox id="producer" title="app + Kafka producer" anchor="producer" life={life}>
        <dl className="kv">
          <dt>acks</dt>
          <dd className="mono">{settings.acks}</dd>
          <dt>idempotence</dt>
          <dd className="mono">{settings.idempotence}</dd>
          {s.producer['transactional.id'] !== undefined && (
            <>
              <dt>transactional.id</dt>
              <dd className="mono">{s.producer['transactional.id']}</dd>
            </>
          )}
          <dt title="Business events the application handed to send() for the first time, of all the workload's events">
            records sent
          </dt>
          <dd className="num" data-testid={testIds.producerSent} data-value={c.sent}>
            {formatCount(c.sent)} / {formatCount(view.events.identities)}
          </dd>
          {settings.acks === '0' ? (
            <dt title="acks=0: the broker never answers; a record counts as done as soon as it is written to the network">
              done, unacked
            </dt>
          ) : (
            <dt title="Records whose batch the broker acknowledged (one acknowledgement can cover several records)">
              acked
            </dt>
          )}
          <dd className="num" data-testid={testIds.producerAcked} data-value={c.acks}>
            {formatCount(c.acks)}
          </dd>
          <dt title="Records the producer re-sent itself (retries) after an error or a request timeout; the application does not see these">
            retried
          </dt>
          <dd
            className={c.retries > 0 ? 'num since-commit warn' : 'num'}
            data-testid={testIds.producerRetried}
            data-value={c.retries}
          >
            {formatCount(c.retries)}
          </dd>
          {c.resent > 0 && (
            <>
              <dt title="Events the application sent again itself (a re-send after a timeout, a duplicate from the source, a transaction re-sent)">
                re-sent by app
              </dt>
              <dd className="since-commit warn">{formatCount(c.resent)}</dd>
            </>
          )}
          {c.dedupes > 0 && (
            <>
              <dt title="Retried records the broker recognised by producer id and sequence number (enable.idempotence) and did not append again">
                deduped by broker
              </dt>
              <dd>{formatCount(c.dedupes)}</dd>
            </>
          )}
          {c.failures > 0 && (
            <>
              <dt title="Records the producer gave up on (retries or delivery.timeout.ms exhausted), or whose send the application stopped waiting for">
                failed
              </dt>
              <dd className="since-commit warn">{formatCount(c.failures)}</dd>
            </>
          )}
        </dl>
      </ComponentBox>
    </section>
  );
}

/** The Kafka cluster: brokers, the coordinator, and the input topic's partition logs. */
export function BrokerStage({ view, idx, t }: StageProps) {
  const input = view.topics.indexOf(view.scenario.workload.topic);
  const brokers = view.actors
    .map((name, a) => ({ name, a }))
    .filter((x) => x.name.startsWith('broker-'));
  const logs = view.logs.filter((l) => l.topic === input);
  // Any topic's (the sink's output topic shows its log in the sink column, under this legend):
  // the checker adds a read_committed point for each topic with transactional records.
  const transactional = view.verdict.points.some((p) => p.name.endsWith(':read_committed'));
  const leaders = useMemo(() => {
    const m = new Map<number, string[]>();
    for (const l of view.logs) {
      const b = partitionAt(l, idx).leader;
      m.set(b, [...(m.get(b) ?? []), l.name]);
    }
    return m;
  }, [view, idx]);
  return (
    <section className="stage" aria-label="Broker">
      <h2>② Kafka broker</h2>
      <div className="chips">
        {brokers.map(({ name, a }) => {
          const life = lifeAt(view, a, idx, t).life;
          const n = Number(name.slice(7));
          const leads = leaders.get(n) ?? [];
          return (
            <ComponentBox
              key={name}
              id={name}
              anchor={name}
              className={`chip${life === 'down' ? ' down' : ''}`}
              title={
                <span>
                  {name}
                  {leads.length > 0 ? (
                    <span className="muted"> · leads {leads.join(', ')}</span>
                  ) : null}
                </span>
              }
              life={life}
            />
          );
        })}
        <div className="chip" data-anchor="coordinator" title="Group and transaction coordinator">
          coordinator
        </div>
      </div>
      {logs.map((log) => (
        <PartitionLog key={log.name} view={view} log={log} idx={idx} />
      ))}
      <div className="legend" aria-label="Legend">
        <span>
          <b>LEO</b> log end offset
        </span>
        <span>
          <b>HW</b> high watermark
        </span>
        <span>
          <b>LSO</b> last stable offset
        </span>
        <span>
          <b>C</b> committed offset
        </span>
        <span>◌ not replicated yet</span>
        <span>
          <Icon name="hourglass" /> open transaction
        </span>
        <span>⊘ aborted</span>
        {/* Transaction markers take offsets of their own (and their cells): say what they are. */}
        {transactional && (
          <>
            <span>
              <b>C✓</b> commit marker
            </span>
            <span>
              <b>A✕</b> abort marker
            </span>
          </>
        )}
      </div>
    </section>
  );
}

/** The consumer loop, the Flink job or the Spark query. */
export function ProcessorStage({ view, idx, t }: StageProps) {
  const statuses = useMemo(() => processorsAt(view, idx, t), [view, idx, t]);
  const kind = view.scenario.processor.type;
  const title =
    kind === 'consumer' ? '③ Consumer loop' : kind === 'flink' ? '③ Flink job' : '③ Spark query';
  const counters = countersAt(view, idx);
  return (
    <section className="stage" aria-label="Processor">
      <h2>{title}</h2>
      {statuses.map((p) => (
        <ProcessorCard key={p.actor} view={view} status={p} />
      ))}
      {statuses.length === 0 && <p className="muted">not started yet</p>}
      <div
        className="muted"
        style={{ fontSize: '0.85em' }}
        title="Every attempt counts: a record processed again after a crash or a replay counts twice"
      >
        processed {formatCountOf(counters.processed, 'record')} (each attempt counts)
      </div>
      {kind === 'flink' && <FlinkPanel view={view} idx={idx} t={t} />}
      {kind === 'spark' && <BatchList view={view} idx={idx} />}
    </section>
  );
}

function ProcessorCard({ view, status: p }: { view: RunView; status: ProcessorStatus }) {
  const target = targetNameOf(p.name);
  const poll = p.lastPoll;
  const ev =
    p.lastProcess && p.lastProcess.event >= 0
      ? eventIdOf(view.events, view.events.identity[p.lastProcess.event]!)
      : null;
  return (
    <ComponentBox
      id={target}
      anchor={p.name}
      title={<span className="mono">{p.name}</span>}
      life={p.life}
    >
      <dl className="kv" data-testid={testIds.processor} data-actor={p.name}>
        <dt>incarnation</dt>
        <dd>{p.incarnation}</dd>
        {poll && (
          <>
            <dt>last poll</dt>
            <dd>
              {poll.count} from offset {poll.offset}
              {p.processedInBatch > 0 ? ` · ${p.processedInBatch} done` : ''}
            </dd>
          </>
        )}
        {ev && (
          <>
            <dt>last processed</dt>
            <dd>
              <span className="mono">{ev}</span> @{p.lastProcess!.offset}
            </dd>
          </>
        )}
        {p.leftGroup && (
          <>
            <dt>group</dt>
            <dd
              className="warn"
              data-testid={testIds.leftGroup}
              title="Its poll timeout: the batch kept poll() waiting longer than max.poll.interval.ms. It has no generation now: its next offset commit fails, and its next poll() joins again from the committed offsets."
            >
              left at {formatMs(p.leftGroup.at)} (poll timeout) · removed at{' '}
              {formatMs(p.leftGroup.removeAt)} unless it polls first
            </dd>
          </>
        )}
        <dt>uncommitted</dt>
        <dd
          className={`since-commit${p.sinceCommit > 0 ? ' warn' : ''}`}
          data-testid={testIds.sinceCommit}
          data-value={p.sinceCommit}
          title="Records processed since this instance's last offset commit: what a crash now would replay"
        >
          {p.sinceCommit === 0
            ? 'none'
            : `${formatCount(p.sinceCommit)} processed since the last commit`}
        </dd>
      </dl>
    </ComponentBox>
  );
}

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

function FlinkPanel({ view, idx, t }: StageProps) {
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
          jobmanager · checkpoint coordinator
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

function BatchList({ view, idx }: { view: RunView; idx: number }) {
  const rows = batchRowsAt(view, idx);
  // One entry per micro-batch, newest first, in two short lines (as the checkpoints): a
  // four-column table cut its status off in the narrow processor column.
  return (
    <div className="table-scroll" style={{ maxHeight: '11em' }} tabIndex={0}>
      <ol
        className="checkpoints"
        data-testid={testIds.batchList}
        aria-label="Micro-batches, newest first"
      >
        {rows.length === 0 && <li className="muted">no micro-batch yet</li>}
        {rows.map((b) => (
          <li key={b.id} data-status={b.status}>
            <span>
              <strong>batch {b.id}</strong>{' '}
              {b.status === 'committed' ? '✓ committed' : '… planned (offset log)'}
            </span>
            <br />
            <span>planned {formatMs(b.plannedAt)}</span>
            {b.status === 'committed' && <span>committed {formatMs(b.committedAt)}</span>}
            {b.records > 0 && (
              <span>
                offsets {b.offset}–{b.offset + b.records - 1}
              </span>
            )}
            <span>{formatCountOf(b.records, 'record')}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** The sink: a table, an output topic, or an external service. */
export function SinkStage({ view, idx, t }: StageProps) {
  const s = view.scenario;
  const table = view.tables.find((x) => x.point === 'sink');
  const life = lifeAt(view, view.actors.indexOf('sink'), idx, t).life;
  const output = s.sink.type === 'kafka' ? view.topics.indexOf(s.sink.topic) : -1;
  const serviceActor = view.actors.indexOf('service');
  return (
    <section className="stage" aria-label="Sink">
      <h2>④ Sink</h2>
      {table && (
        <ComponentBox
          id="sink"
          anchor="sink"
          life={life}
          title={
            <span>
              {s.sink.type === 'table'
                ? 'PostgreSQL'
                : s.sink.type === 'delta'
                  ? 'Delta Lake'
                  : 'files'}{' '}
              <span className="mono">{table.label}</span>
            </span>
          }
        >
          {s.sink.type === 'table' && (
            <div className="muted mono" style={{ fontSize: '0.86em' }}>
              {sqlOf(s)}
            </div>
          )}
          <RowTable view={view} table={table} idx={idx} />
          <SinkSqlView view={view} />
        </ComponentBox>
      )}
      {output >= 0 && (
        <>
          <div className="muted" style={{ fontSize: '0.85em' }}>
            output topic <span className="mono">{view.topics[output]}</span> (on the Kafka cluster)
          </div>
          {view.logs
            .filter((l) => l.topic === output)
            .map((log) => (
              <PartitionLog key={log.name} view={view} log={log} idx={idx} />
            ))}
        </>
      )}
      {serviceActor >= 0 && <ServiceBox view={view} idx={idx} />}
    </section>
  );
}

function sqlOf(s: Scenario): string {
  if (s.sink.type !== 'table') return '';
  // Flink's JDBC exactly-once sink: the statements run in the epoch's XA transaction.
  if (s.sink.xa) return `${sqlShape(s.sink)} · in an XA transaction per checkpoint`;
  return sqlShape(s.sink);
}

function ServiceBox({ view, idx }: { view: RunView; idx: number }) {
  const fx = useMemo(() => effectsAt(view, idx), [view, idx]);
  const svc =
    view.scenario.sink.type === 'effect'
      ? view.scenario.sink.service
      : (view.scenario.processor.sideEffect?.service ?? 'card-charge');
  return (
    <ComponentBox
      id="service"
      anchor="service"
      title={svc === 'email' ? 'email service' : 'card charges (Stripe-style)'}
    >
      <div style={{ fontSize: '0.88em' }}>
        {svc === 'email'
          ? `${formatCountOf(fx.count, 'email')} sent`
          : `${formatCountOf(fx.count, 'charge')} · ${formatMoney(fx.sum)}`}
      </div>
      <ul className="muted" style={{ fontSize: '0.86em', margin: 0, paddingLeft: '1.1em' }}>
        {fx.recent.map((e) => (
          <li key={e}>
            #{view.cols.aux[e]} {eventIdOf(view.events, view.events.identity[view.cols.event[e]!]!)}{' '}
            at {formatMs(view.cols.time[e]!)}
          </li>
        ))}
      </ul>
    </ComponentBox>
  );
}

/** Downstream readers (their own tables), or what a reader of the sink table sees. */
export function ReaderStage({ view, idx, t }: StageProps) {
  const readers = view.tables.filter((x) => x.point.startsWith('reader:'));
  const c = countersAt(view, idx);
  return (
    <section className="stage" aria-label="Downstream reader" data-testid={testIds.readerPanel}>
      <h2>⑤ Reader</h2>
      {readers.map((tb) => {
        const i = view.scenario.readers.findIndex((r) => `reader:${r.name}` === tb.point);
        const name = `reader-${i}`;
        return (
          <ComponentBox
            key={tb.point}
            id={name}
            anchor={name}
            life={lifeAt(view, view.actors.indexOf(name), idx, t).life}
            title={
              // Name and isolation level on lines of their own: "read_uncommitted" alone fills
              // the narrow column.
              <span className="reader-title">
                <span className="mono">{view.scenario.readers[i]?.name ?? tb.label}</span>
                {view.scenario.readers[i] && (
                  <span className="mono reader-iso">
                    {view.scenario.readers[i]['isolation.level']}
                  </span>
                )}
              </span>
            }
          >
            <RowTable
              view={view}
              table={tb}
              idx={idx}
              testId={`${testIds.sinkTable}-${i}`}
              compact
            />
          </ComponentBox>
        );
      })}
      {readers.length === 0 && (
        <div className="component">
          <div style={{ fontWeight: 600 }}>a report reading {view.verdict.primaryLabel}</div>
          <div className="mono" style={{ fontSize: '0.86em' }}>
            SELECT count(*), sum(amount)
          </div>
          <dl className="kv">
            <dt>count</dt>
            <dd>{formatCount(c.rows)}</dd>
            <dt>sum</dt>
            <dd>{formatMoney(c.sum)}</dd>
            <dt>should be</dt>
            <dd>
              {/* The events sent so far and their amounts (the total only once all are sent).
                  Each figure whole: a narrow column wraps between them, never inside one. */}
              <span className="figure">{formatCount(c.expectedRows)}</span> ·{' '}
              <span className="figure">{formatMoney(c.sentAmount)}</span>
            </dd>
          </dl>
          {c.sum !== c.trueSum && c.final && (
            <p
              className="fate duplicated"
              // A narrow reader column beside the story: the words wrap, the amount stays whole
              // (breaking anywhere split it mid-figure: "$112,75 / 0").
              // Block, not .fate's inline-flex: as flex items the amount could not go to the next line.
              style={{ margin: '0.3em 0 0', whiteSpace: 'normal', display: 'block' }}
            >
              <span aria-hidden="true">⚠</span> the report is{' '}
              <span className="figure">{moneyOffWords(c.sum, c.trueSum)}</span>
            </p>
          )}
        </div>
      )}
    </section>
  );
}
