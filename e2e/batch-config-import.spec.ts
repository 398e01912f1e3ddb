/**
 * An analytics engineer's dbt model and Airflow DAG through the page's Import: picked together,
 * they open a batch job (docs/page.md#sharing-exporting-importing) whose notice names each setting
 * at its line; before, the .py was no configuration file and the model was refused.
 */
import { readFileSync } from 'node:fs';
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
