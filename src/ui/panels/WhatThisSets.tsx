import { useMemo } from 'react';
import { getKnob, guaranteeKnobs } from '../../scenarios';
import {
  selectClaim,
  selectParse,
  selectRecipeDifferences,
  type LabState,
} from '../../store/labStore';
import { useLab } from '../../store/LabContext';
import { formatKnobValue, knobMeta } from '../../views/edit/knobs';
import { openPreset } from '../../views/library/library';
import { testIds } from '../testIds';
import { formatCountOf, pluralOf } from '../../views/run/format';

const selectScenario = (s: LabState) => s.scenario;
const selectPresetRef = (s: LabState) => s.presetRef;

/**
 * "What this sets": every knob the claimed guarantee's recipe sets for this pipeline, why, and
 * whether the scenario follows it — the same comparison as the switch's badge (a knob left unset
 * counts as its default). A knob set otherwise says by whom as far as that is known: the library
 * preset as shipped, a change since it was opened, or just "here" (an import, a share link).
 */
export function WhatThisSets() {
  const scenario = useLab(selectScenario);
  const parsed = useLab(selectParse);
  const claim = useLab(selectClaim);
  const differs = useLab(selectRecipeDifferences);
  // A library preset that ships with some of these set otherwise (idempotence off, to show the
  // lost ack's duplicate) differs from the recipe without anyone changing a knob — only a knob
  // that differs from the preset as shipped was changed by hand.
  const shipped = openPreset(useLab(selectPresetRef))?.variant.scenario;
  const kind = parsed.ok ? parsed.scenario.processor.type : 'consumer';
  const list = useMemo(() => guaranteeKnobs(claim, kind, scenario), [claim, kind, scenario]);
  const differing = useMemo(() => new Set(differs.map((k) => k.path)), [differs]);
  const shown = (path: string, value: unknown) => formatKnobValue(knobMeta(path), value);
  const asShipped = (path: string) =>
    shipped !== undefined &&
    shown(path, getKnob(shipped, path)) === shown(path, getKnob(scenario, path));
  const byHand = differs.some((k) => !asShipped(k.path));
  const n = differs.length;
  return (
    <div className="scroll-panel" data-testid={testIds.whatThisSets} tabIndex={0}>
      <p style={{ margin: '0 0 0.4em' }}>
        The <strong>{claim}</strong> recipe sets {formatCountOf(list.length, 'knob')} on this {kind}{' '}
        pipeline
        {n > 0 ? (
          <span className="badge muted" style={{ marginLeft: '0.5em' }}>
            {shipped === undefined
              ? `✎ own settings: ${n} of them ${pluralOf(n, 'is', 'are')} set otherwise here`
              : byHand
                ? '✎ own settings: some were changed since the library preset was opened'
                : `✎ own settings: the library preset, as shipped, sets ${n} of them otherwise`}
          </span>
        ) : null}
        :
      </p>
      <ul className="sets-list">
        {list.map((k) => {
          const meta = knobMeta(k.path);
          const now = getKnob(scenario, k.path);
          const same = !differing.has(k.path);
          return (
            <li key={k.path} data-knob={k.path} data-same={same}>
              <code>{meta?.name ?? k.path.replace(/^[a-z]+\./, '')}</code> ={' '}
              <code>{formatKnobValue(meta, k.value)}</code> — {k.why}
              {same ? (
                <span className="fate once">
                  {' '}
                  <span aria-hidden="true">✓</span>{' '}
                  {now === undefined && k.value !== undefined ? 'by default' : 'as set'}
                </span>
              ) : (
                <span className="fate duplicated">
                  {' '}
                  <span aria-hidden="true">✎</span>{' '}
                  {otherwise(k.path, now, formatKnobValue(meta, now))}
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );

  /** What a knob off the recipe is instead, and who set it so as far as the page knows. */
  function otherwise(path: string, now: unknown, value: string): string {
    if (shipped === undefined) return now === undefined ? 'unset here' : `set to ${value} here`;
    if (asShipped(path))
      return now === undefined
        ? 'the library preset leaves it unset'
        : `the library preset sets ${value}`;
    return now === undefined ? 'now unset' : `now ${value}`;
  }
}
