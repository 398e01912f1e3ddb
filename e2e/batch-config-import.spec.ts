/**
 * An analytics engineer's dbt model and Airflow DAG through the page's Import: picked together,
 * they open a batch job (docs/page.md#sharing-exporting-importing) whose notice names each setting
 * at its line; before, the .py was no configuration file and the model was refused.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test, testIds } from './fixtures';

const examples = 'src/scenarios/config/examples';

const batchOf = (page: Page) =>
  page.evaluate(
    () =>
      (
        window.__deliveryLab!.scenario() as {
          batch?: { write?: Record<string, unknown>; task?: Record<string, unknown> };
        }
      ).batch,
  );

test('a dbt model and an Airflow DAG picked together open their batch job', async ({ dash }) => {
  const { page } = dash;
  await dash.pickPreset('at-least-once');
  await dash.byId(testIds.importButton).click();
  // The dialog says which batch files it takes.
  await expect(dash.byId(testIds.importDialog)).toContainText(
    "a batch job's: a dbt model's .sql, its properties YAML or dbt_project.yml, an Airflow DAG's .py",
  );
  await dash.byId(testIds.importFile).setInputFiles([
    {
      name: 'events_incremental.sql',
      mimeType: 'application/sql',
      buffer: readFileSync(`${examples}/events_incremental.sql`),
    },
    {
      name: 'load_events.py',
      mimeType: 'text/x-python',
      buffer: readFileSync(`${examples}/load_events.py`),
    },
  ]);
  await expect(dash.byId(testIds.importDialog)).toBeHidden();
  // unique_key='event_id', merge, on the dbt story's workload; retries=1 and 5 minutes from the DAG.
  expect(await batchOf(page)).toMatchObject({
    write: { mode: 'dbt-incremental', uniqueKey: true, strategy: 'merge' },
    task: { retries: 1, retryDelayMs: 300_000 },
  });
  const notice = dash
    .byId(testIds.notice)
    .filter({ hasText: 'From “events_incremental.sql” + “load_events.py”' });
  await expect(notice).toContainText(
    '8 keys applied, 4 ignored (on the library workload dbt-incremental-unique-key/no-unique-key)',
  );
  await expect(notice).toContainText(
    "events_incremental.sql:5: applied materialized='incremental' → batch.write.mode",
  );
});

// A newcomer's report: an imported Airflow DAG opened at its end — its attempts, the ×2 table and
// the verdict at once, the Schedule / Task / Reads / Writes / Planned setup never shown. A batch
// preset opens at its start with its setup; so do an imported job and its share link.
test('an imported Airflow DAG opens at its start with its setup, as a preset does; so does its share link', async ({
  dash,
  browser,
}) => {
  test.setTimeout(120_000);
  const { page } = dash;
  await dash.pickPreset('at-least-once');
  await dash.importFiles({
    name: 'backfill_payments.py',
    mimeType: 'text/x-python',
    buffer: Buffer.from(
      [
        'from airflow import DAG',
        'with DAG("backfill_payments", schedule="@daily", default_args={"retries": 2}) as dag:',
        '    PostgresOperator(',
        '        task_id="load_payments",',
        '        sql="""',
        '            INSERT INTO payments_daily',
        "            SELECT * FROM raw_payments WHERE event_date = '{{ ds }}'",
        '        """,',
        '    )',
        '',
      ].join('\n'),
    ),
  });
  const opensAtStart = async (p: Page) => {
    const setup = p.getByTestId('batch-setup');
    await expect(setup).toBeVisible({ timeout: 30_000 });
    await expect(setup).toContainText('Schedule');
    await expect(setup).toContainText('retries 2');
    await expect(setup).toContainText('Writes');
    await expect(p.getByTestId('batch-attempt')).toHaveCount(0);
    await expect(p.getByTestId('batch-summary')).toHaveCount(0);
    await expect(p.getByTestId('batch-partition')).toHaveCount(0);
  };
  await opensAtStart(page);
  expect(await batchOf(page)).toMatchObject({ task: { retries: 2 } });
  // "Show the end": the attempts and the outcome, the setup gone (the job has run).
  await page.getByRole('button', { name: 'Show the end', exact: true }).click();
  await expect(page.getByTestId('batch-summary')).toBeVisible();
  await expect(page.getByTestId('batch-setup')).toHaveCount(0);
  expect(await page.getByTestId('batch-attempt').count()).toBeGreaterThan(0);

  // Its share link opens at the start too (a shared run plays: docs/page.md).
  await page.getByTestId('share-button').click();
  const link = await page.getByTestId('share-url').inputValue();
  const context = await browser.newContext();
  const other = await context.newPage();
  await other.goto(link);
  await opensAtStart(other);
  await context.close();
});

// A dbt project is a folder, and the file picker cannot pick files from two of its folders (the
// model under models/marts/, dbt_project.yml at the top): Import takes the folder, asks which of
// its models runs, and matches the project's settings by the model's own folders.
test('a dbt project folder: Import asks which model, by keyboard, and reads the project by its folders', async ({
  dash,
}) => {
  const { page } = dash;
  const root = mkdtempSync(join(tmpdir(), 'dl-folder-'));
  const put = (path: string, text: string) => {
    mkdirSync(dirname(join(root, 'shop', path)), { recursive: true });
    writeFileSync(join(root, 'shop', path), text);
  };
  put(
    'dbt_project.yml',
    'name: shop\nmodels:\n  shop:\n    +materialized: incremental\n    staging:\n      +unique_key: event_id\n',
  );
  put('models/marts/orders.sql', "{{ config(incremental_strategy='append') }}\nselect 1\n");
  put('models/staging/stg_events.sql', "{{ config(incremental_strategy='merge') }}\nselect 1\n");
  put('target/compiled/orders.sql', "{{ config(unique_key='x') }}\n");
  await dash.pickPreset('at-least-once');
  await dash.byId(testIds.importButton).click();
  await dash.byId(testIds.importFolder).setInputFiles(join(root, 'shop'));
  const choice = dash.byId(testIds.importFolderChoice);
  await expect(choice).toContainText('The folder “shop” holds 2 dbt models: which one runs?');
  await expect(choice).toContainText('Passed over: target/');
  // The choice takes the focus (its first model, in path order); Tab to the second, Enter.
  await expect(choice.getByRole('button', { name: 'models/marts/orders.sql' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(choice.getByRole('button', { name: 'models/staging/stg_events.sql' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dash.byId(testIds.importDialog)).toBeHidden();
  // staging's +unique_key is this model's: keyed by the event id, merge from its config().
  expect(await batchOf(page)).toMatchObject({
    write: { mode: 'dbt-incremental', uniqueKey: true, strategy: 'merge' },
  });
  await expect(
    dash.byId(testIds.notice).filter({
      hasText:
        'Folder “shop”: read models/staging/stg_events.sql, dbt_project.yml; passed over target/',
    }),
  ).toHaveCount(1);
  rmSync(root, { recursive: true, force: true });
});

// A newcomer's report: the imported DAG opened at its start, as it should — then a reload
// restored the workspace at its end (its attempts, the ×2 table, the verdict at once): the saved
// workspace did not keep that it was a file opened whose end was not seen (LabState.replay).
test('an imported Airflow DAG reloaded before its end opens at its start again; once its end is seen, at its end', async ({
  dash,
}) => {
  test.setTimeout(120_000);
  const { page } = dash;
  await dash.pickPreset('at-least-once');
  await dash.importFiles({
    name: 'load_events.py',
    mimeType: 'text/x-python',
    buffer: readFileSync(`${examples}/load_events.py`),
  });
  const setup = page.getByTestId('batch-setup');
  await expect(setup).toBeVisible({ timeout: 30_000 });
  const before = await batchOf(page);
  await dash.reload();
  // The same job, at its start with its setup: no attempt, no table, no verdict.
  expect(await batchOf(page)).toEqual(before);
  await expect(setup).toBeVisible({ timeout: 30_000 });
  await expect(setup).toContainText('Schedule');
  await expect(setup).toContainText('Writes');
  await expect(page.getByTestId('batch-attempt')).toHaveCount(0);
  await expect(page.getByTestId('batch-summary')).toHaveCount(0);
  await expect(page.getByTestId('batch-partition')).toHaveCount(0);
  // Its end seen: a reload opens it where it was left, at its end.
  await page.getByRole('button', { name: 'Show the end', exact: true }).click();
  await expect(page.getByTestId('batch-summary')).toBeVisible();
  await dash.reload();
  await expect(page.getByTestId('batch-summary')).toBeVisible({ timeout: 30_000 });
  await expect(setup).toHaveCount(0);
});
