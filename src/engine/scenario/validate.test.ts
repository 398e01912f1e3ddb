/** Scenario validation: the fields, defaults and references of a scenario, and the processing settings that go together. */
import { describe, expect, it } from 'vitest';
import { parseScenario } from './validate';
import { base, paths } from './validateTesting';

describe('scenario validation names the field of every problem', () => {
  it('accepts a minimal scenario and fills the real defaults', () => {
    const r = parseScenario(base);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.scenario.producer.acks).toBe('all');
    expect(r.scenario.producer['delivery.timeout.ms']).toBe(120_000);
    expect(r.scenario.processor.type).toBe('consumer');
    expect(
      r.scenario.processor.type === 'consumer' && r.scenario.processor['enable.auto.commit'],
    ).toBe(true);
  });

  it("a batch job's field under its real system's name (Airflow's, dbt's, Redis's) names the field it is here", () => {
    // docs/semantics/batch.md: retry_delay is retryDelayMs (ms), Redis SET's EX is ttlMs (ms),
    // dbt's incremental_strategy is strategy; max_active_runs is not modelled.
    const job = (batch: object) =>
      parseScenario({
        version: 1,
        name: 'job',
        batch: { source: [{ id: 'o1', date: '2024-03-10' }], ...batch },
      });
    expect(
      job({
        task: { retry_delay: 300 },
        dedupe: { ttl: 60 },
        write: { mode: 'dbt-incremental', incremental_strategy: 'merge' },
        max_active_runs: 1,
      }),
    ).toEqual({
      ok: false,
      issues: [
        {
          path: 'batch.task.retry_delay',
          message:
            'unknown key "retry_delay": Airflow\'s retry_delay is "retryDelayMs" here, in milliseconds (timedelta(minutes=5): 300000)',
        },
        {
          path: 'batch.write.incremental_strategy',
          message:
            'unknown key "incremental_strategy": dbt\'s incremental_strategy is "strategy" here',
        },
        {
          path: 'batch.dedupe.ttl',
          message:
            'unknown key "ttl": Redis SET\'s EX seconds is "ttlMs" here, in milliseconds (EX 86400: 86400000)',
        },
        {
          path: 'batch.max_active_runs',
          message:
            'unknown key "max_active_runs": not modelled: runs that are due start at once (docs/semantics/batch.md, "What is not modelled")',
        },
      ],
    });
  });

  // A DAG's default_args put retries and retry_delay beside schedule and catchup; a dbt config puts
  // partition_by beside unique_key. Written at the batch job's top level they were "not a field
  // here" with no pointer to task or write (docs/semantics/batch.md; docs/format.md#batch-jobs).
  it("a batch job's field written in the wrong object names the path it has; Airflow's unmodelled arguments say so", () => {
    const job = (batch: object) =>
      parseScenario({
        version: 1,
        name: 'job',
        batch: { source: [{ id: 'o1', date: '2024-03-10' }], ...batch },
      });
    const r = job({
      retries: 2,
      retry_delay: 300,
      partition_by: 'event_date',
      ttlMs: 60_000,
      retry_exponential_backoff: true,
      end_date: '2024-03-12',
    });
    expect(r.ok ? [] : r.issues).toEqual([
      {
        path: 'batch.retries',
        message: 'unknown key "retries": a task\'s field — batch.task.retries here',
      },
      {
        path: 'batch.retry_delay',
        message:
          'unknown key "retry_delay": a task\'s field — batch.task.retryDelayMs here, in milliseconds (timedelta(minutes=5): 300000)',
      },
      {
        path: 'batch.partition_by',
        message:
          'unknown key "partition_by": the write\'s field — batch.write.partitionBy here: "logical-date", "clock" or "event-date"',
      },
      {
        path: 'batch.ttlMs',
        message: 'unknown key "ttlMs": the dedupe store\'s field — batch.dedupe.ttlMs here',
      },
      {
        path: 'batch.retry_exponential_backoff',
        message:
          'unknown key "retry_exponential_backoff": not modelled: every retry waits batch.task.retryDelayMs (docs/semantics/batch.md, "The scheduler")',
      },
      {
        path: 'batch.end_date',
        message:
          'unknown key "end_date": not a field: the last logical date is startDate + periods − 1 (batch.periods)',
      },
    ]);
  });

  // A content key written with the table's column names (the SQL export's event_time, user_id) or
  // with the id's spelling got "Invalid input", naming nothing (docs/semantics/batch.md#dedupe-keys,
  // docs/semantics/sinks.md#content-keys).
  it('a dedupe key or sink key the schema cannot read names what it takes, and the column meant', () => {
    const job = (dedupeKey: unknown) =>
      parseScenario({
        version: 1,
        name: 'job',
        batch: { dedupeKey, source: [{ id: 'o1', date: '2024-03-10' }] },
      });
    const COLUMNS = 'date, hour, time, user, item, amount';
    expect(job(['event_time', 'amount'])).toEqual({
      ok: false,
      issues: [
        {
          path: 'batch.dedupeKey',
          message: `"event_time" is no content column: a key is "event-id" or a list of ${COLUMNS}; did you mean "time" (the table's event_time)?`,
        },
      ],
    });
    expect(job('event_id')).toEqual({
      ok: false,
      issues: [
        {
          path: 'batch.dedupeKey',
          message: `"event_id" is no key: a key is "event-id" or a list of ${COLUMNS}; did you mean "event-id"?`,
        },
      ],
    });
    const sink = parseScenario({
      version: 1,
      name: 'sink',
      workload: { topic: 't', events: [{ id: 'e1', amount: 1, at: 0 }] },
      sink: { type: 'table', key: ['user_id'] },
    });
    expect(sink).toEqual({
      ok: false,
      issues: [
        {
          path: 'sink.key',
          message:
            '"user_id" is no content column: a key is "business-id", "uuid-per-attempt", "source-offset" or a list of time, user, item, amount; did you mean "user" (the table\'s user_id)?',
        },
      ],
    });
  });

  it('refuses unknown keys, wrong types and unknown kinds', () => {
    // An unknown key is named by its own path, at any depth (the top level too).
    expect(paths({ ...base, producer: { akcs: 'all' } })).toEqual(['producer.akcs']);
    expect(parseScenario({ ...base, producr: {} })).toEqual({
      ok: false,
      issues: [
        {
          path: 'producr',
          message:
            'unknown key "producr": not a field here (misspelt, or a field of another kind); did you mean "producer"?',
        },
      ],
    });
    // The field meant, of the object the key is in: a fault's of its kind, a swap of two letters
    // one edit; none where nothing is that close.
    const said = (input: object) =>
      parseScenario({ ...base, ...input }).ok === false
        ? (parseScenario({ ...base, ...input }) as { issues: { message: string }[] }).issues.map(
            (i) => /did you mean "([^"]+)"/.exec(i.message)?.[1] ?? null,
          )
        : [];
    expect(said({ producer: { akcs: 'all' } })).toEqual(['acks']);
    expect(
      said({ faults: [{ kind: 'drop-response', link: 'produce', mtach: { nth: 1 } }] }),
    ).toEqual(['match']);
    expect(
      said({ faults: [{ kind: 'crash', target: 'consumer-0', pont: 'before-commit' }] }),
    ).toEqual(['point']);
    expect(said({ processor: { type: 'flink', 'execution.checkpointing.intreval': 500 } })).toEqual(
      ['execution.checkpointing.interval'],
    );
    expect(said({ producer: { colour: 'red' } })).toEqual([null]);
    // No field near: an object of few fields lists them (expect has 4, expect.totals 5), so the
    // word meant is on the line — the guarantee a run shows is "observed"; the producer's 13
    // knobs are not listed.
    const message = (input: object) =>
      (parseScenario({ ...base, ...input }) as { issues: { message: string }[] }).issues.map(
        (i) => i.message,
      );
    expect(message({ expect: { guarantee: 'exactly-once' } })).toEqual([
      'unknown key "guarantee": not a field here (misspelt, or a field of another kind); its fields: totals, rows, observed, points, atlas',
    ]);
    expect(message({ expect: { totals: { sinkRows: 3 } } })).toEqual([
      'unknown key "sinkRows": not a field here (misspelt, or a field of another kind); its fields: rows, duplicates, lost, sum, events',
    ]);
    expect(message({ producer: { colour: 'red' } })).toEqual([
      'unknown key "colour": not a field here (misspelt, or a field of another kind)',
    ]);
    // Names Object.prototype has are unknown keys like any other (not its functions' source).
    expect(parseScenario({ ...base, constructor: 5 })).toEqual({
      ok: false,
      issues: [
        {
          path: 'constructor',
          message:
            'unknown key "constructor": not a field here (misspelt, or a field of another kind)',
        },
      ],
    });
    // Topic names as Kafka's Topic.validate accepts them: [a-zA-Z0-9._-], not '.' or '..'.
    expect(paths({ ...base, workload: { ...base.workload, topic: '<b>t</b>' } })).toEqual([
      'workload.topic',
    ]);
    expect(paths({ ...base, workload: { ...base.workload, topic: '..' } })).toEqual([
      'workload.topic',
    ]);
    expect(paths({ ...base, workload: { ...base.workload, topic: 'pay.ments_v-2' } })).toEqual([]);
    expect(paths({ ...base, producer: { retries: -1 } })).toEqual(['producer.retries']);
    expect(paths({ ...base, faults: [{ kind: 'explode' }] })).toEqual(['faults.0.kind']);
    expect(paths({ ...base, processor: { type: 'storm' } })).toEqual(['processor.type']);
  });

  it('checks references: fault targets, event ids, reader topics', () => {
    expect(paths({ ...base, faults: [{ kind: 'crash', target: 'consumer-7' }] })).toEqual([
      'faults.0.target',
    ]);
    expect(paths({ ...base, faults: [{ kind: 'app-resend', event: 'nope' }] })).toEqual([
      'faults.0.event',
    ]);
    expect(paths({ ...base, readers: [{ name: 'r', topic: 'out' }] })).toEqual(['readers.0.topic']);
  });

  it('reports every problem at once: a fault naming no component beside refused settings', () => {
    const crash9 = { kind: 'crash', target: 'consumer-9' };
    const ok = { kind: 'crash', target: 'consumer-0' };
    // acks and max.poll.records are not what a fault's target is checked against: all three.
    expect(
      paths({
        ...base,
        producer: { acks: 'two' },
        processor: { type: 'consumer', 'max.poll.records': -5 },
        faults: [ok, crash9],
      }),
    ).toEqual(['producer.acks', 'processor.max.poll.records', 'faults.1.target']);
    // A misspelt key is set aside the same way.
    expect(paths({ ...base, producer: { akcs: 'all' }, faults: [crash9] })).toEqual([
      'producer.akcs',
      'faults.0.target',
    ]);
    // processor.instances decides which consumer-N exist: its problem alone, no guess.
    expect(
      paths({ ...base, processor: { type: 'consumer', instances: 'ten' }, faults: [crash9] }),
    ).toEqual(['processor.instances']);
    // A fault refused by the schema: the other faults' checks wait for it (their indices hold).
    expect(paths({ ...base, faults: [{ kind: 'explode' }, crash9] })).toEqual(['faults.0.kind']);
  });

  it('refuses a random fault whose window ends before it starts (it would never fire)', () => {
    const random = { kind: 'random', what: 'drop-response', link: 'produce', probability: 0.5 };
    expect(paths({ ...base, faults: [{ ...random, at: 100, untilMs: 50 }] })).toEqual([
      'faults.0.untilMs',
    ]);
    expect(paths({ ...base, faults: [{ ...random, at: 100, untilMs: 100 }] })).toEqual([]);
  });

  it('refuses a commit before processing with parallel processing (the parallel loop commits its finished prefix after the work)', () => {
    const parallel = { mode: 'parallel', concurrency: 4 };
    const consumer = { type: 'consumer', 'enable.auto.commit': false, processing: parallel };
    expect(paths({ ...base, processor: { ...consumer, commit: 'before-processing' } })).toEqual([
      'processor.processing.mode',
    ]);
    expect(paths({ ...base, processor: { ...consumer, commit: 'after-processing' } })).toEqual([]);
  });

  it('refuses sendOffsetsToTransaction (commit with-transaction) outside a sync loop: one transaction wraps one polled batch', () => {
    const consumer = (mode: string) => ({
      ...base,
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        commit: 'with-transaction',
        processing: { mode },
      },
      sink: { type: 'kafka', topic: 'out', 'transactional.id': 'copier-0' },
    });
    expect(paths(consumer('handoff'))).toEqual(['processor.processing.mode']);
    expect(paths(consumer('parallel'))).toEqual(['processor.processing.mode']);
    expect(paths(consumer('sync'))).toEqual([]);
  });

  it('commit with-transaction: enable.auto.commit left out is false; set to true it is refused (sendOffsetsToTransaction: "the consumer should have enable.auto.commit=false")', () => {
    const tx = (processor: Record<string, unknown>) => ({
      ...base,
      processor: { type: 'consumer', commit: 'with-transaction', ...processor },
      sink: { type: 'kafka', topic: 'out', 'transactional.id': 'copier-0' },
    });
    const unset = parseScenario(tx({}));
    expect(unset.ok && unset.scenario.processor.type === 'consumer').toBe(true);
    if (unset.ok && unset.scenario.processor.type === 'consumer')
      expect(unset.scenario.processor['enable.auto.commit']).toBe(false);
    expect(paths(tx({ 'enable.auto.commit': true }))).toEqual(['processor.enable.auto.commit']);
    expect(paths(tx({ 'enable.auto.commit': false }))).toEqual([]);
    // Other commit modes keep Kafka's default, true.
    const plain = parseScenario({
      ...base,
      processor: { type: 'consumer', commit: 'after-processing' },
    });
    expect(
      plain.ok &&
        plain.scenario.processor.type === 'consumer' &&
        plain.scenario.processor['enable.auto.commit'],
    ).toBe(true);
  });

  it("refuses a session.timeout.ms the broker's group.min/max.session.timeout.ms would refuse (6 s–30 min)", () => {
    const consumer = (session: number) => ({
      ...base,
      processor: { type: 'consumer', 'session.timeout.ms': session },
    });
    expect(paths(consumer(5_999))).toEqual(['processor.session.timeout.ms']);
    expect(paths(consumer(1_800_001))).toEqual(['processor.session.timeout.ms']);
    expect(paths(consumer(6_000))).toEqual([]);
    expect(paths(consumer(1_800_000))).toEqual([]);
  });

  it("refuses a checkpoint interval under Flink's 10 ms minimum (CheckpointConfig.MINIMAL_CHECKPOINT_TIME)", () => {
    const flink = (interval: number) =>
      parseScenario({
        ...base,
        processor: { type: 'flink', 'execution.checkpointing.interval': interval },
      });
    const five = flink(5);
    expect(five.ok ? [] : five.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      'processor.execution.checkpointing.interval: at least 10',
    ]);
    expect(flink(10).ok).toBe(true);
  });

  it('a negative time with a minimum above 0 gets one message, naming that minimum', () => {
    const r = parseScenario({
      ...base,
      processor: { type: 'consumer', 'max.poll.interval.ms': -5 },
    });
    expect(r.ok ? [] : r.issues.map((i) => i.path)).toEqual(['processor.max.poll.interval.ms']);
    expect(r.ok ? '' : r.issues[0]!.message).toBe('at least 1');
  });

  it('a fractional time says it must be a whole number (not "expected an int, got a number")', () => {
    const r = parseScenario({
      ...base,
      processor: { type: 'consumer', 'max.poll.interval.ms': 1.5 },
    });
    expect(r.ok ? [] : r.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      'processor.max.poll.interval.ms: must be a whole number',
    ]);
  });

  it('refuses consumer-loop processing settings on a Flink job or a Spark query (they would be ignored)', () => {
    const job = { type: 'flink', 'execution.checkpointing.interval': 1000 };
    expect(paths({ ...base, processor: { ...job, processing: { mode: 'parallel' } } })).toEqual([
      'processor.processing.mode',
    ]);
    expect(
      paths({ ...base, processor: { type: 'spark', processing: { durationsMs: [10, 400] } } }),
    ).toEqual(['processor.processing.durationsMs']);
    expect(paths({ ...base, processor: { ...job, processing: { perRecordMs: 2 } } })).toEqual([]);
    expect(
      paths({ ...base, processor: { type: 'consumer', processing: { durationsMs: [10, 400] } } }),
    ).toEqual([]);
  });

  it("refuses Flink's JDBC exactly-once (XA) sink outside a checkpointing Flink job, or with retries", () => {
    const flinkJob = { type: 'flink', 'execution.checkpointing.interval': 1000 };
    const xa = { type: 'table', xa: true, retries: 0 };
    expect(paths({ ...base, processor: flinkJob, sink: xa })).toEqual([]);
    expect(paths({ ...base, sink: xa })).toEqual(['sink.xa']);
    expect(paths({ ...base, processor: { type: 'flink' }, sink: xa })).toEqual([
      'processor.execution.checkpointing.interval',
    ]);
    const r = parseScenario({ ...base, processor: flinkJob, sink: { type: 'table', xa: true } });
    expect(r.ok ? [] : r.issues).toEqual([
      {
        path: 'sink.retries',
        message:
          'the JDBC exactly-once (XA) sink requires maxRetries equal to 0 (a retry could write twice, FLINK-22311): set retries to 0',
      },
    ]);
  });

  it('a real config name the lab does not model, and a time written as "10s", get their own words', () => {
    const r = parseScenario({
      ...base,
      producer: { 'compression.type': 'lz4' },
      processor: { type: 'flink', 'execution.checkpointing.interval': '10s' },
    });
    expect(r.ok ? [] : r.issues).toEqual([
      {
        path: 'producer.compression.type',
        message:
          'unknown key "compression.type": a real setting this lab does not model (it changes no delivery outcome here)',
      },
      {
        path: 'processor.execution.checkpointing.interval',
        message: 'expected a number of virtual milliseconds, got a string (write 10000 for 10 s)',
      },
    ]);
  });
});

describe("the sink table's columns under the user's names (sink.columns)", () => {
  const withColumns = (columns: unknown) =>
    parseScenario({ ...base, sink: { type: 'table', name: 'payments', columns } });
  const messages = (r: ReturnType<typeof parseScenario>) =>
    r.ok ? [] : r.issues.map((i) => `${i.path}: ${i.message}`);

  it('takes SQL identifiers for the lab columns it names', () => {
    expect(withColumns({ id: 'payment_id', amount: 'Amount_EUR' }).ok).toBe(true);
    expect(messages(withColumns({ id: 'payment id' }))).toEqual([
      'sink.columns.id: "payment id" is no SQL identifier: a letter or _ first, then letters, digits, _ or $ (PostgreSQL: https://www.postgresql.org/docs/current/sql-syntax-lexical.html#SQL-SYNTAX-IDENTIFIERS)',
    ]);
    expect(messages(withColumns({ key: 'payment_id' }))[0]).toMatch(
      /^sink\.columns\.key: unknown key "key"/,
    );
  });

  it('refuses two columns of one name, at the renamed one', () => {
    // The lab's src is still src: naming the business id src too would be two columns src.
    expect(messages(withColumns({ id: 'src' }))).toEqual([
      'sink.columns.id: "src" names two columns (column id and column src): each column needs its own name',
    ]);
    expect(messages(withColumns({ id: 'ord' }))).toEqual([
      `sink.columns.id: "ord" names two columns (MERGE's ord and column id): each column needs its own name`,
    ]);
  });
});

describe('a value not in a set is refused naming the field, the value and the allowed ones', () => {
  const messages = (patch: Record<string, unknown>) => {
    const r = parseScenario({ ...base, ...patch });
    return r.ok ? [] : r.issues.map((i) => `${i.path}: ${i.message}`);
  };

  it('an enum, a union of literals, a switch: each says what came', () => {
    expect(messages({ producer: { acks: 2 } })).toEqual([
      'producer.acks: expected "0", "1", "all" or "-1", got 2',
    ]);
    expect(messages({ sink: { type: 'table', statement: 'upsert' } })).toEqual([
      'sink.statement: expected "insert", "on-conflict-do-nothing", "on-conflict-do-update" or "merge", got "upsert"',
    ]);
    expect(messages({ claim: 'once' })).toEqual([
      'claim: expected "at-most-once", "at-least-once" or "exactly-once", got "once"',
    ]);
    expect(messages({ producer: { 'enable.idempotence': 'maybe' } })).toEqual([
      'producer.enable.idempotence: expected true or false, got "maybe"',
    ]);
    // What came is quoted as any message quotes input: at most 200 characters of it.
    expect(messages({ claim: 'x'.repeat(300) })[0]).toMatch(/got "x{200}… \(300 characters\)"$/);
  });
});
