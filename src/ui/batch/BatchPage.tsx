import { batchPresets, findBatchPreset } from '../../scenarios/library/batch';
import { BatchLab } from './BatchLab';

/**
 * The page of `?batch=<preset-id>`: the batch story on the batch page, or — for a name no batch
 * story has — a plain refusal that lists the ones there are.
 */
export function BatchPage({ presetRef }: { presetRef: string }) {
  const found = findBatchPreset(presetRef);
  if (found) return <BatchLab initial={found.variant.scenario} />;
  return (
    <main className="batch-lab" role="alert">
      <h1>No batch story named “{presetRef}”</h1>
      <p>The batch stories: {batchPresets.map((p) => p.id).join(', ')}.</p>
    </main>
  );
}
