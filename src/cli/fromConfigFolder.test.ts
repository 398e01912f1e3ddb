/**
 * `delivery-lab from-config <folder>`: a dbt project given whole — its files picked as the
 * page's Import picks them, several models named with the files to give instead of guessed.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromConfigCommand } from './fromConfig';
import { captured } from './cliTesting';

const cli = (argv: string[]) => captured(fromConfigCommand, argv);

/** A folder `name` in a new temporary directory, with `files` (path → text) in it. */
function folder(name: string, files: Record<string, string>): string {
  const root = join(mkdtempSync(join(tmpdir(), 'dl-from-folder-')), name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const project =
  'name: shop\nmodels:\n  shop:\n    +materialized: incremental\n    staging:\n      +unique_key: event_id\n';

describe('from-config: a folder', () => {
  it('a dbt project of one model: the model and the project file, the build output passed over', () => {
    const dir = folder('shop', {
      'dbt_project.yml': project,
      'models/marts/orders.sql': "{{ config(incremental_strategy='append') }}\nselect 1\n",
      'target/compiled/orders.sql': "{{ config(unique_key='x') }}\n",
    });
    const r = cli([dir, '--skip-atlas', '--format', 'json']);
    expect(r.code).toBe(0);
    expect(r.err).toBe(
      `from-config: folder ${dir}: read ${join(dir, 'models/marts/orders.sql')}, ${join(dir, 'dbt_project.yml')}; passed over target/`,
    );
    // staging's +unique_key is not this model's (it is under marts/): append-only, append.
    const json = JSON.parse(r.out) as { scenario: { batch: { write: unknown } } };
    expect(json.scenario.batch.write).toMatchObject({
      mode: 'dbt-incremental',
      uniqueKey: false,
      strategy: 'append',
    });
  }, 120_000);

  it('two models: exit 2, each with the command that runs it', () => {
    const dir = folder('shop', {
      'dbt_project.yml': project,
      'models/marts/orders.sql': "{{ config(incremental_strategy='append') }}\n",
      'models/staging/stg.sql': "{{ config(incremental_strategy='merge') }}\n",
    });
    const r = cli([dir]);
    expect(r.code).toBe(2);
    expect(r.err.split('\n')).toEqual([
      `${dir}: 2 dbt models — one run is one pipeline; give the files of the one to run:`,
      `  delivery-lab from-config ${join(dir, 'models/marts/orders.sql')} ${join(dir, 'dbt_project.yml')}`,
      `  delivery-lab from-config ${join(dir, 'models/staging/stg.sql')} ${join(dir, 'dbt_project.yml')}`,
    ]);
  });

  it('a folder with files beside it is refused; a folder of no configuration says what it looked for', () => {
    const dir = folder('svc', { 'docker-compose.yml': 'services: {}\n' });
    expect(cli([dir, 'x.properties']).err).toBe(
      `${dir}: a folder is given on its own (its files are picked from it), or give files`,
    );
    const r = cli([dir]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /^svc: no configuration the lab reads — looked for Kafka client \.properties/,
    );
  });
});

// The examples folder of this repository holds a service's files, a dbt model and the DAG that
// runs it: the batch job's two files open together (the stream files are not read with them).
it('the examples folder holds a dbt model and a DAG: they open together, the DAG running the model', () => {
  const r = cli(['src/scenarios/config/examples', '--skip-atlas']);
  expect(readFileSync('src/scenarios/config/examples/load_events.py', 'utf8')).toContain('dbt run');
  expect(r.code).toBe(0);
  expect(r.err).toBe(
    'from-config: folder src/scenarios/config/examples: read src/scenarios/config/examples/events_incremental.sql, src/scenarios/config/examples/load_events.py',
  );
});
