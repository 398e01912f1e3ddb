import { atlasTestIds as ids } from '../../src/ui/atlas/atlasTestIds';
import { expect, type Dashboard, type PickedFiles } from '../fixtures';

/**
 * An engineer's Kafka pipeline imported as files (Import): acks=1 with idempotence off, a
 * consumer committing automatically, and a sink keyed by the payment id, on the lost-ack
 * workload — whose atlas's first break is a leader failing right after an append, and on which
 * acks=all alone keeps the exactly-once claim (src/views/atlas/fixSuggestion.test.ts). Its atlas
 * explored and "What would keep the claim on it?" answered, by keyboard, for the specs that go on
 * from the fix (e2e/atlas.spec.ts).
 */
/**
 * A pipeline that keeps exactly-once on the lost-ack workload, as two files: an idempotent
 * producer (acks=all) and a sink whose INSERT skips a payment id it has (ON CONFLICT DO NOTHING).
 */
export const IDEMPOTENT_PIPELINE: PickedFiles = [
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
];

export async function askWhatKeepsTheEngineersPipeline(dash: Dashboard): Promise<void> {
  const { page } = dash;
  await dash.importFiles([
    {
      name: 'producer.properties',
      mimeType: 'text/plain',
      buffer: Buffer.from('acks=1\nretries=2147483647\nenable.idempotence=false\n'),
    },
    {
      name: 'consumer.properties',
      mimeType: 'text/plain',
      buffer: Buffer.from('enable.auto.commit=true\nisolation.level=read_uncommitted\n'),
    },
    {
      name: 'sink.sql',
      mimeType: 'application/sql',
      buffer: Buffer.from(
        'INSERT INTO payments (payment_id, amount) VALUES ($1, $2) ON CONFLICT (payment_id) DO NOTHING',
      ),
    },
  ]);
  // An imported run folds its outcome until its end: seen at once with End.
  await dash.toEnd();
  await dash.byId(ids.explore).click();
  await expect(dash.byId(ids.summary)).toContainText('9 lose', { timeout: 180_000 });
  const fix = dash.byId(ids.fix);
  const ask = fix.getByRole('button', { name: 'What would keep the claim on it?' });
  await ask.focus();
  await page.keyboard.press('Enter');
  await expect(fix.getByRole('status')).toHaveText(
    'On this fault, acks=all alone keeps the exactly-once claim (a knob of its recipe) — a finding on this fault only: run the atlas with it to try the others.',
    { timeout: 60_000 },
  );
}
