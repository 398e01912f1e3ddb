// The sink panel's SQL view (docs/sql.md): the table sink's statements as a PostgreSQL script.
import { expect, test, testIds } from './fixtures';

test("the sink panel's SQL view shows the preset's script", async ({ dash }) => {
  test.setTimeout(120_000);
  const { page } = dash;
  // payment-resent-by-app/on-conflict-do-nothing: a unique key on the payment id, each write
  // INSERT … ON CONFLICT (id) DO NOTHING, one statement per record.
  await page.goto('./?preset=payment-resent-by-app/on-conflict-do-nothing');
  await dash.settled();
  await dash.byId(testIds.sinkSqlToggle).click();
  const script = dash.byId(testIds.sinkSqlScript);
  await expect(script).toContainText('CONSTRAINT "payments_key" UNIQUE (id)');
  await expect(script).toContainText('ON CONFLICT (id) DO NOTHING;');
});
