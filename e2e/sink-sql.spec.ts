// The sink panel's SQL view (docs/sql.md): the table sink's statements as a PostgreSQL script,
// and "Run on a real PostgreSQL" (PGlite in a worker). Served under a sub-path of a plain static
// host (e2e/embed-host.mjs), as the lab is hosted under e.g. /lab/: the worker and PGlite's wasm
// and data assets must load from there too.
import { Dashboard, expect, test, testIds } from './fixtures';

const HOST = `http://127.0.0.1:${process.env.E2E_HOST_PORT ?? 4174}`;

// PGlite starts by running initdb in WebAssembly: seconds on an idle machine, minutes on a loaded
// one.
test.describe.configure({ timeout: 300_000 });

test("the sink panel's SQL view shows the preset's script, and PostgreSQL agrees with it", async ({
  page,
}) => {
  // One page load, at the sub-path (the `dash` fixture would load the root first).
  const dash = new Dashboard(page);
  // payment-resent-by-app/on-conflict-do-nothing: a unique key on the payment id, each write
  // INSERT … ON CONFLICT (id) DO NOTHING, one statement per record.
  await dash.goto(`${HOST}/some/base/path/?preset=payment-resent-by-app/on-conflict-do-nothing`);
  await dash.byId(testIds.sinkSqlToggle).click();
  const script = dash.byId(testIds.sinkSqlScript);
  await expect(script).toContainText('CONSTRAINT payments_key UNIQUE (id)');
  await expect(script).toContainText('ON CONFLICT (id) DO NOTHING;');

  // plain-insert: p-75..p-79 and the application's re-send of p-77, each a plain INSERT with no
  // unique key, so both p-77 rows stay: 6 rows, p-77 twice (src/scenarios/library/producer.ts).
  // PGlite runs the same script and must hold the same 6 rows.
  await dash.pickPreset('payment-resent-by-app/plain-insert');
  await dash.showOutcome();
  await expect(script).not.toContainText('ON CONFLICT');
  await dash.byId(testIds.sinkSqlRun).click();
  const result = dash.byId(testIds.sinkSqlRunResult);
  await expect(result).toBeVisible({ timeout: 240_000 });
  await expect(result).toHaveAttribute('data-ok', 'true');
  await expect(result).toContainText('✓ PostgreSQL agrees: the same 6 row(s) as the engine');
  for (const side of ["The engine's table", "PostgreSQL's table"]) {
    const table = result.locator('table', { has: page.locator('caption', { hasText: side }) });
    await expect(table.locator('tbody tr')).toHaveCount(6);
    await expect(table.locator('tbody tr', { hasText: 'p-77' })).toHaveCount(2);
  }
  expect(dash.errors).toEqual([]);
});
