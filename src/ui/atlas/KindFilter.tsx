/**
 * The fault atlas's kinds as checkboxes (the CLI's `--kinds`), one component for a stream's atlas
 * (./AtlasPanel.tsx) and a batch job's (src/ui/batch/BatchAtlas.tsx): the kinds ticked are the
 * page's state (src/views/atlas/atlasChoice.ts), so each tick is an undo step and a share link
 * opens with the same ones ticked.
 */
import type { KindOption } from '../../views/atlas/atlasKinds';
import './kindFilter.css';

export function KindFilter({
  options,
  ticked,
  disabled,
  testId,
  onToggle,
}: {
  options: readonly KindOption[];
  ticked: readonly string[];
  disabled: boolean;
  testId: string;
  onToggle(kind: string, on: boolean): void;
}) {
  return (
    <fieldset className="atlas-kinds" data-testid={testId} disabled={disabled}>
      <legend>Fault kinds</legend>
      {options.map(({ kind, words }) => (
        <label key={kind} title={kind}>
          <input
            type="checkbox"
            checked={ticked.includes(kind)}
            data-kind={kind}
            onChange={(e) => onToggle(kind, e.target.checked)}
          />{' '}
          {words}
        </label>
      ))}
    </fieldset>
  );
}
