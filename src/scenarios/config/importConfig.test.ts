/**
 * Configuration files in, a scenario and its report out: one real-world file per format (written
 * by hand from the official docs' examples, in ./examples), unknown keys, refused values, malformed
 * lines, and the round trip — the scenario built from a config, run, gives the hand-derived guarantee.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario, simulate, sqlShape } from '../../engine';
import { getKnob } from '../guarantees';
import { encodeShare } from '../../views/io/shareCodec';
import { decodeShare } from '../../views/io/shareLink';
import { importConfig, type ConfigFile } from './importConfig';
// The files as written (Vite's ?raw import: scenarios/ holds no Node built-in).
import flinkConfig from './examples/config.yaml?raw';
import consumer from './examples/consumer.properties?raw';
import flinkConf from './examples/flink-conf.yaml?raw';
import producer from './examples/producer.properties?raw';
import spark from './examples/spark-query.properties?raw';
import transactional from './examples/transactional-producer.properties?raw';

const EXAMPLES: Record<string, string> = {
  'config.yaml': flinkConfig,
  'consumer.properties': consumer,
  'flink-conf.yaml': flinkConf,
  'producer.properties': producer,
  'spark-query.properties': spark,
  'transactional-producer.properties': transactional,
};

const example = (name: string): ConfigFile => ({
  name,
  text: EXAMPLES[name]!,
});

function imported(files: ConfigFile[]) {
  const r = importConfig(files);
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r;
}

const statusOf = (r: ReturnType<typeof imported>, key: string) =>
  r.keys.filter((k) => k.key === key).map((k) => k.status);

/** Run an import's scenario: its totals at the end and the observed guarantee. */
function runOf(r: ReturnType<typeof imported>) {
  const parsed = parseScenario(r.scenario);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const v = simulate(parsed.scenario).verdict;
  const primary = v.points.find((p) => p.name === v.primary)!;
  return { observed: v.observed, rows: primary.totals.rows, sum: primary.totals.observedSum };
}

describe('Kafka client .properties', () => {
  it('producer.properties: each key applied or listed as not modelled, with its line', () => {
    const r = imported([example('producer.properties')]);
    expect(r.kind).toBe('consumer');
    expect(r.base).toBe('lost-ack-retry/idempotence-on');
    expect(getKnob(r.scenario, 'producer.acks')).toBe(1);
    expect(getKnob(r.scenario, 'producer.enable.idempotence')).toBe(false);
    expect(getKnob(r.scenario, 'producer.linger.ms')).toBe(5);
    expect(r.keys.find((k) => k.key === 'acks')).toMatchObject({
      line: 11,
      status: 'applied',
      path: 'producer.acks',
    });
    // The continued line (value.serializer=…\ on two lines) is one key at its first line.
    expect(r.keys.find((k) => k.key === 'value.serializer')).toMatchObject({
      line: 16,
      value: 'org.apache.kafka.common.serialization.StringSerializer',
      status: 'ignored',
    });
    expect(statusOf(r, 'bootstrap.servers')).toEqual(['ignored']);
    expect(r.runnable).toBe(true);
  });

  it("consumer.properties: the consumer loop's keys, the assignor class as its strategy", () => {
    const r = imported([example('consumer.properties')]);
    expect(getKnob(r.scenario, 'processor.group.id')).toBe('payments-loader');
    expect(getKnob(r.scenario, 'processor.isolation.level')).toBe('read_committed');
    expect(getKnob(r.scenario, 'processor.partition.assignment.strategy')).toBe(
      'cooperative-sticky',
    );
    expect(statusOf(r, 'heartbeat.interval.ms')).toEqual(['ignored']);
  });

  it('an unknown key is listed as "not modelled"', () => {
    const r = imported([{ name: 'p.properties', text: 'acks=all\nmy.custom.key=7' }]);
    expect(r.keys.find((k) => k.key === 'my.custom.key')).toMatchObject({
      status: 'unknown',
      why: 'not modelled: not a key the lab knows, so it sets nothing',
      line: 2,
    });
  });

  // Kafka's clients, Flink and Spark all run past a key they do not know: a misspelt
  // enable.idempotence sets nothing, and the setting it meant keeps the workload's value. The
  // report must say which key was probably meant, not only "not modelled" as for a key the lab
  // knows and deliberately leaves out (bootstrap.servers).
  it('a misspelt key names the key it probably meant; a key far from any stays "not modelled"', () => {
    const r = imported([
      {
        name: 'p.properties',
        text: 'acks=1\nenable.idempotance=false\nenable.auto.commmit=false\nACKS=all\nmy.custom.key=7',
      },
    ]);
    const why = (key: string) => r.keys.find((k) => k.key === key)?.why;
    expect(why('enable.idempotance')).toBe(
      'not modelled: not a key the lab knows, so it sets nothing — did you mean enable.idempotence?',
    );
    expect(why('enable.auto.commmit')).toMatch(/did you mean enable\.auto\.commit\?$/);
    // Kafka's keys are case-sensitive: ACKS is not acks.
    expect(why('ACKS')).toMatch(/did you mean acks\?$/);
    expect(why('my.custom.key')).toBe('not modelled: not a key the lab knows, so it sets nothing');
    expect(statusOf(r, 'enable.idempotance')).toEqual(['unknown']);
  });

  // java.util.Properties#load keeps a key's last value; two files given together are read in
  // order, the later one over the earlier, so the earlier value sets nothing and must not be
  // reported as applied
  // (https://docs.oracle.com/en/java/javase/21/docs/api/java.base/java/util/Properties.html#load(java.io.Reader)).
  it('a key set twice: the last value is applied, the earlier one says what overrode it', () => {
    const r = imported([
      { name: 'producer.properties', text: 'acks=1\nretries=5\nretries=7' },
      { name: 'override.properties', text: 'retries=3' },
    ]);
    expect(getKnob(r.scenario, 'producer.retries')).toBe(3);
    expect(r.keys.filter((k) => k.key === 'retries')).toMatchObject([
      {
        line: 2,
        status: 'overridden',
        why: 'set again at producer.properties:3 (retries=7): the last value counts',
      },
      {
        line: 3,
        status: 'overridden',
        why: 'set again at override.properties:1 (retries=3): the last value counts',
      },
      { file: 'override.properties', line: 1, status: 'applied', path: 'producer.retries' },
    ]);
  });

  // The broker's and topic's settings the lab models (the Knobs tab's Broker group), from a
  // server.properties or a topic's configuration (https://kafka.apache.org/documentation/#brokerconfigs,
  // #topicconfigs): with acks=1 the leader's failure is the fault that loses, and these decide it.
  // They were "not a key the lab knows".
  it("a broker's server.properties sets the broker knobs the lab models; a default for auto-created topics says so", () => {
    const r = imported([
      example('producer.properties'),
      {
        name: 'server.properties',
        text: 'min.insync.replicas=2\nunclean.leader.election.enable=true\nreplica.lag.time.max.ms=10000\nreplica.fetch.wait.max.ms=250\nbroker.session.timeout.ms=6000\ntransaction.max.timeout.ms=600000\ndefault.replication.factor=3\nnum.partitions=6',
      },
    ]);
    expect(r.runnable).toBe(true);
    expect(getKnob(r.scenario, 'broker.min.insync.replicas')).toBe(2);
    expect(getKnob(r.scenario, 'broker.unclean.leader.election.enable')).toBe(true);
    expect(getKnob(r.scenario, 'broker.replica.lag.time.max.ms')).toBe(10000);
    expect(getKnob(r.scenario, 'broker.replica.fetch.wait.max.ms')).toBe(250);
    expect(getKnob(r.scenario, 'broker.broker.session.timeout.ms')).toBe(6000);
    expect(getKnob(r.scenario, 'broker.transaction.max.timeout.ms')).toBe(600000);
    // Defaults for topics the broker creates on its own: the workload's topic keeps its own.
    for (const key of ['default.replication.factor', 'num.partitions'])
      expect(r.keys.find((k) => k.key === key)).toMatchObject({
        status: 'ignored',
        why: expect.stringMatching(/^a default for topics created automatically/),
      });
  });

  // Kafka's ConfigDef.ValidString compares exactly: acks=ALL or isolation.level=READ_COMMITTED
  // is a ConfigException in the client ("String must be one of: all, -1, 0, 1"), not all
  // (ProducerConfig and ConsumerConfig define them with ValidString.in;
  // https://kafka.apache.org/documentation/#producerconfigs_acks lists the valid values).
  it("Kafka's enumerated values are read case-sensitively, as the clients read them", () => {
    for (const [text, error] of [
      [
        'acks=ALL',
        'p.properties:1: acks: expected 0, 1, all or -1, got "ALL" (Kafka reads them case-sensitively)',
      ],
      [
        'isolation.level=READ_COMMITTED',
        'p.properties:1: isolation.level: expected read_committed or read_uncommitted, got "READ_COMMITTED" (Kafka reads them case-sensitively)',
      ],
    ] as const)
      expect(importConfig([{ name: 'p.properties', text }])).toEqual({
        ok: false,
        errors: [error],
      });
    expect(
      getKnob(imported([{ name: 'p.properties', text: 'acks=all' }]).scenario, 'producer.acks'),
    ).toBe('all');
  });

  // The workload's own settings stay where the files are silent — and some are not Kafka's
  // defaults (max.in.flight.requests.per.connection 1, enable.auto.commit false: the story's).
  // A producer.properties that leaves max.in.flight unset runs with 5 in production
  // (https://kafka.apache.org/documentation/#producerconfigs_max.in.flight.requests.per.connection),
  // 1 here: the report must say which settings were the workload's, not the files'.
  it("lists the workload's settings the files leave unset, under their keys", () => {
    const r = imported([
      { name: 'p.properties', text: 'acks=1\nenable.idempotence=false\nretries=3' },
    ]);
    expect(r.kept).toEqual([
      { key: 'request.timeout.ms', path: 'producer.request.timeout.ms', value: 30000 },
      {
        key: 'max.in.flight.requests.per.connection',
        path: 'producer.max.in.flight.requests.per.connection',
        value: 1,
      },
      { key: 'enable.auto.commit', path: 'processor.enable.auto.commit', value: false },
      { key: 'auto.offset.reset', path: 'processor.auto.offset.reset', value: 'earliest' },
    ]);
    // A key the files set is theirs, not the workload's.
    expect(r.kept.map((k) => k.key)).not.toContain('retries');
  });

  it('a value Kafka refuses: the ConfigException the lab already uses, and no run', () => {
    const r = imported([{ name: 'p.properties', text: 'enable.idempotence=true\nacks=1' }]);
    expect(r.runnable).toBe(false);
    expect(r.keys.find((k) => k.key === 'acks')).toMatchObject({
      status: 'refused',
      why: 'ConfigException: Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence.',
    });
  });

  it('a value that is no value of its key, and a malformed line: the file, line and key named', () => {
    expect(importConfig([{ name: 'p.properties', text: 'acks=all\nretries=many' }])).toEqual({
      ok: false,
      errors: ['p.properties:2: retries: expected an integer, got "many"'],
    });
    // A Kafka client's time with a unit, as Flink's files write it: Kafka's LONG takes none, and
    // the message gives the milliseconds to write (it said only "expected an integer").
    expect(
      importConfig([{ name: 'producer.properties', text: 'acks=all\nrequest.timeout.ms=30s' }]),
    ).toEqual({
      ok: false,
      errors: [
        'producer.properties:2: request.timeout.ms: expected an integer number of milliseconds (Kafka reads no unit), got "30s": write 30000',
      ],
    });
    expect(importConfig([{ name: 'c.properties', text: 'session.timeout.ms=45 sec' }])).toEqual({
      ok: false,
      errors: [
        'c.properties:1: session.timeout.ms: expected an integer number of milliseconds (Kafka reads no unit), got "45 sec": write 45000',
      ],
    });
    expect(importConfig([{ name: 'p.properties', text: '# x\nclient.id=\\uZZZZ' }])).toEqual({
      ok: false,
      errors: ['p.properties:2: malformed \\uxxxx encoding: "\\uZZZZ"'],
    });
  });
});

describe('Flink config.yaml / flink-conf.yaml', () => {
  it('nested and flat keys, Flink durations, the KafkaSink guarantee', () => {
    const r = imported([example('config.yaml')]);
    expect(r.kind).toBe('flink');
    expect(getKnob(r.scenario, 'processor.execution.checkpointing.interval')).toBe(10_000);
    expect(getKnob(r.scenario, 'processor.execution.checkpointing.timeout')).toBe(600_000);
    expect(getKnob(r.scenario, 'processor.restart-strategy.type')).toBe('fixed-delay');
    expect(getKnob(r.scenario, 'processor.restart-strategy.fixed-delay.attempts')).toBe(3);
    expect(getKnob(r.scenario, 'processor.restart-strategy.fixed-delay.delay')).toBe(10_000);
    expect(getKnob(r.scenario, 'sink.deliveryGuarantee')).toBe('EXACTLY_ONCE');
    expect(r.keys.find((k) => k.key === 'restart-strategy.fixed-delay.attempts')?.line).toBe(11);
    expect(statusOf(r, 'state.backend.type')).toEqual(['ignored']);
  });

  it('a 10 s interval stretches the story’s times after the job’s start ×10; 1 s keeps them', () => {
    // flinkJob (src/scenarios/library/processor.ts): the job starts at 1 s, e1..e200 at 0,
    // e201..e250 and the crash's arming at 5 s = 1 s + 4 intervals of 1 s → 1 s + 4 × 10 s = 41 s.
    const r = imported([example('config.yaml')]);
    const events = r.scenario.workload.events!;
    expect([events[0]!.at, events[199]!.at, events[200]!.at, events[249]!.at]).toEqual([
      0, 0, 41_000, 41_000,
    ]);
    expect(r.scenario.faults).toMatchObject([{ id: 'TaskManager crash', at: 41_000 }]);
    expect(r.fitted).toMatch(/^the workload's times after the job's start stretched ×10 /);
    const same = imported([{ name: 'c.yaml', text: 'execution.checkpointing.interval: 1 s\n' }]);
    expect(same.scenario.workload.events![200]!.at).toBe(5_000);
    expect(same.fitted).toBeNull();
  });

  it('a list is shown as written: plain values joined with ";", maps as JSON', () => {
    // It read "[object Object],[object Object]" beside a known key.
    const r = imported([
      {
        name: 'config.yaml',
        text: 'execution.checkpointing.interval: 1 s\npipeline.jars: [a.jar, b.jar]\npipeline.cached-files:\n  - name: f\n    path: /x\n',
      },
    ]);
    expect(r.keys.find((k) => k.key === 'pipeline.jars')?.value).toBe('a.jar;b.jar');
    expect(r.keys.find((k) => k.key === 'pipeline.cached-files')).toMatchObject({
      value: '[{"name":"f","path":"/x"}]',
      line: 3,
    });
  });

  it('the legacy flink-conf.yaml: `restart-strategy: none` is restart-strategy.type', () => {
    const r = imported([example('flink-conf.yaml')]);
    expect(getKnob(r.scenario, 'processor.restart-strategy.type')).toBe('none');
    expect(getKnob(r.scenario, 'processor.execution.checkpointing.interval')).toBe(30_000);
    expect(getKnob(r.scenario, 'sink.deliveryGuarantee')).toBe('AT_LEAST_ONCE');
  });

  it('malformed YAML and a bad duration: the line named', () => {
    const bad = importConfig([{ name: 'config.yaml', text: 'a: 1\nb: [unclosed\n' }]);
    expect(bad.ok).toBe(false);
    // The YAML parser's sentence ends "at line 3, column 1:" before a code frame; the first line
    // alone ended on that colon and said the place twice. Now file:line:column, as a JSON file's.
    expect(
      importConfig([
        { name: 'config.yaml', text: 'execution:\n  checkpointing:\n\tinterval: 10s\n' },
      ]),
    ).toEqual({ ok: false, errors: ['config.yaml:3:1: Tabs are not allowed as indentation'] });
    expect(
      importConfig([{ name: 'config.yaml', text: 'execution.checkpointing.interval: soon' }]),
    ).toEqual({
      ok: false,
      errors: [
        'config.yaml:1: execution.checkpointing.interval: expected a duration such as "10 s", "500 ms" or "1 min", got "soon"',
      ],
    });
  });
});

describe('Spark Structured Streaming options', () => {
  it('trigger, maxOffsetsPerTrigger, startingOffsets, the sink by its format', () => {
    const r = imported([example('spark-query.properties')]);
    expect(r.kind).toBe('spark');
    expect(getKnob(r.scenario, 'processor.trigger.processingTime')).toBe(10_000);
    expect(getKnob(r.scenario, 'processor.maxOffsetsPerTrigger')).toBe(10);
    expect(getKnob(r.scenario, 'sink')).toMatchObject({ type: 'delta', txnAppId: 'q-orders' });
    expect(statusOf(r, 'checkpointLocation')).toEqual(['ignored']);
  });
});

describe('Spark: a JDBC sink', () => {
  // A team writing a stream to PostgreSQL tries format=jdbc first; Spark has no streaming JDBC
  // sink ("Data source jdbc does not support streamed writing") and its guide sends batch
  // writers through foreachBatch. The refusal only listed the formats.
  it('format=jdbc is refused saying to write it through foreachBatch', () => {
    expect(
      importConfig([{ name: 'q.properties', text: 'trigger=10 seconds\nformat=jdbc\n' }]),
    ).toEqual({
      ok: false,
      errors: [
        'q.properties:2: format: "jdbc" is no streaming sink: Spark\'s JDBC data source "does not support streamed writing"; a query writes to a database from foreachBatch (format=foreachBatch, the JDBC append of each micro-batch)',
      ],
    });
  });
});

describe('round trip: the scenario built from a config, run', () => {
  it(
    'acks=1 with idempotence off on the lost-ack story: e3 twice, at-least-once',
    { timeout: 60_000 },
    () => {
      // lost-ack-retry: ten events e1..e10 (amounts 10..100, sum 550), e3's acknowledgement lost.
      // enable.idempotence=false: the broker appends the retry again (Kafka: idempotence is what
      // dedupes retries, https://kafka.apache.org/documentation/#producerconfigs_enable.idempotence)
      // → 11 rows, sum 550 + 30 = 580: at-least-once.
      expect(runOf(imported([example('producer.properties')]))).toEqual({
        observed: 'at-least-once',
        rows: 11,
        sum: 580,
      });
    },
  );

  it(
    'a transactional producer (idempotent, acks=all): the retry is dropped, exactly-once',
    { timeout: 60_000 },
    () => {
      // Idempotence on: the broker recognises the retry of e3 by its sequence number → 10 rows, 550.
      expect(
        runOf(
          imported([example('transactional-producer.properties'), example('consumer.properties')]),
        ),
      ).toEqual({ observed: 'exactly-once', rows: 10, sum: 550 });
    },
  );
});

// A data engineer's sink is a real statement, not a knob: `from-config … sink.sql` read it as
// `.properties` ("INSERT=INTO payments …", three unknown keys) and ran the workload's plain INSERT,
// so the atlas blamed "a plain INSERT has no key" on a pipeline that has ON CONFLICT.
describe("a sink's SQL statement (.sql): INSERT … ON CONFLICT or MERGE", () => {
  const sql = (text: string, name = 'sink.sql'): ConfigFile => ({ name, text });
  const sinkOf = (r: ReturnType<typeof imported>) => r.scenario.sink as Record<string, unknown>;
  /** The lost-ack story with the application sending e1 (amount 10) again, as a new record. */
  const resent = (r: ReturnType<typeof imported>) =>
    runOf({
      ...r,
      scenario: {
        ...r.scenario,
        faults: [...(r.scenario.faults ?? []), { kind: 'app-resend', at: 0, event: 'e1' }],
      },
    });
  const UPSERT = [
    '-- payments-pg-writer, per record',
    'INSERT INTO public.payments (payment_id, amount, created_at)',
    'VALUES ($1, $2, $3)',
    'ON CONFLICT (payment_id) DO NOTHING;',
  ].join('\n');

  it('ON CONFLICT (payment_id) DO NOTHING: the statement and its key, each at its line', () => {
    const r = imported([example('consumer.properties'), sql(UPSERT)]);
    expect(r.kind).toBe('consumer');
    expect(sinkOf(r)).toMatchObject({
      type: 'table',
      name: 'payments',
      statement: 'on-conflict-do-nothing',
      key: 'business-id',
    });
    expect(r.keys.filter((k) => k.sql).map((k) => [k.line, k.key, k.path, k.value])).toEqual([
      [2, 'INSERT INTO public.payments', 'sink.name', 'payments'],
      [4, 'ON CONFLICT (payment_id) DO NOTHING', 'sink.statement', 'on-conflict-do-nothing'],
      [4, 'ON CONFLICT (payment_id) DO NOTHING', 'sink.key', 'business-id'],
      [4, 'ON CONFLICT (payment_id) DO NOTHING', 'sink.columns', '{"id":"payment_id"}'],
    ]);
  });

  it("the statements the lab shows name the user's key column, not the lab's id", () => {
    const r = imported([sql(UPSERT)]);
    expect(sinkOf(r).columns).toEqual({ id: 'payment_id' });
    const parsed = parseScenario(r.scenario);
    if (!parsed.ok || parsed.scenario.sink.type !== 'table') throw new Error('not a table sink');
    expect(sqlShape(parsed.scenario.sink)).toBe('INSERT … ON CONFLICT (payment_id) DO NOTHING');
  });

  it('a share link carries the names: the scenario it opens prints ON CONFLICT (payment_id)', () => {
    const r = imported([sql(UPSERT)]);
    const back = decodeShare(encodeShare(r.scenario));
    if (!back.ok) throw new Error(JSON.stringify(back.issues));
    if (back.scenario.sink.type !== 'table') throw new Error('not a table sink');
    expect(back.scenario.sink.columns).toEqual({ id: 'payment_id' });
    expect(sqlShape(back.scenario.sink)).toBe('INSERT … ON CONFLICT (payment_id) DO NOTHING');
  });

  it('DO UPDATE SET and MERGE: the column the update assigns is the amount’s name', () => {
    const upsert = imported([
      sql(
        'INSERT INTO t (pid, amt) VALUES ($1, $2) ON CONFLICT (pid) DO UPDATE SET amt = EXCLUDED.amt',
      ),
    ]);
    expect(sinkOf(upsert).columns).toEqual({ id: 'pid', amount: 'amt' });
    const merge = imported([
      sql(
        [
          'MERGE INTO public.payments t',
          'USING (VALUES ($1, $2)) AS s(pid, amt)',
          'ON t.pid = s.pid',
          'WHEN MATCHED THEN UPDATE SET amt = s.amt',
          'WHEN NOT MATCHED THEN INSERT (pid, amt) VALUES (s.pid, s.amt);',
        ].join('\n'),
      ),
    ]);
    expect(sinkOf(merge).columns).toEqual({ id: 'pid', amount: 'amt' });
    // The lab's own names: nothing to carry, the scenario as before.
    const labs = imported([
      sql('INSERT INTO p (id, amount) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING'),
    ]);
    expect(sinkOf(labs).columns).toBeUndefined();
  });

  it('a SET of several columns names the amount by its own column, not by the first one assigned', () => {
    // The upsert as written at work: every content column refreshed, user_id first.
    const several = imported([
      sql(
        [
          'INSERT INTO payments (id, user_id, amount, event_time)',
          'VALUES (?, ?, ?, ?)',
          'ON CONFLICT (id) DO UPDATE',
          'SET user_id = EXCLUDED.user_id,',
          '    amount = EXCLUDED.amount,',
          '    event_time = EXCLUDED.event_time;',
        ].join('\n'),
      ),
    ]);
    expect(several.keys.filter((k) => k.status === 'refused')).toEqual([]);
    expect(sinkOf(several)).toMatchObject({ statement: 'on-conflict-do-update', set: 'excluded' });
    expect(sinkOf(several).columns).toBeUndefined();
    // The user's amount column after a bookkeeping one: the column that takes its incoming value.
    const renamed = imported([
      sql(
        'INSERT INTO t (pid, amt) VALUES ($1, $2) ON CONFLICT (pid) DO UPDATE SET updated_at = now(), amt = EXCLUDED.amt',
      ),
    ]);
    expect(sinkOf(renamed).columns).toEqual({ id: 'pid', amount: 'amt' });
  });

  it('a quoted name that is no SQL identifier is refused at its line', () => {
    const r = importConfig([
      sql(
        'INSERT INTO payments (payment_id, amount)\nVALUES ($1, $2)\nON CONFLICT ("payment id") DO NOTHING;',
      ),
    ]);
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(r.runnable).toBe(false);
    const refused = r.keys.filter((k) => k.status === 'refused');
    expect(refused.map((k) => [k.file, k.line, k.path])).toEqual([['sink.sql', 3, 'sink.columns']]);
    expect(refused[0]!.why).toContain('"payment id" is no SQL identifier');
  });

  it(
    'run: a re-sent e1 (a new record, same payment_id) is one row under ON CONFLICT, two under a plain INSERT',
    { timeout: 60_000 },
    () => {
      // Ten payments e1..e10 (10..100, sum 550). The re-send is a new record idempotence does not
      // recognise; DO NOTHING keeps the first row of payment_id e1: 10 rows, 550. A plain INSERT
      // adds it: 11 rows, 560.
      expect(resent(imported([sql(UPSERT)]))).toEqual({
        observed: 'exactly-once',
        rows: 10,
        sum: 550,
      });
      const plain = 'INSERT INTO payments (payment_id, amount) VALUES ($1, $2)';
      const r = imported([sql(plain)]);
      expect(sinkOf(r)).toMatchObject({ statement: 'insert' });
      expect(resent(r)).toEqual({ observed: 'at-least-once', rows: 11, sum: 560 });
    },
  );

  it(
    'DO UPDATE SET amount = payments.amount + EXCLUDED.amount adds the re-sent amount again',
    { timeout: 60_000 },
    () => {
      const r = imported([
        sql(
          'INSERT INTO payments AS p (payment_id, amount)\nVALUES (?, ?)\nON CONFLICT (payment_id)\nDO UPDATE SET amount = p.amount + EXCLUDED.amount',
        ),
      ]);
      expect(sinkOf(r)).toMatchObject({ statement: 'on-conflict-do-update', set: 'add-excluded' });
      // One row per payment, e1's 10 counted twice: 10 rows, 560.
      expect(resent(r)).toMatchObject({ rows: 10, sum: 560 });
      const overwrite = imported([
        sql(
          'INSERT INTO payments (payment_id, amount) VALUES (?, ?) ON CONFLICT (payment_id) DO UPDATE SET amount = EXCLUDED.amount',
        ),
      ]);
      expect(sinkOf(overwrite)).toMatchObject({ set: 'excluded' });
      expect(resent(overwrite)).toEqual({ observed: 'exactly-once', rows: 10, sum: 550 });
    },
  );

  it('a key generated by the statement (gen_random_uuid()) is a uuid per attempt: no dedupe', () => {
    const r = imported([
      sql(
        'INSERT INTO payments (id, payment_id, amount) VALUES (gen_random_uuid(), $1, $2) ON CONFLICT (id) DO NOTHING',
      ),
    ]);
    expect(sinkOf(r)).toMatchObject({ key: 'uuid-per-attempt' });
    // Content columns, as the sink's table names them (event_time), are a content key.
    const content = imported([
      sql(
        'INSERT INTO payments (event_time, amount) VALUES ($1, $2) ON CONFLICT (event_time, amount) DO NOTHING',
      ),
    ]);
    expect(sinkOf(content)).toMatchObject({ key: ['time', 'amount'] });
  });

  // A sink.sql usually opens with its table: a plain INSERT into a table whose PRIMARY KEY is the
  // payment id fails on a second copy (unique_violation) — the table's DDL was refused.
  it(
    "a plain INSERT with the table's CREATE TABLE: its PRIMARY KEY is the key, a copy fails (23505)",
    { timeout: 60_000 },
    () => {
      const ddl = [
        'CREATE TABLE IF NOT EXISTS payments (',
        '  payment_id text PRIMARY KEY,',
        '  amount numeric NOT NULL',
        ');',
        'INSERT INTO payments (payment_id, amount) VALUES ($1, $2);',
      ].join('\n');
      const r = imported([sql(ddl)]);
      expect(sinkOf(r)).toMatchObject({ statement: 'insert', uniqueKey: true, key: 'business-id' });
      expect(r.keys.find((k) => k.path === 'sink.uniqueKey')).toMatchObject({
        line: 1,
        key: 'payment_id … PRIMARY KEY',
      });
      // e1 (10) inserted; its re-send, a new record with the same payment_id, fails with
      // unique_violation and the workload's consumer stops on a failed statement
      // (onStatementError=halt): 1 row, 10, e2..e10 never written.
      expect(resent(r)).toEqual({ observed: 'at-most-once', rows: 1, sum: 10 });
      // A table constraint names its columns; another table's DDL sets nothing.
      const other = imported([
        sql(
          'CREATE TABLE audit (id text, CONSTRAINT audit_pk PRIMARY KEY (id));\nCREATE TABLE payments (payment_id text, amount numeric, UNIQUE (payment_id));\nINSERT INTO payments VALUES ($1, $2);',
        ),
      ]);
      expect(other.keys.find((k) => k.path === 'sink.uniqueKey')).toMatchObject({
        line: 2,
        key: 'UNIQUE (payment_id)',
      });
    },
  );

  it('MERGE: the key from ON, WHEN MATCHED, a DISTINCT ON source', () => {
    const merge = [
      'MERGE INTO payments t',
      'USING (SELECT DISTINCT ON (payment_id) payment_id, amount FROM batch) s',
      'ON t.payment_id = s.payment_id',
      'WHEN MATCHED THEN DO NOTHING',
      'WHEN NOT MATCHED THEN INSERT (payment_id, amount) VALUES (s.payment_id, s.amount);',
    ].join('\n');
    const r = imported([sql(merge)]);
    expect(sinkOf(r)).toMatchObject({
      name: 'payments',
      statement: 'merge',
      key: 'business-id',
      merge: { whenMatched: 'do-nothing', dedupeSource: true },
    });
    expect(r.keys.find((k) => k.path === 'sink.merge.whenMatched')).toMatchObject({ line: 4 });
    const update = imported([
      sql(
        'MERGE INTO payments AS t USING (VALUES ($1, $2)) AS s(payment_id, amount) ON t.payment_id = s.payment_id WHEN MATCHED THEN UPDATE SET amount = s.amount WHEN NOT MATCHED THEN INSERT VALUES (s.payment_id, s.amount)',
      ),
    ]);
    expect(sinkOf(update)).toMatchObject({ statement: 'merge', merge: { whenMatched: 'update' } });
  });

  it('what PostgreSQL or the lab cannot run is refused naming the file and the line', () => {
    const errorsOf = (files: ConfigFile[]) => {
      const r = importConfig(files);
      return r.ok ? [] : r.errors;
    };
    // PostgreSQL refuses DO UPDATE without a conflict target.
    expect(
      errorsOf([
        sql(
          'INSERT INTO payments (payment_id, amount)\nVALUES ($1, $2)\nON CONFLICT DO UPDATE SET amount = 0',
        ),
      ]),
    ).toEqual([
      'sink.sql:3: ON CONFLICT DO UPDATE requires inference specification or constraint name (PostgreSQL refuses it): name the key, ON CONFLICT (payment_id)',
    ]);
    expect(errorsOf([sql('CREATE TABLE payments (payment_id text PRIMARY KEY);\n')])).toEqual([
      'sink.sql:1: no INSERT or MERGE: expected the sink’s statement',
    ]);
    expect(
      errorsOf([sql('BEGIN;\nINSERT INTO payments (payment_id) VALUES ($1);\nCOMMIT;')]),
    ).toEqual([
      "sink.sql:1: expected the sink's INSERT or MERGE statement, got BEGIN: give the statement the pipeline runs for each record, alone in its file",
    ]);
    expect(
      errorsOf([
        sql(
          'MERGE INTO payments t USING s ON t.id = s.id\nWHEN MATCHED THEN UPDATE SET amount = s.amount',
        ),
      ]),
    ).toEqual([
      'sink.sql:2: a sink MERGE needs WHEN NOT MATCHED THEN INSERT: without it no row is ever written',
    ]);
    // config.yaml configures the KafkaSink (sink.delivery-guarantee at its line 18): which sink?
    expect(errorsOf([example('config.yaml'), sql(UPSERT)])).toEqual([
      'sink.sql:2: a sink statement makes the Flink job write to PostgreSQL (its JDBC sink), and config.yaml:18 (sink.delivery-guarantee) configures its KafkaSink: give one of the two',
    ]);
  });

  // "a consumer or a Flink job writing to PostgreSQL": the Flink workload's statement was refused
  // ("writes to a kafka sink"), though Flink's JDBC sink is how such a job writes.
  it(
    "a Flink job's statement: its JDBC sink in place of the workload's KafkaSink and reader",
    { timeout: 60_000 },
    () => {
      const flink = sql('execution.checkpointing.interval: 1s\n', 'flink.yaml');
      const upsert = imported([flink, sql(UPSERT)]);
      expect(upsert.kind).toBe('flink');
      expect(upsert.scenario.sink).toMatchObject({
        type: 'table',
        name: 'payments',
        statement: 'on-conflict-do-nothing',
      });
      expect(upsert.scenario.readers).toEqual([]);
      // The KafkaSink's keys are no longer the workload's to keep.
      expect(upsert.kept.filter((k) => k.path.startsWith('sink.'))).toEqual([]);
      // flink-checkpoint-replay: e1..e250 (10..2,500, sum 313,750); the TaskManager crashes 50
      // records past a checkpoint and the restore replays those 50 into the sink (JdbcSink.sink is
      // at-least-once). DO NOTHING drops the replayed 50: 250 rows. A plain INSERT writes them
      // again: 300 rows, 50 twice, sum 313,750 + Σ e201..e250 (112,750) = 426,500 — the
      // library's flink-checkpoint-replay/plain-sink.
      expect(runOf(upsert)).toEqual({ observed: 'exactly-once', rows: 250, sum: 313_750 });
      const plain = imported([
        flink,
        sql('INSERT INTO payments (payment_id, amount) VALUES ($1, $2)'),
      ]);
      expect(runOf(plain)).toEqual({ observed: 'at-least-once', rows: 300, sum: 426_500 });
    },
  );
});

// A file that is no Kafka, Flink or Spark configuration: an Airflow DAG read as `.properties`
// ("from=airflow import DAG", four unknown keys) — read as a DAG now —, a dbt sources file or a
// scenario file ran the Kafka workload untouched and reported "guarantee end to end: exactly-once" (exit
// 0) for settings it never read. A file none of whose keys the lab knows is refused, naming it.
describe('a file that is no configuration the lab reads', () => {
  const refused = (files: ConfigFile[]) => {
    const r = importConfig(files);
    return r.ok ? [] : r.errors;
  };
  const READS =
    "from-config reads Kafka client .properties, a Flink config.yaml or flink-conf.yaml, a Spark query's options and a sink's .sql — or a dbt model's config and an Airflow DAG, a batch job's";
  // A DAG, a dbt model's .sql and its properties file are read now (importBatchConfig.test.ts);
  // a dbt properties file of no model still sets nothing.
  it('a dbt properties file of sources only: refused, saying what the lab reads of dbt', () => {
    const yml = 'version: 2\nsources:\n  - name: raw\n    tables:\n      - name: events\n';
    expect(refused([{ name: 'sources.yml', text: yml }])).toEqual([
      `sources.yml:2: a dbt properties file (sources:), not a configuration the lab reads: the lab reads a dbt model's config (its .sql's {{ config(…) }}, a properties file's models:, dbt_project.yml) onto a batch job's "batch.write" (docs/cli.md#batch-files); ${READS}`,
    ]);
  });
  it('a scenario file: refused, saying how to run it', () => {
    expect(refused([{ name: 'job.json', text: '{"version": 1, "batch": {}}' }])).toEqual([
      `job.json:1: a JSON file, not a configuration the lab reads: a scenario file runs as "delivery-lab job.json"; ${READS}`,
    ]);
  });
  it('only misspelt keys, or none: refused, each key with the one it probably meant', () => {
    expect(
      refused([{ name: 'p.properties', text: '# producer\nakcs=all\nenable.idempotance=true' }]),
    ).toEqual([
      `p.properties:2: none of its 2 keys is one the lab reads, so it would set nothing: akcs (line 2; did you mean acks?), enable.idempotance (line 3; did you mean enable.idempotence?); ${READS}`,
    ]);
    expect(refused([{ name: 'empty.properties', text: '# nothing yet\n' }])).toEqual([
      `empty.properties:1: no key at all (an empty file, or only comments); ${READS}`,
    ]);
  });
  it('a file with one known key beside unknown ones still runs (unknown keys listed)', () => {
    expect(refused([{ name: 'p.properties', text: 'akcs=all\nacks=1' }])).toEqual([]);
  });
});
