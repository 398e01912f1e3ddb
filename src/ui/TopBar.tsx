import { useId } from 'react';
import { presetCatalog } from '../scenarios/presetCatalog';
import { presetName } from '../views/edit/presetName';
import { parseSeed, seedEffect, SEED_RULE } from '../views/io/seed';
import { FONT_SCALES, type LabState } from '../store/labStore';
import { useActions, useLab, useView } from '../store/LabContext';
import { GuaranteeBadge, GuaranteeRadios } from './GuaranteeRadios';
import { Icon } from './Icon';
import { NoteToggle } from './NoteToggle';
import { useNumberDraft } from './hooks/useNumberDraft';
import { LibraryButton } from './library/LibraryButton';
import { FirstLine } from './present/FirstLine';
import { testIds } from './testIds';

const selectPresetRef = (s: LabState) => s.presetRef;
const selectSeed = (s: LabState) => s.scenario.seed ?? 1;
const selectCanUndo = (s: LabState) => s.past.length > 0;
const selectCanRedo = (s: LabState) => s.future.length > 0;
const selectName = (s: LabState) => s.scenario.name;

/** The guarantee switch (first control) and its recipe badge, scenario picker, seed, undo/redo. */
export function TopBar() {
  const a = useActions();
  const presetRef = useLab(selectPresetRef);
  const seed = useLab(selectSeed);
  const canUndo = useLab(selectCanUndo);
  const canRedo = useLab(selectCanRedo);
  const name = useLab(selectName);
  const pickerId = useId();
  return (
    <header className="topbar">
      <h1 data-testid={testIds.appHeading}>Delivery Lab</h1>
      {/* The scenario's claim (what the verdict checks), not what the run shows: a lesson about
          duplicates claims exactly-once and is marked "illustrates at-least-once" beside it. */}
      <fieldset
        className="guarantee"
        data-testid={testIds.guaranteeSwitch}
        title="The guarantee this configuration claims; the verdict says whether the run kept it. Choosing one applies its recipe of knobs."
      >
        <legend>Configuration claims:</legend>
        <GuaranteeRadios name="guarantee" />
        <GuaranteeBadge />
      </fieldset>
      <LibraryButton />
      {/* The picker with the seed and undo/redo: one unit, so that when the bar is too narrow for
          all of it the three go to a line of their own together, where the picker takes the room
          its titles need — not the picker cut short beside an emptier line. */}
      <div className="topbar-scenario">
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
          {/* Not a preset (an import, a share link, a scenario kept from an earlier visit): say so,
              without claiming an edit nobody made. An edited preset keeps its entry here; the
              story panel marks it edited. */}
          {presetRef === null && <option value="">{name} — own scenario</option>}
          {presetCatalog().map((p) =>
            p.variants.map((v) => (
              <option key={`${p.id}/${v.id}`} value={`${p.id}/${v.id}`}>
                {presetName(p, v)}
              </option>
            )),
          )}
        </select>
        {/* Remounted when the seed changes (undo, a preset): the field shows the run's seed. */}
        <SeedField key={seed} seed={seed} />
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
      </div>
      <FirstLine />
    </header>
  );
}

const SEED_HELP =
  'The seed drives every random choice of the run: network jitter, random faults, a random workload. ' +
  'The same scenario with the same seed gives the identical run; another seed, another draw. ' +
  `It is ${SEED_RULE}. Enter or leaving the field applies it; Escape puts the run's seed back.`;

/**
 * The seed, typed as text so that what was typed can be judged: a seed that is not one (empty,
 * negative, a fraction, too large, not a number) is refused with the reason beside the field, and
 * the run keeps its seed until a valid one is entered.
 */
function SeedField({ seed }: { seed: number }) {
  const a = useActions();
  const id = useId();
  const { problem, input } = useNumberDraft(seed, parseSeed, a.setSeed);
  const view = useView();
  const effect = view ? seedEffect(view.scenario) : null;
  // What the seed does in this scenario ("Nothing in this scenario is random…") is the field's
  // description for a screen reader, and the ⓘ beside it shows it with the general help: not
  // only in the hover tooltip.
  const effectId = `${id}-effect`;
  const describedBy = [problem !== null ? `${id}-error` : null, effect !== null ? effectId : null]
    .filter(Boolean)
    .join(' ');
  return (
    <span className="field seed-field" title={effect ? `${SEED_HELP}\n${effect}` : SEED_HELP}>
      <label htmlFor={id}>Seed</label>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        className="mono"
        style={{ width: '7.5em' }}
        data-testid={testIds.seedInput}
        {...input}
        aria-describedby={describedBy || undefined}
      />
      <NoteToggle
        aria-label="About the seed"
        data-testid={testIds.seedAbout}
        noteTestId={testIds.seedNote}
        align="end"
        note={
          <>
            {effect !== null && (
              <>
                <span id={effectId} className="note-lead">
                  {effect}
                </span>{' '}
              </>
            )}
            <span>{SEED_HELP}</span>
          </>
        }
      >
        <Icon name="info" />
      </NoteToggle>
      {problem !== null && (
        <span
          className="field-error"
          id={`${id}-error`}
          role="alert"
          data-testid={testIds.seedError}
        >
          Not a seed: {problem}. A seed is {SEED_RULE}; the run keeps seed {seed}.
        </span>
      )}
    </span>
  );
}

const selectFontStep = (s: LabState) => s.fontStep;
const selectPresent = (s: LabState) => s.present;

/**
 * Text size control (the whole page scales: everything is sized in em). Off in projector mode,
 * whose text is 18 px, sized for 1280×720 (src/ui/present/present.css): the size set here comes
 * back when it is left.
 */
export function FontSize() {
  const a = useActions();
  const fontStep = useLab(selectFontStep);
  const present = useLab(selectPresent);
  return (
    <span
      className="field font-size"
      role="group"
      aria-label="Font size"
      title={
        present ? 'Projector mode sets the text at 18 px for 1280×720 (P leaves it)' : undefined
      }
    >
      <button
        type="button"
        onClick={() => a.setFontStep(fontStep - 1)}
        disabled={present || fontStep === 0}
        data-testid={testIds.fontSmaller}
        aria-label="Smaller text"
      >
        A−
      </button>
      <span className="muted" aria-live="polite" title="Text size">
        {present ? 100 : Math.round(FONT_SCALES[fontStep]! * 100)}%
      </span>
      <button
        type="button"
        onClick={() => a.setFontStep(fontStep + 1)}
        disabled={present || fontStep === FONT_SCALES.length - 1}
        data-testid={testIds.fontLarger}
        aria-label="Larger text"
      >
        A+
      </button>
    </span>
  );
}
