/**
 * A real `producer.properties` through the page's Import: its knobs set (one undoable load, a
 * notice naming the keys applied and ignored); a bad one refused naming its line, the work kept.
 */
import type { Page } from '@playwright/test';
import { expect, test, testIds } from './fixtures';

const scenario = (page: Page) =>
  page.evaluate(
    () =>
      window.__deliveryLab!.scenario() as {
        producer?: Record<string, unknown>;
        processor?: { type: string };
      },
  );

test('a producer.properties sets its knobs; a bad one is refused naming its line', async ({
  dash,
}) => {
  const { page } = dash;
  await dash.pickPreset('at-least-once');
  const before = await scenario(page);
  const file = dash.byId(testIds.importFile);
  await dash.byId(testIds.importButton).click();
  // Line 3 is refused: retries must be an integer (https://kafka.apache.org/documentation/#producerconfigs_retries).
  await file.setInputFiles({
    name: 'producer.properties',
    mimeType: 'text/plain',
    buffer: Buffer.from('acks=1\nenable.idempotence=false\nretries=many\n'),
  });
  const errors = dash.byId(testIds.importErrors);
  await expect(errors).toContainText('“producer.properties” is not a valid configuration');
  await expect(errors).toContainText('producer.properties:3: retries: expected an integer');
  expect(await scenario(page)).toEqual(before);

  // acks=1 with idempotence off (Kafka refuses idempotence without acks=all:
  // https://kafka.apache.org/documentation/#producerconfigs_enable.idempotence); the broker
  // address is where to connect, not modelled: 2 keys applied, 1 ignored.
  await file.setInputFiles({
    name: 'producer.properties',
    mimeType: 'text/plain',
    buffer: Buffer.from(
      '# mine\nacks=1\nenable.idempotence=false\nbootstrap.servers=localhost:9092\n',
    ),
  });
  await expect(dash.byId(testIds.importDialog)).toBeHidden();
  const after = await scenario(page);
  expect(after.producer).toMatchObject({ acks: 1, 'enable.idempotence': false });
  const notice = dash.byId(testIds.notice).filter({ hasText: 'From “producer.properties”' });
  await expect(notice).toContainText('2 keys applied, 1 ignored');
  await expect(notice).toContainText('producer.properties:2: applied acks=1 → producer.acks');
  await expect(notice).toContainText('ignored bootstrap.servers');
  // One undoable load: Undo brings the open work back.
  await dash.byId(testIds.undo).click();
  expect(await scenario(page)).toEqual(before);
});

// A data engineer's sink is a statement: picked beside the client's .properties, the page refused
// it ("sink.sql: several files open together only as configuration files (.properties, .yaml)").
test('a sink.sql picked with a producer.properties sets the table sink from its statement', async ({
  dash,
}) => {
  const { page } = dash;
  await dash.pickPreset('at-least-once');
  await dash.byId(testIds.importButton).click();
  await dash.byId(testIds.importFile).setInputFiles([
    {
      name: 'producer.properties',
      mimeType: 'text/plain',
      buffer: Buffer.from('acks=all\nenable.idempotence=true\n'),
    },
    {
      name: 'sink.sql',
      mimeType: 'application/sql',
      buffer: Buffer.from(
        'INSERT INTO payments (payment_id, amount)\nVALUES ($1, $2)\nON CONFLICT (payment_id) DO NOTHING;\n',
      ),
    },
  ]);
  await expect(dash.byId(testIds.importDialog)).toBeHidden();
  const sink = await page.evaluate(
    () => (window.__deliveryLab!.scenario() as { sink?: Record<string, unknown> }).sink,
  );
  expect(sink).toMatchObject({
    type: 'table',
    name: 'payments',
    statement: 'on-conflict-do-nothing',
    key: 'business-id',
  });
  const notice = dash
    .byId(testIds.notice)
    .filter({ hasText: 'From “producer.properties” + “sink.sql”' });
  // acks, enable.idempotence and the statement's table, form and key: 5 applied.
  await expect(notice).toContainText('5 keys applied, 0 ignored');
});
