/**
 * The pipeline's topology as a mermaid flowchart, with the knobs that decide the guarantee
 * ({@link topologyFlowchart}; https://mermaid.js.org/syntax/flowchart.html).
 */
import {
  describeFault,
  effectiveIdempotence,
  flinkRestartStrategy,
  normalizeAcks,
  sinkWriteLabel,
  type Scenario,
} from '../../engine';
import { mermaidText, shortName } from './mermaidText';
import { shortFault } from './sequenceReader';
import { formatCountOf } from '../run/format';

/** A flowchart node label: escaped lines joined with `<br/>` (our markup, never the user's). */
function nodeLabel(lines: string[]): string {
  return lines.map((l) => mermaidText(l)).join('<br/>');
}

function onOff(v: boolean): string {
  return v ? 'true' : 'false';
}

/** The knobs of the producer that decide loss and duplication. */
function producerLines(s: Scenario): string[] {
  const p = s.producer;
  const acks = normalizeAcks(p.acks);
  const idem = effectiveIdempotence(p);
  const explicit = p['enable.idempotence'];
  const lines = [
    'producer',
    `acks=${acks} · enable.idempotence=${onOff(idem)}${explicit === undefined ? ' (default)' : ''}`,
    `retries=${p.retries} · max.in.flight=${p['max.in.flight.requests.per.connection']}`,
    `request.timeout.ms=${p['request.timeout.ms']} · delivery.timeout.ms=${p['delivery.timeout.ms']}`,
    `application ${p.app.mode} send · on failure ${p.app.onFailure}`,
  ];
  if (p['transactional.id'] !== undefined)
    lines.push(`transactional.id=${shortName(p['transactional.id'])}`);
  return lines;
}

function topicLines(s: Scenario): string[] {
  const b = s.broker;
  return [
    `topic ${shortName(s.workload.topic)}`,
    `${formatCountOf(b.partitions, 'partition')} · ${formatCountOf(b.brokers, 'broker')}`,
    `replication.factor=${b['replication.factor']} · min.insync.replicas=${b['min.insync.replicas']}`,
    `unclean.leader.election.enable=${onOff(b['unclean.leader.election.enable'])}`,
  ];
}

function processorLines(s: Scenario): string[] {
  const p = s.processor;
  const lines: string[] = [];
  switch (p.type) {
    case 'consumer': {
      lines.push(
        `consumer group ${shortName(p['group.id'])} (${formatCountOf(p.instances, 'instance')})`,
      );
      lines.push(
        p['enable.auto.commit']
          ? `enable.auto.commit=true · every ${p['auto.commit.interval.ms']} ms`
          : `enable.auto.commit=false · commit ${p.commit}`,
      );
      lines.push(
        `max.poll.records=${p['max.poll.records']} · isolation.level=${p['isolation.level']}`,
      );
      lines.push(`processing ${p.processing.mode} · on statement error ${p.onStatementError}`);
      break;
    }
    case 'flink': {
      const ck = p['execution.checkpointing.interval'];
      lines.push('Flink job');
      lines.push(
        ck === null
          ? 'checkpointing off'
          : `checkpoint every ${ck} ms · ${p['execution.checkpointing.mode']}`,
      );
      // Only when changed, so the usual job's diagram stays short.
      const timeout = p['execution.checkpointing.timeout'];
      const tolerable = p['execution.checkpointing.tolerable-failed-checkpoints'];
      if (ck !== null && (timeout !== 600_000 || tolerable !== 0))
        lines.push(`checkpoint timeout ${timeout} ms · tolerates ${tolerable} failed`);
      // The strategy in effect (restart-strategy.type, or Flink's default for the job).
      const restart = flinkRestartStrategy(p);
      lines.push(
        restart === 'fixed-delay'
          ? `restart fixed-delay ${p['restart-strategy.fixed-delay.delay']} ms · attempts ${p['restart-strategy.fixed-delay.attempts']}`
          : restart === 'none'
            ? 'restart strategy none'
            : 'restart exponential-delay (1 s ×1.5, max 1 min)',
      );
      if (p.offsetsInitializer !== 'committedOffsets')
        lines.push(`starting offsets ${p.offsetsInitializer}()`);
      break;
    }
    case 'spark': {
      lines.push('Spark query');
      lines.push(`trigger every ${p['trigger.processingTime']} ms`);
      lines.push(`startingOffsets=${p.startingOffsets}`);
      break;
    }
  }
  if (p.sideEffect)
    lines.push(
      `side effect ${p.sideEffect.service} · idempotency key ${p.sideEffect.idempotencyKey}`,
    );
  return lines;
}

function sinkLines(s: Scenario): string[] {
  const k = s.sink;
  switch (k.type) {
    case 'table': {
      const stmt = sinkWriteLabel(s.sink);
      const lines = [`table ${shortName(k.name)}`, `${stmt} per ${k.statementPer}`];
      if (k.statement === 'on-conflict-do-update')
        lines.push(
          k.set === 'add-excluded'
            ? 'SET amount = amount + EXCLUDED.amount'
            : 'SET amount = EXCLUDED.amount',
        );
      lines.push(
        `key ${k.key}${k.uniqueKey === undefined ? '' : ` · unique=${onOff(k.uniqueKey)}`}`,
      );
      if (k.dedupe) lines.push(`dedupe table, retention ${k.dedupe.retentionMs} ms`);
      if (k.xa) lines.push('XA transaction per checkpoint (JdbcSink.exactlyOnceSink)');
      // The field's name, and what it is: the client's wait (pgJDBC socketTimeout), not the
      // server's statement_timeout (the Knobs tab's name for it).
      lines.push(
        `statement.timeout.ms=${k['statement.timeout.ms']} (client socketTimeout) · retries=${k.retries}`,
      );
      return lines;
    }
    case 'delta':
      return [
        `Delta table ${shortName(k.name)}`,
        `${k.mode} · txnAppId=${k.txnAppId === null ? 'none' : shortName(k.txnAppId)}`,
      ];
    case 'file':
      return [`file sink ${shortName(k.name)}`, `${k.format}, with its metadata log`];
    case 'kafka': {
      const lines = [`topic ${shortName(k.topic)}`, formatCountOf(k.partitions, 'partition')];
      if (s.processor.type === 'flink')
        lines.push(`KafkaSink deliveryGuarantee=${k.deliveryGuarantee}`);
      if (k['transactional.id'] !== undefined)
        lines.push(`transactional.id=${shortName(k['transactional.id'])}`);
      if (k.transactionalIdPrefix !== undefined)
        lines.push(`transactionalIdPrefix=${shortName(k.transactionalIdPrefix)}`);
      return lines;
    }
    case 'effect':
      return [
        `service ${k.service}`,
        `idempotency key ${k.idempotencyKey} · retention ${k.retentionMs} ms`,
        `timeout.ms=${k['timeout.ms']} · retries=${k.retries}`,
      ];
  }
}

/** Which edge a network fault on `link` sits on. */
function linkEdge(link: string): [string, string] | null {
  switch (link) {
    case 'produce':
    case 'txn':
      return ['producer', 'topic'];
    case 'fetch':
    case 'commit':
      return ['topic', 'processor'];
    case 'sink':
    case 'effect':
      return ['processor', 'sink'];
    default:
      return null;
  }
}

/** The node a fault is attached to. */
function faultNode(s: Scenario, f: Scenario['faults'][number]): string {
  if ('link' in f) return linkEdge(f.link)?.[0] ?? 'processor';
  if ('target' in f) {
    const target = f.target;
    if (target === 'producer') return 'producer';
    if (target.startsWith('broker-')) return 'topic';
    if (target === 'sink') return 'sink';
    const m = /^reader-(\d+)$/.exec(target);
    if (m && Number(m[1]) < s.readers.length) return `reader${m[1]}`;
    return 'processor';
  }
  const what = f.kind === 'random' ? f.what : f.kind;
  if (what === 'leader-failover') return 'topic';
  if (what === 'app-resend' || what === 'source-duplicate') return 'producer';
  if (f.kind === 'abort-transaction' || f.kind === 'hang-transaction') return 'producer';
  return 'processor';
}

/**
 * The pipeline's topology as a flowchart (left to right), each component with the knobs that
 * decide what is lost or duplicated: `acks`, `enable.idempotence`, `retries`,
 * `max.in.flight.requests.per.connection`, replication, the commit mode, `isolation.level`, the
 * sink statement and its key, transactional ids, idempotency keys; readers with their isolation
 * level; and each scheduled fault as a hexagon attached to where it strikes.
 *
 * @param scenario - a validated scenario (defaults applied).
 * @returns mermaid `flowchart LR` text, ending with a newline.
 */
export function topologyFlowchart(scenario: Scenario): string {
  const s = scenario;
  const lines = ['flowchart LR'];
  lines.push(`  producer["${nodeLabel(producerLines(s))}"]`);
  lines.push(`  topic[("${nodeLabel(topicLines(s))}")]`);
  lines.push(`  processor["${nodeLabel(processorLines(s))}"]`);
  const sinkShape = s.sink.type === 'effect' ? ['{{"', '"}}'] : ['[("', '")]'];
  lines.push(`  sink${sinkShape[0]}${nodeLabel(sinkLines(s))}${sinkShape[1]}`);
  const write = sinkWriteLabel(s.sink);
  lines.push(`  producer -->|"${mermaidText('produce')}"| topic`);
  lines.push(`  topic -->|"${mermaidText('poll')}"| processor`);
  lines.push(`  processor -.->|"${mermaidText(commitEdge(s))}"| topic`);
  lines.push(`  processor -->|"${mermaidText(write)}"| sink`);
  s.readers.forEach((rd, i) => {
    lines.push(
      `  reader${i}["${nodeLabel([`reader ${shortName(rd.name)}`, `topic ${shortName(rd.topic)}`, `isolation.level=${rd['isolation.level']}`])}"]`,
    );
    const from = s.sink.type === 'kafka' && rd.topic === s.sink.topic ? 'sink' : 'topic';
    lines.push(`  ${from} -->|"${mermaidText('read')}"| reader${i}`);
  });
  s.faults.forEach((f, i) => {
    const when = f.at > 0 ? [`armed at ${f.at} ms`] : [];
    lines.push(`  fault${i}{{"${nodeLabel([`⚡ ${describeFault(shortFault(f))}`, ...when])}"}}`);
    lines.push(`  fault${i} -.- ${faultNode(s, f)}`);
    lines.push(`  class fault${i} fault`);
  });
  if (s.faults.length > 0) lines.push('  classDef fault fill:#fff1f0,stroke:#cf222e');
  return lines.join('\n') + '\n';
}

function commitEdge(s: Scenario): string {
  const p = s.processor;
  if (p.type === 'consumer')
    return p['enable.auto.commit'] ? 'auto-commit offsets' : `commit offsets (${p.commit})`;
  if (p.type === 'flink') return 'offsets in checkpoints';
  return 'offsets in its checkpoint';
}
