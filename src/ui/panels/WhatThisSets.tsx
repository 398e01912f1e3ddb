import { useMemo } from 'react';
import { getKnob, guaranteeKnobs } from '../../scenarios';
import { selectGuarantee, selectParse, type LabState } from '../../store/labStore';
import { useLab } from '../../store/LabContext';
import { formatKnobValue, knobMeta } from '../../views/knobs';
import { openPreset } from '../../views/library';
import { testIds } from '../testIds';

const selectScenario = (s: LabState) => s.scenario;
const selectPresetRef = (s: LabState) => s.presetRef;

/**
 * "What this sets": every knob the claimed guarantee's bundle sets for this pipeline, why, and
 * whether the scenario still has that value (a change by hand, or a preset that ships with
 * another value, makes the label "custom").
 */
export function WhatThisSets() {
  const scenario = useLab(selectScenario);
  const parsed = useLab(selectParse);
  const label = useLab(selectGuarantee);
  // A preset that ships with some of these set otherwise (idempotence off, to show the lost
  // ack's duplicate) is "custom" too — but only a knob that differs from the preset as shipped
  // was changed by hand.
  const shipped = openPreset(useLab(selectPresetRef))?.variant.scenario;
  const claim = parsed.ok ? parsed.scenario.claim : (scenario.claim ?? 'at-least-once');
  const kind = parsed.ok ? parsed.scenario.processor.type : 'consumer';
  const list = useMemo(() => guaranteeKnobs(claim, kind, scenario), [claim, kind, scenario]);
  const shown = (path: string, value: unknown) => formatKnobValue(knobMeta(path), value);
  const asShipped = (path: string) =>
    shipped !== undefined &&
    shown(path, getKnob(shipped, path)) === shown(path, getKnob(scenario, path));
  const byHand = list.some(
    (k) =>
      shown(k.path, getKnob(scenario, k.path)) !== shown(k.path, k.value) && !asShipped(k.path),
  );
  return (
    <div className="scroll-panel" data-testid={testIds.whatThisSets} tabIndex={0}>
      <p style={{ margin: '0 0 0.4em' }}>
        <strong>{claim}</strong> sets {list.length} knobs on this {kind} pipeline
        {label === 'custom' ? (
          <span className="badge custom" style={{ marginLeft: '0.5em' }}>
            {byHand
              ? '✎ custom: some were changed since'
              : '✎ custom: this preset, as shipped, sets some of them otherwise'}
          </span>
        ) : null}
        :
      </p>
      <ul className="sets-list">
        {list.map((k) => {
          const meta = knobMeta(k.path);
          const now = getKnob(scenario, k.path);
          const same =
            formatKnobValue(meta, now) === formatKnobValue(meta, k.value) ||
            (now === undefined && k.value === undefined);
          return (
            <li key={k.path} data-knob={k.path} data-same={same}>
              <code>{meta?.name ?? k.path.replace(/^[a-z]+\./, '')}</code> ={' '}
              <code>{formatKnobValue(meta, k.value)}</code> — {k.why}
              {same ? (
                <span className="fate once">
                  {' '}
                  <span aria-hidden="true">✓</span> as set
                </span>
              ) : (
                <span className="fate duplicated">
                  {' '}
                  <span aria-hidden="true">✎</span> {asShipped(k.path) ? 'the preset sets' : 'now'}{' '}
                  {formatKnobValue(meta, now)}
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
