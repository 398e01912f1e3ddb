import { useId } from 'react';
import type { Guarantee } from '../engine';
import { presets } from '../scenarios';
import { FONT_SCALES, selectGuarantee, type LabState } from '../store/labStore';
import { useActions, useLab } from '../store/LabContext';
import { LibraryButton } from './library/LibraryButton';
import { testIds } from './testIds';

const GUARANTEES: { g: Guarantee; label: string }[] = [
  { g: 'at-most-once', label: 'At-most-once' },
  { g: 'at-least-once', label: 'At-least-once' },
  { g: 'exactly-once', label: 'Exactly-once' },
];

const selectPresetRef = (s: LabState) => s.presetRef;
const selectSeed = (s: LabState) => s.scenario.seed ?? 1;
const selectCanUndo = (s: LabState) => s.past.length > 0;
const selectCanRedo = (s: LabState) => s.future.length > 0;
const selectName = (s: LabState) => s.scenario.name;

/** The guarantee switch (first control), scenario picker, seed, undo/redo. */
export function TopBar() {
  const a = useActions();
  const presetRef = useLab(selectPresetRef);
  const guarantee = useLab(selectGuarantee);
  const seed = useLab(selectSeed);
  const canUndo = useLab(selectCanUndo);
  const canRedo = useLab(selectCanRedo);
  const name = useLab(selectName);
  const seedId = useId();
  const pickerId = useId();
  return (
    <header className="topbar">
      <h1 data-testid={testIds.appHeading}>Delivery Lab</h1>
      <fieldset className="guarantee" data-testid={testIds.guaranteeSwitch}>
        <legend>Guarantee</legend>
        <div className="segmented" role="radiogroup" aria-label="Guarantee">
          {GUARANTEES.map(({ g, label }) => (
            <label key={g}>
              <input
                type="radio"
                name="guarantee"
                value={g}
                checked={guarantee === g}
                onChange={() => a.setGuarantee(g)}
              />
              {label}
            </label>
          ))}
        </div>
        <span
          className={`badge${guarantee === 'custom' ? ' custom' : ''}`}
          data-testid={testIds.guaranteeLabel}
          aria-live="polite"
          title={
            guarantee === 'custom'
              ? 'The knobs no longer match a guarantee preset: the checker tells whether the chain still holds.'
              : 'The knobs match this guarantee preset.'
          }
        >
          {guarantee === 'custom' ? '✎ custom' : '✓ preset'}
        </span>
      </fieldset>
      <LibraryButton />
      <label className="visually-hidden" htmlFor={pickerId}>
        Scenario
      </label>
      <select
        className="picker"
        id={pickerId}
        data-testid={testIds.scenarioPicker}
        value={presetRef ?? ''}
        onChange={(e) => e.target.value && a.loadPreset(e.target.value)}
        title={name}
      >
        {presetRef === null && <option value="">{name} (edited)</option>}
        {presets.map((p) =>
          p.variants.map((v) => (
            <option key={`${p.id}/${v.id}`} value={`${p.id}/${v.id}`}>
              {p.variants.length > 1 ? `${p.title} — ${v.label}` : p.title}
            </option>
          )),
        )}
      </select>
      <span className="spacer" />
      <label className="field" htmlFor={seedId}>
        <span>Seed</span>
        <input
          id={seedId}
          type="number"
          min={0}
          max={4294967295}
          step={1}
          style={{ width: '6em' }}
          data-testid={testIds.seedInput}
          key={seed}
          defaultValue={seed}
          onBlur={(e) => {
            const n = Number(e.target.value);
            if (n !== seed) a.setSeed(n);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
          }}
        />
      </label>
      <span className="field" role="group" aria-label="Undo and redo">
        <button
          type="button"
          onClick={a.undo}
          disabled={!canUndo}
          data-testid={testIds.undo}
          title="Undo (Ctrl+Z)"
        >
          ↶<span className="visually-hidden"> Undo</span>
        </button>
        <button
          type="button"
          onClick={a.redo}
          disabled={!canRedo}
          data-testid={testIds.redo}
          title="Redo (Ctrl+Shift+Z)"
        >
          ↷<span className="visually-hidden"> Redo</span>
        </button>
      </span>
    </header>
  );
}

const selectFontStep = (s: LabState) => s.fontStep;

/** Text size control (the whole page scales: everything is sized in em). */
export function FontSize() {
  const a = useActions();
  const fontStep = useLab(selectFontStep);
  return (
    <span className="field" role="group" aria-label="Font size">
      <button
        type="button"
        onClick={() => a.setFontStep(fontStep - 1)}
        disabled={fontStep === 0}
        data-testid={testIds.fontSmaller}
        aria-label="Smaller text"
      >
        A−
      </button>
      <span className="muted" aria-live="polite" title="Text size">
        {Math.round(FONT_SCALES[fontStep]! * 100)}%
      </span>
      <button
        type="button"
        onClick={() => a.setFontStep(fontStep + 1)}
        disabled={fontStep === FONT_SCALES.length - 1}
        data-testid={testIds.fontLarger}
        aria-label="Larger text"
      >
        A+
      </button>
    </span>
  );
}
