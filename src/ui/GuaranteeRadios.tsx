import { useId, useMemo } from 'react';
import type { Guarantee } from '../engine';
import { guaranteeAvailability, type GuaranteeAvailability } from '../scenarios';
import { selectGuarantee, type LabState } from '../store/labStore';
import { useActions, useLab } from '../store/LabContext';

const GUARANTEES: { g: Guarantee; label: string }[] = [
  { g: 'at-most-once', label: 'At-most-once' },
  { g: 'at-least-once', label: 'At-least-once' },
  { g: 'exactly-once', label: 'Exactly-once' },
];

const selectScenario = (s: LabState) => s.scenario;

/** A disabled option still reads as one, dimmed, and says it cannot be chosen. */
const UNAVAILABLE_STYLE = { opacity: 0.55, cursor: 'not-allowed' } as const;

/**
 * The three guarantee radios of a guarantee switch (the page's and an unlocked embed's). An
 * option whose switch the validator would refuse — a fault of the scenario that cannot exist
 * under it, such as a crash at a checkpoint step under at-most-once, which turns checkpointing
 * off — is disabled, its reason in a tooltip and, for screen readers, in its description: a
 * click never turns a running scenario into a refused one.
 */
export function GuaranteeRadios({ name }: { name: string }) {
  const a = useActions();
  const guarantee = useLab(selectGuarantee);
  const scenario = useLab(selectScenario);
  const id = useId();
  // Three validations per scenario, not per render: the scenario object changes with every edit.
  const availability = useMemo(
    () =>
      new Map<Guarantee, GuaranteeAvailability>(
        GUARANTEES.map(({ g }) => [g, guaranteeAvailability(scenario, g)]),
      ),
    [scenario],
  );
  const reasons: { g: Guarantee; label: string; reason: string }[] = [];
  for (const { g, label } of GUARANTEES) {
    const av = availability.get(g)!;
    if (!av.ok) reasons.push({ g, label, reason: av.reason });
  }
  const whyId = (g: Guarantee) => `${id}-${g}-why`;
  return (
    <>
      <div className="segmented" role="radiogroup" aria-label="Guarantee">
        {GUARANTEES.map(({ g, label }) => {
          const av = availability.get(g)!;
          return (
            <label
              key={g}
              title={av.ok ? undefined : `${label} is unavailable: ${av.reason}`}
              style={av.ok ? undefined : UNAVAILABLE_STYLE}
            >
              <input
                type="radio"
                name={name}
                value={g}
                checked={guarantee === g}
                disabled={!av.ok}
                aria-describedby={av.ok ? undefined : whyId(g)}
                onChange={() => a.setGuarantee(g)}
              />
              {label}
            </label>
          );
        })}
      </div>
      {/* Outside the labels: inside one, the reason would become part of the option's name. */}
      {reasons.map(({ g, label, reason }) => (
        <span key={g} id={whyId(g)} className="visually-hidden">
          {label} is unavailable: {reason}
        </span>
      ))}
    </>
  );
}
