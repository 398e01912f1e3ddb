import { describe, expect, it } from 'vitest';
import {
  FOLDER_FILE_LIMIT,
  pickFromFolder,
  pickFromFolderSync,
  type FolderFile,
} from './configFolder';
import { importConfig } from './importConfig';
import producer from './examples/producer.properties?raw';
import consumer from './examples/consumer.properties?raw';
import dag from './examples/load_events.py?raw';

const file = (path: string, text: string, size = text.length): FolderFile => ({
  path,
  size,
  text: () => Promise.resolve(text),
});

const sink = 'INSERT INTO payments (id, amount) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING';

/** A dbt project of two incremental models whose folders the project file sets apart. */
const shop = [
  file(
    'shop/dbt_project.yml',
    [
      'name: shop',
      'models:',
      '  shop:',
      '    +materialized: incremental',
      '    staging:',
      '      +unique_key: event_id',
    ].join('\n'),
  ),
  file('shop/models/marts/orders.sql', "{{ config(incremental_strategy='append') }}\nselect 1"),
  file(
    'shop/models/staging/stg_events.sql',
    "{{ config(incremental_strategy='merge') }}\nselect 1",
  ),
  // A model with no config(): its settings would all be the project's; not offered.
  file('shop/models/staging/plain.sql', 'select 1'),
  file('shop/target/compiled/shop/models/marts/orders.sql', "{{ config(unique_key='x') }}"),
  file('shop/dbt_packages/audit/models/audit.sql', "{{ config(unique_key='x') }}"),
  file('shop/README.md', '# shop'),
];

describe('a folder given to Import', () => {
  it("a service's folder: its clients' .properties and the sink's statement, not its other files", async () => {
    const pick = await pickFromFolder('svc', [
      file('svc/config/producer.properties', producer),
      file('svc/config/consumer.properties', consumer),
      file('svc/sql/sink.sql', sink),
      file('svc/sql/schema.sql', 'CREATE TABLE payments (id text primary key, amount int);'),
      file('svc/docker-compose.yml', 'services:\n  kafka:\n    image: apache/kafka'),
      file('svc/.git/config', '[core]'),
      file('svc/src/app.py', 'print(1)'),
    ]);
    expect(pick).toMatchObject({ kind: 'open', folder: 'svc', passedOver: ['.git/'] });
    if (pick.kind !== 'open') return;
    expect(pick.option.files.map((f) => f.name)).toEqual([
      'config/consumer.properties',
      'config/producer.properties',
      'sql/sink.sql',
    ]);
  });

  it('a dbt project of two models asks which one, its build output and packages passed over', async () => {
    const pick = await pickFromFolder('shop', shop);
    expect(pick).toMatchObject({
      kind: 'choose',
      folder: 'shop',
      what: '2 dbt models',
      passedOver: ['dbt_packages/', 'target/'],
    });
    if (pick.kind !== 'choose') return;
    expect(pick.options.map((o) => o.label)).toEqual([
      'models/marts/orders.sql',
      'models/staging/stg_events.sql',
    ]);
    expect(pick.options[0]!.files.map((f) => f.name)).toEqual([
      'models/marts/orders.sql',
      'dbt_project.yml',
    ]);
  });

  it("each model takes the project's settings by its own folders (its path, which the picker cannot give)", async () => {
    const pick = await pickFromFolder('shop', shop);
    if (pick.kind !== 'choose') throw new Error(pick.kind);
    const [marts, staging] = pick.options.map((o) => importConfig(o.files));
    // staging's +unique_key is not orders': append-only there, keyed by the event id here.
    expect(marts!.ok && marts!.scenario.batch?.write).toMatchObject({
      mode: 'dbt-incremental',
      uniqueKey: false,
      strategy: 'append',
    });
    expect(staging!.ok && staging!.scenario.batch?.write).toMatchObject({
      mode: 'dbt-incremental',
      uniqueKey: true,
      strategy: 'merge',
    });
    expect(
      marts!.ok &&
        marts!.keys
          .find((k) => k.key === 'unique_key')
          ?.why?.startsWith(
            "not this model's: it configures staging, and orders is models/marts/orders.sql",
          ),
    ).toBe(true);
  });

  it("an Airflow dags/ folder of one DAG opens it; the folder's other Python is not a DAG", async () => {
    const pick = await pickFromFolder('dags', [
      file('dags/load_events.py', dag),
      file('dags/common/helpers.py', 'def today():\n    return 1\n'),
    ]);
    expect(pick).toMatchObject({ kind: 'open', option: { label: 'load_events.py' } });
    if (pick.kind === 'open')
      expect(pick.option.files.map((f) => f.name)).toEqual(['load_events.py']);
  });

  it('a folder of nothing the lab reads is refused, saying what was looked for', async () => {
    const pick = await pickFromFolder(
      'notes',
      [
        file('notes/docker-compose.yml', 'services: {}'),
        file('notes/big.properties', 'acks=all', 10_000_000),
      ],
      ['.git/'],
    );
    expect(pick).toEqual({
      kind: 'none',
      folder: 'notes',
      lines: [
        "notes: no configuration the lab reads — looked for Kafka client .properties, a Flink config.yaml, a Spark query's options, a sink's INSERT or MERGE (.sql), a dbt model or an Airflow DAG among 1 files; passed over .git/; too large to read: big.properties",
      ],
    });
  });

  it('read synchronously (from-config), the same pick', async () => {
    const sync = shop.map((f) => ({ path: f.path, size: f.size, text: () => texts.get(f.path)! }));
    const texts = new Map(
      await Promise.all(shop.map(async (f) => [f.path, await f.text()] as const)),
    );
    expect(pickFromFolderSync('shop', sync)).toEqual(await pickFromFolder('shop', shop));
  });

  it(`a folder of more than ${FOLDER_FILE_LIMIT} configuration-named files is refused before any is read`, async () => {
    let reads = 0;
    const many = Array.from({ length: FOLDER_FILE_LIMIT + 1 }, (_, i) => ({
      path: `repo/k8s/m${i}.yaml`,
      size: 10,
      text: () => {
        reads++;
        return Promise.resolve('kind: Pod');
      },
    }));
    const pick = await pickFromFolder('repo', many);
    expect(pick).toMatchObject({ kind: 'none' });
    if (pick.kind === 'none') expect(pick.lines[0]).toMatch(/^repo: 401 configuration-named files/);
    expect(reads).toBe(0);
  });
});
