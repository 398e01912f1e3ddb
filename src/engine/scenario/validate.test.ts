import { describe, expect, it } from 'vitest';
import { parseScenario, parseScenarioJson, MAX_JSON_CHARS } from './validate';
import { LIMITS } from './limits';

const base = { version: 1, name: 'x', workload: { events: [{ id: 'e1', amount: 10, at: 0 }] } };
const paths = (v: unknown) => {
  const r = parseScenario(v);
  return r.ok ? [] : r.issues.map((i) => i.path);
};

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

  it('refuses unknown keys, wrong types and unknown kinds', () => {
    // An unknown key is named by its own path, at any depth (the top level too).
    expect(paths({ ...base, producer: { akcs: 'all' } })).toEqual(['producer.akcs']);
    expect(parseScenario({ ...base, producr: {} })).toEqual({
      ok: false,
      issues: [
        {
          path: 'producr',
          message: 'unknown key "producr": not a field here (misspelt, or a field of another kind)',
        },
      ],
    });
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

  it('refuses combinations the real systems refuse', () => {
    expect(paths({ ...base, sink: { type: 'delta' } })).toEqual(['sink.type']);
    // Flink had no path to an effect sink: it called nothing and counted every event lost.
    expect(paths({ ...base, processor: { type: 'flink' }, sink: { type: 'effect' } })).toEqual([
      'sink.type',
    ]);
    expect(paths({ ...base, processor: { type: 'spark' }, sink: { type: 'effect' } })).toEqual([]);
    expect(
      paths({
        ...base,
        sink: { type: 'table', statement: 'on-conflict-do-nothing', uniqueKey: false },
      }),
    ).toEqual(['sink.uniqueKey']);
    expect(
      paths({
        ...base,
        processor: { type: 'flink' },
        sink: { type: 'kafka', deliveryGuarantee: 'EXACTLY_ONCE' },
      }),
    ).toEqual(['processor.execution.checkpointing.interval', 'sink.transactionalIdPrefix']);
    // Spark's Kafka sink is at-least-once, without transactions: Flink's and the producer's
    // transaction settings would be ignored.
    expect(
      paths({
        ...base,
        processor: { type: 'spark' },
        sink: {
          type: 'kafka',
          deliveryGuarantee: 'EXACTLY_ONCE',
          transactionalIdPrefix: 'q',
          'transactional.id': 'q-0',
        },
      }),
    ).toEqual(['sink.deliveryGuarantee', 'sink.transactionalIdPrefix', 'sink.transactional.id']);
    expect(paths({ ...base, processor: { type: 'spark' }, sink: { type: 'kafka' } })).toEqual([]);
    // delivery.timeout.ms must cover linger.ms + request.timeout.ms (5 + 200000 here). Unset, the
    // producer raises it to that sum (KafkaProducer.configureDeliveryTimeout); set, it refuses.
    const raised = parseScenario({ ...base, producer: { 'request.timeout.ms': 200_000 } });
    expect(raised.ok && raised.scenario.producer['delivery.timeout.ms']).toBe(200_005);
    const r = parseScenario({
      ...base,
      producer: { 'request.timeout.ms': 200_000, 'delivery.timeout.ms': 120_000 },
    });
    expect(r.ok ? [] : r.issues).toEqual([
      {
        path: 'producer.delivery.timeout.ms',
        message:
          'ConfigException: delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms (here 5 + 200000 = 200005)',
      },
    ]);
    expect(
      paths({
        ...base,
        producer: { 'request.timeout.ms': 200_000, 'delivery.timeout.ms': 200_005 },
      }),
    ).toEqual([]);
    // ProducerConfig.postProcessAndValidateIdempotenceConfigs: enable.idempotence=true with acks=1
    // is refused on acks; a transactional.id with acks=1 and idempotence unset is refused because
    // acks=1 switched idempotence off — Kafka's "Cannot set a transactional.id…".
    const issuesOf = (producer: Record<string, unknown>) => {
      const x = parseScenario({ ...base, producer });
      return x.ok ? [] : x.issues;
    };
    expect(issuesOf({ acks: '1', 'enable.idempotence': true })).toEqual([
      {
        path: 'producer.acks',
        message:
          'ConfigException: Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence.',
      },
    ]);
    expect(issuesOf({ acks: '1', 'transactional.id': 't-1' })).toEqual([
      {
        path: 'producer.acks',
        message:
          'ConfigException: Cannot set a transactional.id without also enabling idempotence. (acks=1 switches the default idempotence off)',
      },
    ]);
    expect(issuesOf({ 'enable.idempotence': false, 'transactional.id': 't-1' })).toEqual([
      {
        path: 'producer.enable.idempotence',
        message:
          'ConfigException: Cannot set a transactional.id without also enabling idempotence.',
      },
    ]);
    expect(issuesOf({ 'transactional.id': 't-1' })).toEqual([]);
    // Kafka 4.x: more than 5 in flight is an error whenever idempotence is not explicitly false,
    // even with acks=1, which then switches the default idempotence off.
    const inFlight = parseScenario({
      ...base,
      producer: { acks: '1', 'max.in.flight.requests.per.connection': 6 },
    });
    expect(inFlight.ok ? [] : inFlight.issues).toEqual([
      {
        path: 'producer.max.in.flight.requests.per.connection',
        message:
          'ConfigException: To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. Current value is 6. (Set enable.idempotence=false to allow more.)',
      },
    ]);
    expect(
      paths({
        ...base,
        producer: {
          acks: '1',
          'enable.idempotence': false,
          'max.in.flight.requests.per.connection': 6,
        },
      }),
    ).toEqual([]);
  });

  it('enforces the limits', () => {
    expect(paths({ ...base, name: 'x'.repeat(LIMITS.stringLength + 1) })).toEqual(['name']);
    expect(
      paths({ ...base, workload: { generate: { count: LIMITS.generatedEvents + 1 } } }),
    ).toEqual(['workload.generate.count']);
    expect(paths({ ...base, stopAtMs: LIMITS.timeMs + 1 })).toEqual(['stopAtMs']);
  });

  it('checks the generator’s options, naming the field', () => {
    const gen = (generate: object) => ({
      ...base,
      workload: { generate: { count: 10, ...generate } },
    });
    const both = parseScenario(gen({ intervalMs: 5, ratePerSec: 200 }));
    expect(both.ok ? [] : both.issues).toEqual([
      { path: 'workload.generate.ratePerSec', message: 'give intervalMs or ratePerSec, not both' },
    ]);
    // intervalMs set to its default value is still set.
    expect(paths(gen({ intervalMs: 10, ratePerSec: 100 }))).toEqual([
      'workload.generate.ratePerSec',
    ]);
    expect(paths(gen({ ratePerSec: 0 }))).toEqual(['workload.generate.ratePerSec']);
    expect(paths(gen({ ratePerSec: 200, arrivals: 'poisson', keyChoice: 'random' }))).toEqual([]);
    expect(paths(gen({ arrivals: 'bursty' }))).toEqual(['workload.generate.arrivals']);
    expect(paths(gen({ keyChoice: 'hash' }))).toEqual(['workload.generate.keyChoice']);
    const noRange = parseScenario(gen({ amounts: 'random' }));
    expect(noRange.ok ? [] : noRange.issues).toEqual([
      {
        path: 'workload.generate.amountRange',
        message: 'amounts "random" needs amountRange { min, max }',
      },
    ]);
    expect(paths(gen({ amountRange: { min: 1, max: 5 } }))).toEqual([
      'workload.generate.amountRange',
    ]);
    expect(paths(gen({ amounts: 'random', amountRange: { min: 5, max: 1 } }))).toEqual([
      'workload.generate.amountRange.max',
    ]);
    expect(paths(gen({ amounts: 'random', amountRange: { min: 1.5, max: 5 } }))).toEqual([
      'workload.generate.amountRange.min',
    ]);
    expect(paths(gen({ amounts: 'random', amountRange: { min: 3, max: 3 } }))).toEqual([]);
  });

  it('refuses a generator whose last event falls beyond the time limit', () => {
    const r = parseScenario({
      ...base,
      workload: { generate: { count: LIMITS.generatedEvents, intervalMs: 1000 } },
    });
    expect(r.ok ? [] : r.issues).toEqual([
      {
        path: 'workload.generate.count',
        message: `the last event would come at 1999999000 ms, beyond the time limit (${LIMITS.timeMs} ms)`,
      },
    ]);
    // 604,801 events one second apart: the last at exactly 7 days, still accepted.
    expect(paths({ ...base, workload: { generate: { count: 604_801, ratePerSec: 1 } } })).toEqual(
      [],
    );
    expect(paths({ ...base, workload: { generate: { count: 604_802, ratePerSec: 1 } } })).toEqual([
      'workload.generate.count',
    ]);
  });

  it('a huge number gets one message, with the field’s own limit (not also zod’s safe-integer bound)', () => {
    const r = parseScenario({ ...base, stopAtMs: 1e20 });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.issues).toEqual([
        {
          path: 'stopAtMs',
          message: `at most 7 days (${LIMITS.timeMs.toLocaleString('en-US')} ms)`,
        },
      ]);
  });

  it('a number too large for a double (JSON 1e400, -1e400) is named in words, as every type error is', () => {
    // JSON.parse reads 1e400 as Infinity and -1e400 as -Infinity; zod refuses both as not a number.
    const r = parseScenarioJson(
      '{"version":1,"name":"x","workload":{"events":[{"id":"e1","amount":1e400,"at":-1e400}]}}',
    );
    expect(r).toEqual({
      ok: false,
      issues: [
        {
          path: 'workload.events.0.amount',
          message: 'expected a number, got a number too large to represent',
        },
        {
          path: 'workload.events.0.at',
          message: 'expected a number, got a negative number too large to represent',
        },
      ],
    });
    expect(parseScenarioJson('{"version":1e400,"name":"x"}')).toEqual({
      ok: false,
      issues: [
        {
          path: 'version',
          message:
            "expected the format's version number, a whole number from 1 (current: 1); got a number too large to represent",
        },
      ],
    });
  });

  it('an array nested 5,000 deep in version is refused naming the field, not serialised into the message', () => {
    let deep: unknown = [];
    for (let i = 1; i < 5000; i++) deep = [deep];
    expect(parseScenario({ version: deep, name: 'x' })).toEqual({
      ok: false,
      issues: [
        {
          path: 'version',
          message:
            "expected the format's version number, a whole number from 1 (current: 1); got an array",
        },
      ],
    });
  });

  it('a value nested thousands deep in any field is refused naming where it starts (zod would overflow the stack)', () => {
    // Found by the CLI fuzz test: an event id {"length": [[[…5,079 deep…]]]} — zod's min-length
    // check compares the nested array with a number, and Array#toString recurses 5,079 times.
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    const r = parseScenarioJson(
      `{"version":1,"name":"x","workload":{"events":[{"id":{"length":${deep(5079)}},"amount":1,"at":0}]}}`,
    );
    expect(r).toEqual({
      ok: false,
      issues: [
        {
          // The first 8 segments of the path to the 32nd level.
          path: 'workload.events.0.id.length.0.0.0…',
          message:
            'nested more than 32 levels deep (no field of a scenario is more than a few levels down)',
        },
      ],
    });
    // The same value built in memory (a share link's, the page's) is walked without recursion.
    let id: unknown = [];
    for (let i = 1; i < 5079; i++) id = [id];
    expect(
      parseScenario({ ...base, workload: { events: [{ id: { length: id }, amount: 1, at: 0 }] } }),
    ).toEqual(r);
    // A million levels (a 2 MB file): counted in the text, before JSON.parse takes seconds on it.
    const million = parseScenarioJson(`{"version":1,"name":"x","notes":${deep(999_000)}}`);
    expect(!million.ok && million.issues.map((i) => i.path)).toEqual(['notes.0.0.0.0.0.0.0…']);
    // Brackets inside strings (escaped quotes too) are text, not nesting.
    const quoted = JSON.stringify({ ...base, description: `\\"${'['.repeat(100)}` });
    expect(paths(JSON.parse(quoted))).toEqual([]);
    expect(parseScenarioJson(quoted).ok).toBe(true);
    // 32 levels are fine as far as nesting goes (the schema then says what is wrong).
    expect(paths({ ...base, notes: JSON.parse(deep(31)) as unknown })).toEqual(['notes']);
  });

  it('no message echoes more than 200 characters of the input (a long value, an unknown key, a record key)', () => {
    const long = 'k'.repeat(5000);
    const clipped = `${'k'.repeat(200)}… (5,000 characters)`;
    expect(parseScenario({ ...base, version: long })).toEqual({
      ok: false,
      issues: [
        {
          path: 'version',
          message: `expected the format's version number, a whole number from 1 (current: 1); got "${clipped}"`,
        },
      ],
    });
    // The path shows the unknown key clipped; the message does not repeat it.
    expect(parseScenario({ ...base, [long]: 1 })).toEqual({
      ok: false,
      issues: [
        {
          path: clipped,
          message:
            'unknown key (5,000 characters): not a field here (misspelt, or a field of another kind)',
        },
      ],
    });
    expect(parseScenario({ ...base, expect: { rows: { [long]: 1 } } })).toEqual({
      ok: false,
      issues: [{ path: `expect.rows.${clipped}`, message: 'invalid key: at most 200 characters' }],
    });
  });

  it('refuses versions from the future and non-objects, and reports JSON syntax errors at the root', () => {
    expect(paths({ ...base, version: 2 })).toEqual(['version']);
    expect(paths([1, 2])).toEqual(['']);
    const r = parseScenarioJson('{"version": 1,');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.issues[0]!.message).toMatch(/not valid JSON/);
    const comma = parseScenarioJson('{\n  "version": 1,\n}');
    expect(!comma.ok && comma.issues[0]!.message).toMatch(/ \(line 3 column 1\)$/);
    // V8 may quote the text: the issue stays on one line.
    const words = parseScenarioJson('not\njson');
    expect(!words.ok && words.issues[0]!.message).not.toContain('\n');
    expect(parseScenarioJson('\uFEFF  \n')).toEqual({
      ok: false,
      issues: [{ path: '', message: 'empty: expected a scenario (JSON)' }],
    });
    const big = parseScenarioJson(' '.repeat(MAX_JSON_CHARS + 1));
    expect(!big.ok && big.issues[0]!.message).toMatch(/too large/);
  });
});

describe('faults that could never fire are refused, naming the field', () => {
  const issues = (v: Record<string, unknown>) => {
    const r = parseScenario({ ...base, ...v });
    return r.ok ? [] : r.issues;
  };
  const one = (v: Record<string, unknown>, path: string, message: string) => {
    const found = issues(v);
    expect(found.map((i) => i.path)).toEqual([path]);
    expect(found[0]!.message).toContain(message);
  };
  const crash = (target: string, point: string) => ({ kind: 'crash', target, point });
  const flink = (interval: number | null) => ({
    processor: { type: 'flink', 'execution.checkpointing.interval': interval },
  });
  const reader = { readers: [{ name: 'r', topic: 'events' }] };

  it('a second fault with the same id, naming the first', () => {
    one(
      {
        faults: [
          { ...crash('consumer-0', 'now'), id: 'boom' },
          { kind: 'drop-response', link: 'produce', id: 'lost ack' },
          { ...crash('consumer-0', 'mid-batch'), id: 'boom' },
        ],
      },
      'faults.2.id',
      'duplicate fault id "boom": faults.0 has it already',
    );
    // Distinct ids, and any number of faults without one.
    expect(
      issues({
        faults: [
          { ...crash('consumer-0', 'now'), id: 'boom' },
          { ...crash('consumer-0', 'mid-batch'), id: 'boom 2' },
          crash('producer', 'now'),
          crash('producer', 'now'),
        ],
      }),
    ).toEqual([]);
  });

  it('a target that is no actor of this scenario, listing the targets', () => {
    one(
      { faults: [crash('consumer-3', 'now')] },
      'faults.0.target',
      'no component "consumer-3" (targets: producer, sink, broker-1, broker-2, broker-3, consumer-0)',
    );
    one(
      { ...flink(1000), faults: [crash('spark', 'now')] },
      'faults.0.target',
      'no component "spark"',
    );
    one(
      { ...reader, faults: [crash('reader-1', 'now')] },
      'faults.0.target',
      'no component "reader-1"',
    );
    // A Kafka sink is written by a producer client, not by a 'sink' actor.
    one(
      { sink: { type: 'kafka' }, faults: [crash('sink', 'now')] },
      'faults.0.target',
      'no component "sink"',
    );
    expect(
      issues({
        ...reader,
        processor: { type: 'consumer', instances: 4 },
        faults: [crash('consumer-3', 'now'), crash('reader-0', 'now'), crash('sink', 'now')],
      }),
    ).toEqual([]);
    expect(issues({ ...flink(1000), faults: [crash('flink', 'now')] })).toEqual([]);
  });

  it('a periodic crash on a target that processes no records', () => {
    const periodic = (target: string, point = 'now') => ({
      kind: 'periodic-crash',
      target,
      everyRecords: 10,
      point,
    });
    one(
      { ...reader, faults: [periodic('producer')] },
      'faults.0.target',
      'a periodic crash counts records processed: "producer" processes none (targets: consumer-0, reader-0)',
    );
    // The target is what is wrong, not the point.
    one(
      { faults: [periodic('broker-1', 'after-poll')] },
      'faults.0.target',
      '"broker-1" processes none',
    );
    expect(issues({ ...reader, faults: [periodic('consumer-0'), periodic('reader-0')] })).toEqual(
      [],
    );
    expect(issues({ ...flink(null), faults: [periodic('flink', 'mid-batch')] })).toEqual([]);
  });

  it('a rebalance or a zombie aimed at anything but a member of the consumer group', () => {
    const two = { processor: { type: 'consumer', instances: 2 }, ...reader };
    one(
      { ...two, faults: [{ kind: 'rebalance', target: 'reader-0' }] },
      'faults.0.target',
      '"reader-0" is not a member of the consumer group (targets: consumer-0, consumer-1)',
    );
    one(
      { ...two, faults: [{ kind: 'zombie', target: 'producer', pauseMs: 60_000 }] },
      'faults.0.target',
      '"producer" is not a member of the consumer group (targets: consumer-0, consumer-1)',
    );
    one(
      { ...flink(1000), faults: [{ kind: 'zombie', target: 'flink', pauseMs: 60_000 }] },
      'faults.0.kind',
      'a zombie is a consumer group member (processor.type "consumer")',
    );
    expect(
      issues({
        ...two,
        faults: [
          { kind: 'rebalance', target: 'consumer-1' },
          { kind: 'zombie', target: 'consumer-1', pauseMs: 60_000 },
        ],
      }),
    ).toEqual([]);
  });

  it('a Flink checkpoint crash point without checkpoints', () => {
    for (const point of ['before-barrier', 'after-precommit', 'after-checkpoint', 'during-commit'])
      one(
        { ...flink(null), faults: [crash('flink', point)] },
        'faults.0.point',
        `crash point "${point}" comes with a checkpoint, and processor.execution.checkpointing.interval is null`,
      );
    // Armed by records, it still waits for the point.
    one(
      {
        ...flink(null),
        faults: [
          {
            kind: 'random',
            what: 'crash',
            target: 'flink',
            point: 'after-checkpoint',
            probability: 0.1,
          },
        ],
      },
      'faults.0.point',
      'processor.execution.checkpointing.interval is null',
    );
    one(
      { faults: [crash('consumer-0', 'before-barrier')] },
      'faults.0.point',
      '"consumer-0" never reaches crash point "before-barrier", a step of a Flink checkpoint (flink); the points of consumer-0: now, after-poll, mid-batch, before-commit, after-commit',
    );
    expect(
      issues({
        ...flink(1000),
        faults: [
          'before-barrier',
          'after-precommit',
          'after-checkpoint',
          'during-commit',
          'mid-batch',
        ].map((p) => crash('flink', p)),
      }),
    ).toEqual([]);
  });

  it('a mid-batch crash after 0 records (the loop asks from its first record on); left out, it is 1', () => {
    one(
      { faults: [{ ...crash('consumer-0', 'mid-batch'), afterRecords: 0 }] },
      'faults.0.afterRecords',
      'afterRecords counts from 1 (the crash after the first record of the batch); for a crash before any, use point "after-poll"',
    );
    one(
      { ...flink(1000), faults: [{ ...crash('flink', 'mid-batch'), afterRecords: 0 }] },
      'faults.0.afterRecords',
      'the first record since the last barrier',
    );
    // The other points ignore it: a scenario saved with the old default 0 still loads.
    expect(
      issues({ faults: [{ ...crash('consumer-0', 'before-commit'), afterRecords: 0 }] }),
    ).toEqual([]);
    const r = parseScenario({ ...base, faults: [crash('consumer-0', 'mid-batch')] });
    expect(r.ok && r.scenario.faults[0]).toMatchObject({ point: 'mid-batch', afterRecords: 1 });
  });

  it('a Spark, consumer-loop or transaction crash point its target never reaches', () => {
    const spark = { processor: { type: 'spark' } };
    one(
      { faults: [crash('consumer-0', 'before-sink-write')] },
      'faults.0.point',
      'a step of a Spark micro-batch (spark)',
    );
    one(
      { ...spark, faults: [crash('spark', 'after-poll')] },
      'faults.0.point',
      '"spark" never reaches crash point "after-poll", a step of a consumer loop (consumer-N, reader-N); the points of spark: now, before-sink-write, after-sink-write',
    );
    // A reader commits after processing, never before.
    one(
      { ...reader, faults: [crash('reader-0', 'after-commit')] },
      'faults.0.point',
      '"reader-0" never reaches',
    );
    // Only a transactional producer commits transactions.
    one(
      { faults: [crash('producer', 'before-commit-transaction')] },
      'faults.0.point',
      'a step of a transaction commit',
    );
    one(
      { faults: [crash('consumer-0', 'after-commit-decision')] },
      'faults.0.point',
      'a step of a transaction commit',
    );
    expect(
      issues({
        ...spark,
        faults: [crash('spark', 'before-sink-write'), crash('spark', 'after-sink-write')],
      }),
    ).toEqual([]);
    expect(
      issues({
        ...reader,
        faults: [
          crash('reader-0', 'after-poll'),
          crash('reader-0', 'mid-batch'),
          crash('reader-0', 'before-commit'),
        ],
      }),
    ).toEqual([]);
    expect(
      issues({
        producer: { 'transactional.id': 't-1' },
        processor: { type: 'consumer', 'enable.auto.commit': false, commit: 'with-transaction' },
        sink: { type: 'kafka', 'transactional.id': 'copier-0' },
        faults: [
          crash('producer', 'before-commit-transaction'),
          crash('producer', 'after-commit-decision'),
          crash('consumer-0', 'before-commit-transaction'),
          crash('consumer-0', 'after-commit-decision'),
        ],
      }),
    ).toEqual([]);
  });

  it('a message fault on the checkpoint link without checkpoints', () => {
    one(
      { faults: [{ kind: 'drop-request', link: 'checkpoint' }] },
      'faults.0.link',
      'no checkpoint messages: only a Flink job checkpoints (processor.type "flink")',
    );
    one(
      { ...flink(null), faults: [{ kind: 'delay-response', link: 'checkpoint', delayMs: 100 }] },
      'faults.0.link',
      'no checkpoint messages: processor.execution.checkpointing.interval is null',
    );
    one(
      {
        ...flink(null),
        faults: [{ kind: 'random', what: 'drop-response', link: 'checkpoint', probability: 0.1 }],
      },
      'faults.0.link',
      'processor.execution.checkpointing.interval is null',
    );
    expect(
      issues({
        ...flink(1000),
        faults: [
          { kind: 'drop-request', link: 'checkpoint' },
          { kind: 'random', what: 'drop-response', link: 'checkpoint', probability: 0.1 },
        ],
      }),
    ).toEqual([]);
  });
});
