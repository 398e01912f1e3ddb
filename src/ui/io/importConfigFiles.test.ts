/**
 * The page's Import for real configuration files: picked by name (`.properties`, `.yaml`) or by
 * content (a paste, a `.txt`), several combined, a bad one refused naming its line — the same
 * importer as `delivery-lab from-config` (src/scenarios/config/importConfig.ts).
 */
import { describe, expect, it } from 'vitest';
import { importFile, importFiles, importPasted, looksImportable } from './importScenario';
import { looksLikeConfigText } from '../../scenarios/config/configText';
import flinkConfig from '../../scenarios/config/examples/config.yaml?raw';
import txProducer from '../../scenarios/config/examples/transactional-producer.properties?raw';
import dbtModel from '../../scenarios/config/examples/events_incremental.sql?raw';
import dag from '../../scenarios/config/examples/load_events.py?raw';

const file = (name: string, text: string) => ({ name, size: text.length, text: async () => text });

// acks=1 needs idempotence off: Kafka refuses idempotence without acks=all
// (https://kafka.apache.org/documentation/#producerconfigs_enable.idempotence).
const PRODUCER = '# mine\nacks=1\nenable.idempotence=false\nbootstrap.servers=localhost:9092\n';

describe('configuration files through the page Import', () => {
  // A consumer file whose group.id names a reader of the workload is that reader's
  // (docs/cli.md#your-configuration-in): the Flink story's reader rc, not a consumer loop's key.
  it("a reader's consumer file beside a Flink config.yaml sets that reader's isolation.level", async () => {
    const r = await importFiles([
      file('config.yaml', 'execution.checkpointing.interval: 1 s\n'),
      file('rc.properties', 'group.id=rc\nisolation.level=read_uncommitted\n'),
    ]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.input.readers?.[0]).toMatchObject({
      name: 'rc',
      'isolation.level': 'read_uncommitted',
    });
    expect(r.config?.lines).toContain(
      'rc.properties:2: applied isolation.level=read_uncommitted → readers.0.isolation.level',
    );
    expect(r.config?.summary).not.toMatch(/overridden/);
  });

  it('a .properties file sets its knobs and reports each key: 2 applied, 1 ignored', async () => {
    const r = await importFile(file('producer.properties', PRODUCER));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.input.producer).toMatchObject({ acks: 1, 'enable.idempotence': false });
    expect(r.from).toBe('“producer.properties”');
    // Lines 2 and 3 applied; line 4 (where to connect) ignored with its why.
    expect(r.config?.summary).toMatch(/^From “producer\.properties”: 2 keys applied, 1 ignored/);
    expect(
      r.config?.lines.filter(
        (l) => !l.startsWith('kept from the workload:') && !l.startsWith('sink kept from'),
      ),
    ).toEqual([
      'producer.properties:2: applied acks=1 → producer.acks',
      'producer.properties:3: applied enable.idempotence=false → producer.enable.idempotence',
      expect.stringMatching(
        /^producer\.properties:4: ignored bootstrap\.servers — where to connect/,
      ),
    ]);
  });

  // `delivery-lab from-config` says "not tested" and exits 3 when the workload's fault cannot
  // fire under the files' settings (acks=0: no acknowledgement to lose, docs/cli.md); the page's
  // notice listed the keys only, and the run's verdict then read "✓ … held".
  it('a workload fault the settings keep from firing: the notice says not tested, and why', async () => {
    const r = await importFile(file('producer.properties', 'acks=0\nenable.idempotence=false\n'));
    if (!r.ok) throw new Error('refused');
    expect(r.config?.lines).toContain(
      'not tested: the workload’s fault can never fire under these settings, so its verdict says nothing about them — fault "lost ack", a lost acknowledgement: with acks=0 the broker sends no acknowledgement to lose',
    );
    const tested = await importFile(file('producer.properties', PRODUCER));
    if (!tested.ok) throw new Error('refused');
    expect(tested.config?.lines.some((l) => l.startsWith('not tested'))).toBe(false);
  });

  it("the workload's settings the files leave unset are listed, with the real default", async () => {
    const r = await importFile(file('producer.properties', PRODUCER));
    if (!r.ok) throw new Error('refused');
    // The lost-ack story sends one request at a time (Kafka's default is 5) and its consumer
    // commits by hand (enable.auto.commit's default is true): the file said neither.
    expect(r.config?.lines).toContain(
      'kept from the workload: max.in.flight.requests.per.connection=1 → producer.max.in.flight.requests.per.connection (real default: 5; set it in your file to run with yours)',
    );
    expect(r.config?.lines).toContain(
      'kept from the workload: enable.auto.commit=false → processor.enable.auto.commit (real default: true; set it in your file to run with yours)',
    );
  });

  // The kept settings came last of the lines, under "Show the 9 more lines": a Compare lane from
  // an acks=all producer.properties on the "idempotence off" story ran with enable.idempotence=false
  // and the notice's summary said only "11 keys applied, 4 ignored".
  it('the summary names the settings kept unlike the real default, not only the lines', async () => {
    const r = await importFile(file('producer.properties', PRODUCER));
    if (!r.ok) throw new Error('refused');
    expect(r.config?.summary).toMatch(
      /\(on the library workload [^)]*\) — kept from the workload unlike the real default: .*max\.in\.flight\.requests\.per\.connection=1/,
    );
    expect(r.config?.summary).toContain('enable.auto.commit=false');
  });

  it('a key a later file sets again is reported overridden, not applied', async () => {
    const r = await importFiles([
      file('producer.properties', 'acks=1\nenable.idempotence=false\nretries=5\n'),
      file('ops.properties', 'retries=3\n'),
    ]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.input.producer).toMatchObject({ retries: 3 });
    expect(r.config?.summary).toMatch(/: 3 keys applied, 0 ignored, 1 overridden \(/);
    expect(r.config?.lines).toContain(
      'producer.properties:3: overridden retries=5 — set again at ops.properties:1 (retries=3): the last value counts',
    );
    expect(r.config?.lines).not.toContain(
      'producer.properties:3: applied retries=5 → producer.retries',
    );
  });

  it('a bad value or a refused combination is refused naming the file and the line', async () => {
    expect(await importFile(file('p.properties', '# x\n\nacks=some\n'))).toEqual({
      ok: false,
      config: true,
      from: '“p.properties”',
      lines: ['p.properties:3: acks: expected 0, 1, all or -1, got "some"'],
    });
    // acks=2: the value named, beside the ones Kafka takes.
    expect(await importFile(file('producer.properties', 'acks=2\n'))).toMatchObject({
      ok: false,
      lines: ['producer.properties:1: acks: expected 0, 1, all or -1, got "2"'],
    });
    const refused = await importFile(file('p.properties', 'acks=1\nenable.idempotence=true\n'));
    expect(refused).toMatchObject({
      ok: false,
      lines: [expect.stringMatching(/^p\.properties:1: acks=1 refused — ConfigException: /)],
    });
    // A sink statement's refused clause reads as its applied ones do: the clause, then the knob.
    const sql = await importFile(
      file(
        'sink.sql',
        'INSERT INTO payments (payment_id, amount)\nVALUES ($1, $2)\nON CONFLICT ("payment id") DO NOTHING;\n',
      ),
    );
    expect(sql).toMatchObject({
      ok: false,
      lines: [
        expect.stringMatching(
          /^sink\.sql:3: ON CONFLICT \("payment id"\) DO NOTHING → sink\.columns = \{"id":"payment id"\} refused — .*"payment id" is no SQL identifier/,
        ),
      ],
    });
    const yaml = await importFile(file('config.yaml', 'execution.checkpointing:\n  interval: [\n'));
    expect(yaml).toMatchObject({
      ok: false,
      lines: [expect.stringMatching(/^config\.yaml:\d+:\d+: /)],
    });
  });

  it('several files combine, as from-config combines them; a scenario file must go alone', async () => {
    const r = await importFiles([
      file('producer.properties', txProducer),
      file('config.yaml', flinkConfig),
    ]);
    expect(r).toMatchObject({ ok: true, from: '“producer.properties” + “config.yaml”' });
    expect(r.ok && r.input.processor?.type).toBe('flink');
    expect(
      await importFiles([file('a.json', '{}'), file('producer.properties', PRODUCER)]),
    ).toMatchObject({
      ok: false,
      // Not "the files is not a valid scenario": what failed is opening them together.
      heading: 'Not imported: these files do not open together.',
      lines: [expect.stringContaining('a.json: several files')],
    });
  });

  it('is sniffed by content when the name does not tell: a .txt file, a paste', async () => {
    expect(await importFile(file('mine.txt', PRODUCER))).toMatchObject({ ok: true });
    expect(await importPasted(PRODUCER)).toMatchObject({ ok: true, from: '“pasted.properties”' });
    // Nested keys are read as YAML (Flink's config.yaml).
    const nested = await importPasted('execution:\n  checkpointing:\n    interval: 10s\n');
    expect(nested).toMatchObject({ ok: true, from: '“pasted config.yaml”' });
    // 10 s, ten times the library story's interval: its times stretched, and the report says so
    // (src/scenarios/config/fitToInterval.ts): e201..e250 at 1 s + 4 × 10 s.
    expect(nested.ok && nested.config?.lines.at(-1)).toBe(
      "Workload: the workload's times after the job's start stretched ×10 to your checkpoint interval (10 s): the second burst and the crash at 41 s, as the library's at 5 s with its 1 s interval",
    );
    expect(looksImportable('acks=all')).toBe(true);
    // A note, a link, JSON: not configuration.
    for (const t of ['hello there', 'https://kafka.apache.org/', '{"acks":1}', 'see: acks'])
      expect(looksLikeConfigText(t)).toBe(false);
  });
});

describe("the sink's SQL statement through the page Import", () => {
  const UPSERT =
    'INSERT INTO payments (payment_id, amount)\nVALUES ($1, $2)\nON CONFLICT (payment_id) DO NOTHING;\n';

  // Picked beside the client's .properties, the .sql was refused: "sink.sql: several files open
  // together only as configuration files (.properties, .yaml)".
  it('a .sql file opens beside .properties files: its clauses applied, each at its line', async () => {
    const r = await importFiles([file('producer.properties', PRODUCER), file('sink.sql', UPSERT)]);
    if (!r.ok) throw new Error(r.lines.join('\n'));
    expect(r.input.sink).toMatchObject({
      type: 'table',
      name: 'payments',
      statement: 'on-conflict-do-nothing',
      key: 'business-id',
    });
    // acks, enable.idempotence and the statement's 4 settings (table, statement, key, the key
    // column's name); bootstrap.servers ignored.
    expect(r.config?.summary).toMatch(/: 6 keys applied, 1 ignored /);
    expect(r.config?.lines).toContain(
      'sink.sql:3: applied ON CONFLICT (payment_id) DO NOTHING → sink.statement = on-conflict-do-nothing',
    );
    expect(r.config?.lines).toContain(
      'sink.sql:3: applied ON CONFLICT (payment_id) DO NOTHING → sink.columns = {"id":"payment_id"} (your column names, in the statements the lab shows and prints)',
    );
    expect(r.config?.lines.some((l) => l.startsWith('sink kept from the workload'))).toBe(false);
    // Without it, the notice names the story's own sink.
    const bare = await importFile(file('producer.properties', PRODUCER));
    if (!bare.ok) throw new Error('refused');
    expect(bare.config?.lines).toContain(
      'sink kept from the workload: a plain INSERT (no key: each copy of a record is another row) into table events — give your INSERT … ON CONFLICT or MERGE as a .sql file to run with yours',
    );
  });

  it('a pasted statement is read as SQL; a refused one names its line', async () => {
    expect(looksLikeConfigText(`-- mine\n${UPSERT}`)).toBe(true);
    expect(await importPasted(UPSERT)).toMatchObject({ ok: true, from: '“pasted sink.sql”' });
    expect(
      await importFile(
        file('sink.sql', 'INSERT INTO payments\nON CONFLICT DO UPDATE SET amount = 1'),
      ),
    ).toMatchObject({
      ok: false,
      lines: [
        expect.stringMatching(
          /^sink\.sql:2: ON CONFLICT DO UPDATE requires inference specification/,
        ),
      ],
    });
  });
});

// A dbt model and an Airflow DAG picked together open a batch job (docs/page.md#sharing-exporting-importing):
// before, the .py file was no configuration file name ("several files open together only as
// configuration files") and the model was refused as a dbt model.
describe('a batch job’s files through the page Import', () => {
  it('a dbt model and a DAG picked together: the batch scenario, each setting at its line', async () => {
    const r = await importFiles([
      file('events_incremental.sql', dbtModel),
      file('load_events.py', dag),
    ]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.input.batch?.write).toMatchObject({
      mode: 'dbt-incremental',
      uniqueKey: true,
      strategy: 'merge',
    });
    expect(r.config?.summary).toBe(
      'From “events_incremental.sql” + “load_events.py”: 8 keys applied, 4 ignored (on the library workload dbt-incremental-unique-key/no-unique-key)',
    );
    expect(r.config?.lines).toContain(
      'events_incremental.sql:6: applied unique_key=\'event_id\' → batch.write.uniqueKey (the event id → batch.dedupeKey = "event-id")',
    );
    expect(r.config?.lines).toContain(
      'load_events.py:11: applied default_args.retry_delay=timedelta(minutes=5) → batch.task.retryDelayMs',
    );
  });

  it('a pasted DAG or dbt model is read as one', async () => {
    expect(await importPasted(dag)).toMatchObject({ ok: true, from: '“pasted dag.py”' });
    expect(await importPasted(dbtModel)).toMatchObject({ ok: true, from: '“pasted model.sql”' });
  });

  it('a DAG alone says what it leaves to Airflow 2’s and 3’s defaults; beside a .properties file it is refused', async () => {
    const r = await importFile(
      file(
        'd.py',
        'from airflow import DAG\nwith DAG("d", default_args={"retries": 0}):\n    pass\n',
      ),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config?.lines).toContain(
      'schedule not given: Airflow 2 runs the DAG daily (its default, timedelta(days=1)), Airflow 3 not at all (its default is None); the workload\'s "daily" kept',
    );
    const mixed = await importFiles([file('d.py', dag), file('producer.properties', PRODUCER)]);
    expect(mixed).toMatchObject({
      ok: false,
      lines: [
        expect.stringMatching(
          /^d\.py is an Airflow DAG, a batch job's, and producer\.properties a stream pipeline's/,
        ),
      ],
    });
  });
});
