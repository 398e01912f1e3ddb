/**
 * `delivery-lab from-config`: the report ends with the guarantee end to end and the single-fault
 * atlas of the built scenario — which single fault breaks this configuration.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromConfigCommand } from './fromConfig';
import { captured } from './cliTesting';
import { main } from './main';

const examples = 'src/scenarios/config/examples';

const cli = (argv: string[]) => captured(fromConfigCommand, argv);

describe('from-config: the atlas line', () => {
  it('a transactional producer on the lost-ack story: exactly-once end to end; the first single fault that breaks it is an application re-send', () => {
    const r = cli([`${examples}/transactional-producer.properties`]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      "guarantee end to end: exactly-once (under lost-ack-retry/idempotence-on's fault)",
    );
    // A re-send is a new record with a new sequence: neither idempotence nor a transaction
    // dedupes it (https://kafka.apache.org/documentation/#semantics).
    expect(r.out).toContain(
      'the first fault that breaks it: the application sends e1 again, as a new record (at 100 ms): duplicates',
    );
    const json = JSON.parse(
      cli([`${examples}/transactional-producer.properties`, '--format', 'json']).out,
    ) as { atlas: { breaks: string; survives: boolean } };
    expect(json.atlas.survives).toBe(false);
  }, 120_000);

  it('a producer that breaks the workload\'s claim: the claim is named as the base preset\'s, not "its"', () => {
    // acks=1, idempotence off on the lost-ack story (base lost-ack-retry/idempotence-on, which
    // claims exactly-once): the lost ack's retry appends e1 again — at-least-once
    // (https://kafka.apache.org/documentation/#producerconfigs_enable.idempotence).
    const r = cli([`${examples}/producer.properties`]);
    expect(r.err).toBe('');
    expect(r.out).toContain(
      "guarantee end to end: at-least-once (under lost-ack-retry/idempotence-on's fault); the lost-ack-retry/idempotence-on workload claims exactly-once, and with your settings it breaks",
    );
    expect(r.out).not.toContain('breaks its');
  }, 120_000);

  it('a first break whose words give its time already is not timed twice', () => {
    // A transactional producer (payments-service-0), its consumer (read_committed) and a sink
    // keyed on the payment id: a re-send is collapsed by ON CONFLICT (payment_id), and the first
    // break is the producer dying before commitTransaction() — its open transaction aborted by
    // the restarted instance's initTransactions (docs/semantics/producer.md#producer-crash).
    // It read "… at 108 ms (the 1st time there) (at 108 ms): losses".
    const dir = mkdtempSync(join(tmpdir(), 'from-config-eos-'));
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const r = cli([
      file(
        'producer.properties',
        'acks=all\nenable.idempotence=true\ntransactional.id=payments-service-0\n',
      ),
      file('consumer.properties', 'enable.auto.commit=false\nisolation.level=read_committed\n'),
      file(
        'sink.sql',
        'INSERT INTO payments (payment_id, amount) VALUES ($1, $2)\nON CONFLICT (payment_id) DO NOTHING;\n',
      ),
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      'the first fault that breaks it: producer crashes before commitTransaction() at 108 ms (the 1st time there): losses',
    );
    // Those losses are the workload's application's, not the properties': it does not send again
    // what a crash left uncommitted (producer.app.onFailure skip). Said, with what to set —
    // with resend, the same files survive all 276 placements.
    expect(r.out).toContain(
      "note: the 10 losses come from a crash of the producer, and the workload's application sends nothing again after one (producer.app.onFailure = skip: docs/semantics/producer.md#producer-crash); your files cannot say what your code does: if it sends again what it never saw acknowledged or committed, set producer.app.onFailure to resend in the scenario (--scenario-out) and run it again",
    );
  }, 120_000);

  it('--skip-atlas leaves it out', () => {
    const r = cli([`${examples}/transactional-producer.properties`, '--skip-atlas']);
    expect(r.code).toBe(0);
    expect(r.out).not.toContain('single-fault atlas');
  }, 60_000);
});

// An engineer's CI step, as issue 23 promises it: `from-config … --check`. The runner's --explore
// is refused with the way to it: the report holds the single-fault atlas already, --check exits 3
// on a break, and pairs or kinds are the runner's, on the scenario --scenario-out writes.
describe("from-config: the runner's options it does not take", () => {
  it('--explore is refused with the way to --check and to the runner', () => {
    const r = cli([`${examples}/producer.properties`, '--explore']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain(
      "unknown option --explore: from-config's report ends with a stream pipeline's single-fault atlas (its summary and first break), and from-config … --check exits 3 when the run or a placement breaks the claim (the CI step)",
    );
    expect(r.err).toContain(
      'from-config … --scenario-out pipeline.json, then delivery-lab pipeline.json --explore --depth 2',
    );
  });

  it('--compare is refused with the way to the runner: --scenario-out, then --compare', () => {
    const r = cli([`${examples}/producer.properties`, '--compare', 'exactly-once']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      'unknown option --compare: from-config compares no lanes; write the scenario with from-config … --scenario-out pipeline.json, then delivery-lab pipeline.json --compare exactly-once',
    );
  });
});

describe('from-config --check: the one CI step', () => {
  const dir = mkdtempSync(join(tmpdir(), 'from-config-check-'));
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  // The engineer's pipeline of the page's atlas test (e2e/atlas.spec.ts), on lost-ack-retry: a
  // consumer committing automatically and a sink keyed by the payment id.
  const consumer = file(
    'consumer.properties',
    'enable.auto.commit=true\nisolation.level=read_uncommitted\n',
  );
  const sink = file(
    'sink.sql',
    'INSERT INTO payments (payment_id, amount) VALUES ($1, $2) ON CONFLICT (payment_id) DO NOTHING',
  );
  const producer = (acks: string) =>
    file(
      `producer-${acks}.properties`,
      `acks=${acks}\nretries=2147483647\nenable.idempotence=false\n`,
    );

  it('a run that holds and an atlas that breaks: exit 3, naming the first break (without --check: 0)', () => {
    // acks=1: the run holds exactly-once (the sink's ON CONFLICT (payment_id) keeps one row of a
    // retried record), but a leader failing right after appending e1, before its followers copy
    // it, loses e1 (https://kafka.apache.org/documentation/#producerconfigs_acks): 9 of the 185
    // placements lose a record so, the page's atlas test's counts (e2e/atlas.spec.ts).
    const files = [producer('1'), consumer, sink];
    const r = cli([...files, '--check']);
    expect(r.code).toBe(3);
    expect(r.err).toBe(
      'check: 9 of 185 single-fault placements break the exactly-once claim; the first: the leader of events-0 fails right after appending e1 at 107 ms, before its followers copy it: losses',
    );
    // The report on stdout is the one without --check; so is the exit code without it.
    const plain = cli(files);
    expect(plain.code).toBe(0);
    expect(r.out).toBe(plain.out);
    // The command that explores with what keeps it on that fault.
    expect(r.out).toContain(
      'to try the others: from-config … --scenario-out pipeline.json, then delivery-lab pipeline.json --set acks=all --explore',
    );
  }, 120_000);

  it('acks=all: the run and every placement hold, exit 0, said on stderr', () => {
    const r = cli([producer('all'), consumer, sink, '--check']);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(
      /^check: the exactly-once claim holds on the run and on each of the \d+ single-fault placements$/,
    );
    expect(r.out).toContain('the exactly-once claim survives every single fault tried');
  }, 120_000);

  it('--skip-atlas --check checks the run alone: the acks=1 pipeline passes, a run that breaks fails', () => {
    const held = cli([producer('1'), consumer, sink, '--skip-atlas', '--check']);
    expect(held.code).toBe(0);
    expect(held.err).toBe(
      "check: the run holds the exactly-once claim under lost-ack-retry/idempotence-on's fault (no atlas: --skip-atlas)",
    );
    // Idempotence off and a plain INSERT: the lost ack's retry appends e3 twice and the sink
    // writes both — at-least-once, not the workload's exactly-once.
    const broken = cli([`${examples}/producer.properties`, '--skip-atlas', '--check']);
    expect(broken.code).toBe(3);
    expect(broken.err).toBe(
      "check: the run breaks the exactly-once claim under lost-ack-retry/idempotence-on's fault: at-least-once observed",
    );
    // Without --check, a broken claim is a report, exit 0, as before.
    expect(cli([`${examples}/producer.properties`, '--skip-atlas']).code).toBe(0);
  }, 120_000);

  it('a fault that never fired: exit 3, said as not tested', () => {
    const r = cli([
      file('acks0.properties', 'acks=0\nenable.idempotence=false\n'),
      '--skip-atlas',
      '--check',
    ]);
    expect(r.code).toBe(3);
    expect(r.err).toBe(
      'check: not tested: lost-ack-retry/idempotence-on\'s fault never fired under your configuration (fault "lost ack", a lost acknowledgement, never fired: with acks=0 the broker sends no acknowledgement to lose)',
    );
  }, 60_000);

  it("a dbt model's files: the batch run alone (no atlas here), 3 when it breaks the claim", () => {
    // The example model with unique_key='event_id' and merge: the retry's MERGE updates the same
    // 10 rows — exactly-once. Without unique_key dbt appends (https://docs.getdbt.com/docs/build/incremental-models):
    // the retry writes the 10 rows again, 20 rows, 10 twice — at-least-once.
    const held = cli([`${examples}/events_incremental.sql`, '--check']);
    expect(held.code).toBe(0);
    expect(held.err).toBe(
      "check: the run holds the exactly-once claim under dbt-incremental-unique-key/no-unique-key's fault (no atlas: a batch job's is not run here: --scenario-out FILE, then delivery-lab FILE --explore --check)",
    );
    const model = readFileSync(`${examples}/events_incremental.sql`, 'utf8');
    const noKey = file('events_incremental.sql', model.replace("unique_key='event_id',", ''));
    const broken = cli([noKey, '--check']);
    expect(broken.code).toBe(3);
    expect(broken.err).toBe(
      "check: the run breaks the exactly-once claim under dbt-incremental-unique-key/no-unique-key's fault: at-least-once observed",
    );
    // Without --check: the report's finding, exit 0.
    expect(cli([noKey]).code).toBe(0);
  }, 60_000);

  it('--scenario-out: the fix command names the file written', () => {
    const out = join(dir, 'pipeline.json');
    const r = cli([producer('1'), consumer, sink, '--scenario-out', out]);
    expect(r.out).toContain(`to try the others: delivery-lab ${out} --set acks=all --explore`);
  }, 120_000);
});

describe('from-config: a workload fault that never fired tests nothing', () => {
  // lost-ack-retry/idempotence-on loses the broker's acknowledgement of e3 (src/scenarios/library/
  // producer.ts). With acks=0 the broker sends none (https://kafka.apache.org/documentation/#producerconfigs_acks),
  // so the fault has nothing to lose: a clean run, whose outcome the fault never tested. Before this
  // check the report claimed a guarantee, exit 0.
  const dir = mkdtempSync(join(tmpdir(), 'from-config-'));
  const file = join(dir, 'producer.properties');
  writeFileSync(file, 'acks=0\nenable.idempotence=false\n');
  const unfired =
    'fault "lost ack", a lost acknowledgement, never fired: with acks=0 the broker sends no acknowledgement to lose';

  it('says "not tested", names the fault, claims no guarantee, exit 3', () => {
    const r = cli([file, '--skip-atlas']);
    expect(r.err).toBe('');
    expect(r.code).toBe(3);
    expect(r.out).toContain(
      "guarantee end to end: not tested: the fault never fired under this configuration (lost-ack-retry/idempotence-on's fault)\n" +
        `  ⚠ ${unfired}`,
    );
    expect(r.out).not.toMatch(/guarantee end to end: (at|exactly)/);
  }, 60_000);

  it('--format json: guarantee.tested false with the fault that never fired', () => {
    const r = cli([file, '--skip-atlas', '--format', 'json']);
    expect(r.code).toBe(3);
    const json = JSON.parse(r.out) as { guarantee: { tested: boolean; unfired: string[] } };
    expect(json.guarantee.tested).toBe(false);
    expect(json.guarantee.unfired).toEqual([unfired]);
  }, 60_000);
});

describe('from-config: the Flink workload timed to a longer checkpoint interval', () => {
  // flink-checkpoint-replay crashes the TaskManager once 50 records follow a barrier, armed at 5 s
  // when e201..e250 arrive, in a job started at 1 s with a checkpoint every second
  // (src/scenarios/library/processor.ts). With the library's times a 30 s interval takes no
  // checkpoint before 31 s and the crash would never fire; so the times after the start stretch
  // ×30: e201..e250 and the crash at 1 s + 4 × 30 s = 121 s, after checkpoints at 31, 61, 91 and
  // 121 s — the library's story, four of your intervals long. Its counts are the story's: with
  // the 2PC sink, reader rc 250 rows; with sink.delivery-guarantee at-least-once, the 50
  // records processed before the crash are written again: 300 rows, 50 duplicates.
  const dir = mkdtempSync(join(tmpdir(), 'from-config-'));
  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  const stretched =
    "workload: the workload's times after the job's start stretched ×30 to your checkpoint interval (30 s): the second burst and the crash at 121 s, as the library's at 5 s with its 1 s interval";

  it('30 s: the crash fires, a tested exactly-once, exit 0, and the report says how the times moved', () => {
    const r = cli([
      write('thirty.yaml', 'execution.checkpointing.interval: 30 s\n'),
      '--skip-atlas',
    ]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`${stretched}\n`);
    expect(r.out).toContain(
      "guarantee end to end: exactly-once (under flink-checkpoint-replay/2pc-read-committed's fault)",
    );
    expect(r.out).not.toContain('never fired');
  }, 60_000);

  it('30 s with an at-least-once sink: 300 rows at reader rc, 50 duplicates — the story’s counts', () => {
    const out = join(dir, 'scenario.json');
    const r = cli([
      write(
        'alo.yaml',
        'execution.checkpointing.interval: 30 s\nsink.delivery-guarantee: at-least-once\n',
      ),
      '--skip-atlas',
      '--format',
      'json',
      '--scenario-out',
      out,
    ]);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out) as { fitted: string; guarantee: { observed: string } };
    expect(json.fitted).toBe(stretched.replace(/^workload: /, ''));
    expect(json.guarantee.observed).toBe('at-least-once');
    const run = captured(main, [out], { join: '' });
    expect(run.out).toContain('reader:rc: 300 rows for 250 events · 50 duplicate rows · 0 lost');
  }, 60_000);

  // The shipped flink-conf.yaml: at-least-once, 30 s, restart-strategy none. The crash ends the
  // job for good after it wrote all 250: no row twice, "exactly-once", and nothing said of the job
  // being down (the page's card: "flink × down").
  it('restart-strategy none: the guarantee says the job failed for good at the crash', () => {
    const r = cli([`${examples}/flink-conf.yaml`, '--skip-atlas']);
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      "guarantee end to end: exactly-once (under flink-checkpoint-replay/2pc-read-committed's fault)\n  ⚠ flink crashed at 121,071 ms and the job failed for good (restart-strategy.type=none): it processes nothing after that, and what it had not committed stays so",
    );
    const json = JSON.parse(
      cli([`${examples}/flink-conf.yaml`, '--skip-atlas', '--format', 'json']).out,
    ) as {
      guarantee: { jobFailedForGood?: unknown };
    };
    expect(json.guarantee.jobFailedForGood).toEqual({
      component: 'flink',
      atMs: 121_071,
      why: 'the job failed for good (restart-strategy.type=none)',
    });
  }, 60_000);

  it('4 s or less keeps the library’s times (its first checkpoint, 5 s, comes before the crash)', () => {
    const r = cli([write('four.yaml', 'execution.checkpointing.interval: 4 s\n'), '--skip-atlas']);
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      "guarantee end to end: exactly-once (under flink-checkpoint-replay/2pc-read-committed's fault)",
    );
    expect(r.out).not.toContain('never fired');
  }, 60_000);
});

describe('from-config: a Spark query silent on maxOffsetsPerTrigger', () => {
  // The Spark workload reads 10 offsets per micro-batch; Spark's own default is no limit
  // (https://spark.apache.org/docs/latest/structured-streaming-kafka-integration.html: "none").
  // The kept line said "(real default: —)": the Knobs tab has no such knob, and "—" said nothing.
  it('names Spark’s default beside the workload’s 10', () => {
    const dir = mkdtempSync(join(tmpdir(), 'from-config-'));
    writeFileSync(join(dir, 'q.properties'), 'trigger=10 seconds\nformat=delta\n');
    const r = cli([join(dir, 'q.properties'), '--skip-atlas']);
    expect(r.out).toContain(
      '  maxOffsetsPerTrigger=10  → processor.maxOffsetsPerTrigger (real default: none (no limit: a micro-batch takes every offset available))',
    );
    expect(r.out).not.toContain('real default: —');
  }, 60_000);
});

describe('from-config: a key set twice', () => {
  // java.util.Properties#load keeps the last value; a later file is read over an earlier one
  // (https://docs.oracle.com/en/java/javase/21/docs/api/java.base/java/util/Properties.html#load(java.io.Reader)).
  const dir = mkdtempSync(join(tmpdir(), 'from-config-'));
  writeFileSync(join(dir, 'ops.properties'), 'linger.ms=50\n');

  it('lists the earlier value as overridden, naming where it was set again, not as recognised', () => {
    const r = cli([`${examples}/producer.properties`, join(dir, 'ops.properties'), '--skip-atlas']);
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      `overridden (a later line or file sets the same knob) (1):\n  ${examples}/producer.properties:18  linger.ms=5  — set again at ${join(dir, 'ops.properties')}:1 (linger.ms=50): the last value counts`,
    );
    expect(r.out).not.toMatch(/producer\.properties:18 {2}linger\.ms=5 {2}→/);
  });
});

describe("from-config: the workload's settings the files leave unset", () => {
  // The lost-ack story's producer sends one request at a time; Kafka's default is 5
  // (https://kafka.apache.org/documentation/#producerconfigs_max.in.flight.requests.per.connection).
  // A producer.properties silent on it ran with 1, and nothing said so.
  it('are listed with the real default beside them, where they differ from it (request.timeout.ms 30000 does not), and in --format json as kept', () => {
    const r = cli([`${examples}/producer.properties`, '--skip-atlas']);
    expect(r.out).toContain(
      'kept from the workload (your files leave them unset; set them there to run with yours) (3):\n  max.in.flight.requests.per.connection=1  → producer.max.in.flight.requests.per.connection (real default: 5)',
    );
    expect(r.out).toContain(
      '  enable.auto.commit=false  → processor.enable.auto.commit (real default: true)',
    );
    // The story's 30 s request timeout is Kafka's own default: nothing to say.
    expect(r.out).not.toContain('request.timeout.ms=30000');
    const json = JSON.parse(
      cli([`${examples}/producer.properties`, '--skip-atlas', '--format', 'json']).out,
    ) as {
      kept: { key: string; value: unknown }[];
    };
    expect(json.kept).toContainEqual({
      key: 'max.in.flight.requests.per.connection',
      path: 'producer.max.in.flight.requests.per.connection',
      value: 1,
    });
  });
});

describe("from-config: the sink's SQL statement", () => {
  // A .sql file was read as .properties ("INSERT=INTO payments … — not a key the lab knows") and
  // the workload's plain INSERT ran: the atlas's 59 duplicates and its counterexample (a re-send,
  // "a plain INSERT has no key to collapse the copies") were about a sink this pipeline lacks.
  const dir = mkdtempSync(join(tmpdir(), 'from-config-sql-'));
  writeFileSync(
    join(dir, 'sink.sql'),
    'INSERT INTO payments (payment_id, amount, created_at)\nVALUES ($1, $2, $3)\nON CONFLICT (payment_id) DO NOTHING;\n',
  );
  writeFileSync(
    join(dir, 'producer.properties'),
    'acks=all\nenable.idempotence=true\nretries=2147483647\nmax.in.flight.requests.per.connection=5\n',
  );

  it('sets the statement and its key, and the atlas judges that sink', () => {
    const r = cli([join(dir, 'producer.properties'), join(dir, 'sink.sql')]);
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      `  ${join(dir, 'sink.sql')}:3  ON CONFLICT (payment_id) DO NOTHING  → sink.statement = on-conflict-do-nothing\n`,
    );
    expect(r.out).not.toContain('INSERT=INTO');
    expect(r.out).not.toContain('sink kept from the workload');
    // Plain INSERT: 212 placements, 153 held, 59 duplicate (10 lost sink responses, 10 delayed
    // past the socketTimeout, 19 consumer crashes before the offset commit, 10 re-sends, 10
    // source duplicates). Every duplicate is a second statement for the same payment_id, which
    // DO NOTHING drops: 212 held. (A lost produce request of e1 lost e1 until the requests sent
    // behind it on its connection were kept from reaching the broker ahead of it.) The summary
    // says it survives once: from-config added "It survives every single fault." after it.
    expect(r.out).toContain(
      'single-fault atlas: 212 placements: 212 held — the exactly-once claim survives every single fault tried.',
    );
    expect(r.out).not.toContain('It survives every single fault.');
  }, 120_000);

  it("--scenario-out keeps the user's key column: --format sql prints ON CONFLICT (payment_id)", () => {
    const out = join(dir, 'scenario.json');
    const r = cli([join(dir, 'sink.sql'), '--scenario-out', out, '--skip-atlas']);
    expect(r.code).toBe(0);
    const sql = captured(main, [out, '--format', 'sql'], { join: '' });
    expect(sql.code).toBe(0);
    expect(sql.out).toContain('INSERT INTO payments (payment_id, amount, src) VALUES');
    expect(sql.out).toContain('ON CONFLICT (payment_id) DO NOTHING;');
    expect(sql.out).toContain('CONSTRAINT payments_key UNIQUE (payment_id)');
    expect(sql.out).not.toMatch(/\(id[,)]/);
  }, 60_000);
});

describe("from-config: the workload's sink when no statement is given", () => {
  // Without a .sql file the lost-ack story's plain INSERT runs: its atlas's 59 duplicates ("a
  // plain INSERT has no key to collapse the copies") were read as the files' own, and nothing
  // said the sink was not the pipeline's.
  it('is named beside the kept keys, with how to give yours; --format json: sinkKept', () => {
    const r = cli([`${examples}/consumer.properties`, '--skip-atlas']);
    expect(r.out).toContain(
      'sink kept from the workload: a plain INSERT (no key: each copy of a record is another row) into table events — give your INSERT … ON CONFLICT or MERGE as a .sql file to run with yours\n',
    );
    const json = JSON.parse(
      cli([`${examples}/consumer.properties`, '--skip-atlas', '--format', 'json']).out,
    ) as { sinkKept: string | null };
    expect(json.sinkKept).toMatch(/^a plain INSERT /);
    // A Flink job's workload writes to a topic: no table sink to speak of.
    const flink = JSON.parse(
      cli([`${examples}/config.yaml`, '--skip-atlas', '--format', 'json']).out,
    ) as { sinkKept: string | null };
    expect(flink.sinkKept).toBeNull();
  }, 60_000);
});

describe("from-config: a downstream reader's consumer file", () => {
  // A consumer file whose group.id names one of the workload's readers is that reader's
  // (docs/cli.md#your-configuration-in): before, its isolation.level was a consumer loop's key,
  // ignored beside a Flink job. The Flink story's reader rc then reads the whole log of "out" —
  // e201..e250 twice (the aborted transactions, then their replay): 300 rows, 50 twice, as ru.
  const dir = mkdtempSync(join(tmpdir(), 'from-config-reader-'));
  const at = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };

  it('group.id=rc: its isolation.level is reader rc’s, its other keys not modelled', () => {
    const out = join(dir, 'scenario.json');
    const rc = at(
      'rc.properties',
      'group.id=rc\nisolation.level=read_uncommitted\nmax.poll.records=50\n',
    );
    const r = cli([
      at('config.yaml', 'execution.checkpointing.interval: 1 s\n'),
      rc,
      '--skip-atlas',
      '--scenario-out',
      out,
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      `  ${rc}:1  group.id=rc  → readers.0 (names reader rc: this file is its consumer's configuration)\n`,
    );
    expect(r.out).toContain(
      `  ${rc}:2  isolation.level=read_uncommitted  → readers.0.isolation.level\n`,
    );
    expect(r.out).toContain(`  ${rc}:3  max.poll.records=50  — reader rc's file (group.id=rc)`);
    const run = captured(main, [out], { join: '' });
    expect(run.out).toContain('reader:rc: 300 rows for 250 events · 50 duplicate rows · 0 lost');
  }, 60_000);
});

describe('from-config: the claim the verdict checks is no file’s', () => {
  const producer = `${examples}/producer.properties`;

  it('says the claim is the workload’s, and --claim checks another', () => {
    const r = cli([producer, '--skip-atlas']);
    expect(r.out).toContain(
      "claim checked: exactly-once — the workload's (lost-ack-retry/idempotence-on), not your files': a configuration claims no guarantee; --claim at-most-once|at-least-once|exactly-once checks the one your pipeline promises",
    );
    const chosen = cli([producer, '--skip-atlas', '--claim', 'at-least-once', '--format', 'json']);
    const json = JSON.parse(chosen.out) as { claim: unknown; scenario: { claim: string } };
    expect(json.claim).toEqual({ value: 'at-least-once', from: 'chosen' });
    expect(json.scenario.claim).toBe('at-least-once');
    expect(cli([producer, '--skip-atlas', '--claim', 'at-least-once']).out).toContain(
      'claim checked: at-least-once (--claim)\n',
    );
  }, 60_000);

  it('refuses a claim that is none of the three, naming what it got', () => {
    const r = cli([producer, '--claim', 'once']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('--claim: expected at-most-once, at-least-once or exactly-once, got "once"');
  });
});

describe('from-config --on: the files on a chosen library workload and its faults', () => {
  const producer = `${examples}/producer.properties`;

  it('sets the keys on that workload', () => {
    const r = cli([
      producer,
      '--on',
      'flink-checkpoint-replay/2pc-read-committed',
      '--skip-atlas',
      '--format',
      'json',
    ]);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out) as {
      base: string;
      kind: string;
      scenario: { processor: { type: string } };
    };
    expect([json.base, json.kind, json.scenario.processor.type]).toEqual([
      'flink-checkpoint-replay/2pc-read-committed',
      'flink',
      'flink',
    ]);
  }, 60_000);

  it('refuses an unknown workload, listing the close names', () => {
    const r = cli([producer, '--on', 'flink-checkpoint-replya/2pc-read-committed']);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      '--on "flink-checkpoint-replya/2pc-read-committed": no library workload of that name; did you mean flink-checkpoint-replay/2pc-read-committed, flink-checkpoint-replay/plain-sink, flink-checkpoint-replay/upsert, flink-checkpoint-replay/2pc-read-uncommitted, flink-checkpoint-replay/2pc-jdbc-xa (and 1 more) (see delivery-lab --list)',
    );
    expect(cli([producer, '--on', 'lost-ack-retry/idempotence']).err).toBe(
      '--on "lost-ack-retry/idempotence": no library workload of that name; the preset "lost-ack-retry" has variants idempotence-off, idempotence-on, acks-1, retries-0 (see delivery-lab --list)',
    );
  });

  it("refuses another processor's configuration on it, and a batch job", () => {
    const flink = cli([`${examples}/config.yaml`, '--on', 'lost-ack-retry/idempotence-on']);
    expect(flink.code).toBe(2);
    expect(flink.err).toMatch(
      /^src\/scenarios\/config\/examples\/config\.yaml:\d+: \S+: a Flink job's key, and --on lost-ack-retry\/idempotence-on runs a consumer loop: give its own processor's configuration$/,
    );
    const batch = cli([producer, '--on', 'airflow-retry-append/overwrite']);
    expect(batch.code).toBe(2);
    expect(batch.err).toMatch(/^--on "airflow-retry-append\/overwrite": a scheduled batch job/);
  });
});

describe('from-config: a value not in a set names the value it got', () => {
  it('acks=2: the line, the key, the value and what Kafka takes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'from-config-acks-'));
    writeFileSync(join(dir, 'producer.properties'), 'acks=2\n');
    const r = cli([join(dir, 'producer.properties')]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `${join(dir, 'producer.properties')}:1: acks: expected 0, 1, all or -1, got "2"`,
    );
  });
});

describe('from-config: a refused value says whose refusal it is', () => {
  it('a sink column name PostgreSQL cannot take is no Kafka or Flink refusal', () => {
    // The lab's own rule for the names it writes into the SQL (docs/sql.md#your-names): a quoted
    // "payment id" is refused at its line, and nothing runs.
    const dir = mkdtempSync(join(tmpdir(), 'from-config-refused-'));
    writeFileSync(
      join(dir, 'sink.sql'),
      'INSERT INTO payments (payment_id, amount)\nVALUES ($1, $2)\nON CONFLICT ("payment id") DO NOTHING;\n',
    );
    const r = cli([join(dir, 'sink.sql')]);
    expect(r.code).toBe(2);
    expect(r.out).toContain('"payment id" is no SQL identifier');
    expect(r.out).toContain(
      'guarantee end to end: none — the lab refuses a value of this configuration (above)',
    );
    expect(r.out).not.toContain('Kafka or Flink would refuse');
  });
});

// A batch job's files (docs/cli.md#batch-files): the S21 story (10 events of 2024-03-10; try 1
// writes them, commits, then fails its post-load check; retries=1 runs try 2).
describe('from-config: a dbt model and an Airflow DAG', () => {
  const model = `${examples}/events_incremental.sql`;
  const dag = `${examples}/load_events.py`;
  const file = (name: string, text: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'from-config-batch-'));
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };

  it("the example model (unique_key='event_id', merge) and DAG: each setting at its line, and the merge's 10 rows", () => {
    const r = cli([model, dag]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toBe(
      'dbt and Airflow settings on the library batch workload dbt-incremental-unique-key/no-unique-key',
    );
    expect(lines).toContain(
      `  ${model}:6  unique_key='event_id'  → batch.write.uniqueKey (the event id → batch.dedupeKey = "event-id")`,
    );
    expect(lines).toContain(`  ${dag}:10  default_args.retries=1  → batch.task.retries`);
    expect(lines).toContain(
      `  ${model}:8  on_schema_change='fail'  — read, not modelled: the lab's target keeps its columns`,
    );
    // Try 2 merges the same 10 rows: 10 rows, 10+20+…+100 = 550.
    expect(lines).toContain(
      'Rows 10, sum 550 of 550; duplicates 0, lost 0 (false merges 0), rows under the wrong partition 0.',
    );
    expect(lines).toContain(
      "guarantee end to end: exactly-once (under dbt-incremental-unique-key/no-unique-key's fault)",
    );
  });

  it('a model without unique_key on airflow-retry-append: append-only, 20 rows, the claim broken', () => {
    const bare = file('events.sql', "{{ config(materialized='incremental') }}\nselect 1\n");
    const r = cli([bare, '--on', 'airflow-retry-append', '--format', 'json']);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out) as {
      kind: string;
      base: string;
      notes: string[];
      totals: { rows: number; duplicates: number; observedSum: number };
      guarantee: { observed: string; held: boolean; tested: boolean };
    };
    expect(json.kind).toBe('batch');
    expect(json.base).toBe('airflow-retry-append/append');
    expect(json.notes[0]).toMatch(/^unique_key not given: batch.write.uniqueKey = false/);
    expect(json.totals).toMatchObject({ rows: 20, duplicates: 10, observedSum: 1100 });
    expect(json.guarantee).toMatchObject({ observed: 'at-least-once', held: false, tested: true });
  });

  it('a strategy dbt refuses: exit 2, the file, the line, the value and the allowed ones', () => {
    const bad = file('events.sql', "{{ config(\n  incremental_strategy='upsert'\n) }}\n");
    const r = cli([bad]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `${bad}:2: incremental_strategy: expected "append", "merge", "delete+insert" or "insert_overwrite", got "upsert" (https://docs.getdbt.com/docs/build/incremental-strategy)`,
    );
  });

  it('a DAG beside a Kafka client file: exit 2, one sentence', () => {
    const r = cli([dag, `${examples}/producer.properties`]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `${dag} is an Airflow DAG, a batch job's, and ${examples}/producer.properties a stream pipeline's configuration (Kafka clients, a Flink job, a Spark query, a sink statement): the lab runs them as two scenarios — import the batch files or the stream files, not both`,
    );
  });

  it("retries=0 in the DAG: the crashed try is not retried, and the date's 10 rows stay once", () => {
    const noRetry = file(
      'dag.py',
      'from airflow import DAG\nwith DAG("d", schedule="@daily", default_args={"retries": 0}):\n    pass\n',
    );
    const r = cli([noRetry]);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`  ${noRetry}:2  default_args.retries=0  → batch.task.retries`);
    expect(r.out).toContain('Rows 10, sum 550 of 550; duplicates 0');
  });
});

describe('from-config: what keeps the claim', () => {
  it('an acks=1 pipeline: the first break is the leader failing after an append, and acks=all alone keeps it (text and JSON)', () => {
    // src/views/atlas/fixSuggestion.test.ts derives it: acks=all waits for the in-sync replicas.
    const dir = mkdtempSync(join(tmpdir(), 'dl-fix-'));
    const put = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const files = [
      put('producer.properties', 'acks=1\nretries=2147483647\nenable.idempotence=false\n'),
      put('consumer.properties', 'enable.auto.commit=true\nisolation.level=read_uncommitted\n'),
      put(
        'sink.sql',
        'INSERT INTO payments (payment_id, amount) VALUES ($1, $2) ON CONFLICT (payment_id) DO NOTHING',
      ),
    ];
    const r = cli(files);
    expect(r.out).toContain(
      'the first fault that breaks it: the leader of events-0 fails right after appending e1 at 107 ms, before its followers copy it: losses',
    );
    expect(r.out).toContain(
      'what keeps it: On this fault, acks=all alone keeps the exactly-once claim (a knob of its recipe) — a finding on this fault only: run the atlas with it to try the others: from-config … --scenario-out pipeline.json, then delivery-lab pipeline.json --set acks=all --explore',
    );
    const json = JSON.parse(cli([...files, '--format', 'json']).out) as {
      atlas: { keeps: string | null };
    };
    expect(json.atlas.keeps).toMatch(/^On this fault, acks=all alone keeps/);
  }, 180_000);
});
