import { useEffect, useId, useMemo, useRef } from 'react';
import type { Guarantee, ScenarioInput } from '../engine';
import type { GuaranteeAvailability, KnobSetting } from '../scenarios';
import { availabilityInHand } from '../store/guaranteeSwitch';
import { selectClaim, selectRecipeDifferences, type LabState } from '../store/labStore';
import { useActions, useLab } from '../store/LabContext';
import { knobNameOf } from '../views/edit/knobNames';
import { NoteToggle } from './NoteToggle';
import { testIds } from './testIds';
import { formatCountOf } from '../views/run/format';

const GUARANTEES: { g: Guarantee; label: string }[] = [
  { g: 'at-most-once', label: 'At-most-once' },
  { g: 'at-least-once', label: 'At-least-once' },
  { g: 'exactly-once', label: 'Exactly-once' },
];

const labelOf = (g: Guarantee) => GUARANTEES.find((o) => o.g === g)!.label;

const selectScenario = (s: LabState) => s.scenario;
const selectValidating = (s: LabState) => s.status === 'validating';
const AVAILABLE: GuaranteeAvailability = { ok: true };

/** A disabled option still reads as one, dimmed, and says it cannot be chosen. */
const UNAVAILABLE_STYLE = { opacity: 0.55, cursor: 'not-allowed' } as const;

/** A knob as the knobs panel names it; a reader's knob with its reader (there may be several). */
function knobName(s: ScenarioInput, path: string): string {
  const name = knobNameOf(path) ?? path.replace(/^[a-z]+\./, '');
  const reader = /^readers\.(\d+)\./.exec(path);
  const of = reader ? s.readers?.[Number(reader[1])]?.name : undefined;
  return of !== undefined ? `${name} of ${of}` : name;
}

/**
 * How the knobs differ from the claimed guarantee's recipe, in words that do not say who set
 * them (a library preset ships with knobs set otherwise as often as a reader changes one):
 * `1 knob differs from the exactly-once recipe here (statement)`.
 */
function recipeDifferenceText(
  s: ScenarioInput,
  claim: Guarantee,
  differs: readonly KnobSetting[],
): string {
  const n = differs.length;
  const names = differs.map((k) => knobName(s, k.path)).join(', ');
  return `${formatCountOf(n, 'knob differs', 'knobs differ')} from the ${claim} recipe here (${names})`;
}

/**
 * The three guarantee radios of a guarantee switch (the page's and an unlocked embed's). The
 * chosen option is always the scenario's claim — the guarantee the verdict checks — whether or
 * not the knobs follow that guarantee's recipe (a library preset often ships with some set
 * otherwise, to show what breaks). Choosing an option applies its recipe and claims it; choosing
 * the claimed one again does so too where the knobs differ from its recipe (a click, or Space on
 * it), and does nothing where they follow it. Each click is an undo step of its own; a walk with
 * the arrow keys is one (back on the option it started from, the scenario as it was).
 *
 * An option whose switch the validator would refuse — a fault of the scenario that cannot exist
 * under it, such as a crash at a checkpoint step under at-most-once, which turns checkpointing
 * off — is disabled, its reason in a tooltip and, for screen readers, in its description: a
 * click never turns a running scenario into a refused one.
 */
export function GuaranteeRadios({ name }: { name: string }) {
  const a = useActions();
  const claim = useLab(selectClaim);
  const differs = useLab(selectRecipeDifferences);
  const scenario = useLab(selectScenario);
  const id = useId();
  // An arrow key walks the group, checking each option it passes: the change it causes (in the
  // same task as the key) is a step of the walk, which the store keeps as one edit. A click, or
  // Space, is a choice of its own.
  const walking = useRef(false);
  // Three validations per scenario, not per render: the scenario object changes with every edit.
  // An embed's preset as shipped is answered from its generated data; an edit waiting for the
  // validation (status `validating`) offers every option until it is in (the store checks again).
  const validating = useLab(selectValidating);
  const availability = useMemo(
    () =>
      new Map<Guarantee, GuaranteeAvailability>(
        GUARANTEES.map(({ g }) => [g, availabilityInHand(scenario, g) ?? AVAILABLE]),
      ),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `validating` ends when zod is in
    [scenario, validating],
  );
  // The claim changed under a focused option that is no longer it (Ctrl+Z, Redo, a lane's edit):
  // the focus follows the checked one. It stayed on an unchecked radio, so the next arrow key
  // walked from an option the screen no longer showed chosen (a keyboard user's report).
  const group = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const focused = document.activeElement;
    if (!(focused instanceof HTMLInputElement) || !group.current?.contains(focused)) return;
    if (!focused.checked) group.current.querySelector<HTMLInputElement>('input:checked')?.focus();
  }, [claim]);
  const notes: { g: Guarantee; text: string }[] = [];
  for (const { g, label } of GUARANTEES) {
    const av = availability.get(g)!;
    if (!av.ok) notes.push({ g, text: `${label} is unavailable: ${av.reason}` });
  }
  // The claimed option, its knobs off its recipe: choosing it again applies the recipe.
  const reapply = differs.length > 0 && availability.get(claim)!.ok;
  if (reapply)
    notes.push({
      g: claim,
      text: `${recipeDifferenceText(scenario, claim, differs)}: choose ${labelOf(claim)} again to apply the recipe`,
    });
  const noteOf = (g: Guarantee) => notes.find((n) => n.g === g);
  const noteId = (g: Guarantee) => `${id}-${g}-note`;
  return (
    <>
      <div className="segmented" role="radiogroup" aria-label="Guarantee" ref={group}>
        {GUARANTEES.map(({ g, label }) => {
          const av = availability.get(g)!;
          const note = noteOf(g);
          const again = reapply && g === claim;
          return (
            <label key={g} title={note?.text} style={av.ok ? undefined : UNAVAILABLE_STYLE}>
              <input
                type="radio"
                name={name}
                value={g}
                checked={claim === g}
                disabled={!av.ok}
                aria-describedby={note ? noteId(g) : undefined}
                // Another option: the browser checks it (a click, an arrow key, Space).
                onChange={() => {
                  a.setGuarantee(g, { walk: walking.current });
                  walking.current = false;
                }}
                // The claimed one is checked already, so no change event: a click applies its
                // recipe (the store does nothing where the knobs follow it).
                onClick={() => g === claim && a.setGuarantee(g)}
                // Space on a checked radio would play (the page's shortcut); on the claimed
                // option whose knobs differ it applies the recipe, as a click does. Once they
                // follow it, Space plays again.
                onKeyDown={(e) => {
                  if (e.key.startsWith('Arrow')) {
                    walking.current = true;
                    // No change came of it (the other options disabled): a later click is no step.
                    setTimeout(() => (walking.current = false));
                  }
                  if (!again || e.key !== ' ' || e.repeat) return;
                  e.preventDefault();
                  a.setGuarantee(g);
                }}
              />
              {label}
            </label>
          );
        })}
      </div>
      {/* Outside the labels: inside one, the note would become part of the option's name. */}
      {notes.map(({ g, text }) => (
        <span key={g} id={noteId(g)} className="visually-hidden">
          {text}
        </span>
      ))}
    </>
  );
}

/**
 * Beside the page's switch: whether the knobs follow the claimed guarantee's recipe ("✓ recipe")
 * or not ("✎ own settings", a note rather than a warning — the verdict tells whether the claim
 * holds), with how many knobs differ and which: in its tooltip, and — for the keyboard, touch and
 * screen readers — as its description and in a note it shows when pressed.
 */
export function GuaranteeBadge() {
  const claim = useLab(selectClaim);
  const differs = useLab(selectRecipeDifferences);
  const scenario = useLab(selectScenario);
  const own = differs.length > 0;
  const detail = own
    ? `${recipeDifferenceText(scenario, claim, differs)}. The verdict checks ${claim} all the same; choose ${labelOf(claim)} again to apply its recipe (What this sets lists it).`
    : `The knobs follow the ${claim} recipe (What this sets lists it).`;
  return (
    <NoteToggle
      className={`badge${own ? ' muted' : ''}`}
      data-testid={testIds.guaranteeLabel}
      data-recipe={own ? 'differs' : 'follows'}
      aria-live="polite"
      title={detail}
      note={detail}
      noteTestId={testIds.guaranteeNote}
    >
      {own ? '✎ own settings' : '✓ recipe'}
    </NoteToggle>
  );
}
