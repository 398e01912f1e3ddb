import { useId } from 'react';
import type { LabState } from '../../store/labStore';
import { useActions, useLab } from '../../store/LabContext';
import { judgeScenarioName } from '../../views/edit/scenarioName';
import { useTextDraft } from '../hooks/useNumberDraft';
import { testIds } from '../testIds';

const selectName = (s: LabState) => s.scenario.name;

/**
 * The scenario's name, editable: what its exported file, its Markdown report, its embed and
 * `delivery-lab check` call it. An edited preset kept the preset's title, so two files a doc
 * author made from one preset read the same in every `check` line. Enter or leaving the field
 * renames (one undoable edit); a refused name stays beside the field and nothing changes.
 */
export function ScenarioNameField() {
  const a = useActions();
  const id = useId();
  const name = useLab(selectName);
  const { problem, input } = useTextDraft(name, judgeScenarioName, a.renameScenario);
  return (
    <p className="scenario-name">
      <label htmlFor={id}>Name </label>
      <input
        id={id}
        type="text"
        size={40}
        data-testid={testIds.scenarioName}
        aria-describedby={problem !== null ? `${id}-error` : undefined}
        {...input}
      />
      {problem !== null && (
        <span className="field-error" id={`${id}-error`} role="alert">
          Not renamed: {problem}.
        </span>
      )}
    </p>
  );
}
