import { useRef, type KeyboardEvent } from 'react';
import type { LabState } from '../../store/labStore';
import { useActions, useLab, useView } from '../../store/LabContext';
import { eventIdOf } from '../../views/run/runView';
import { useDrawerFocus } from '../present/useDrawerFocus';
import { testIds } from '../testIds';
import { EventTrace } from './EventTrace';
import { Explanations } from './Explanations';
import { Knobs } from './Knobs';
import { Ledger } from './Ledger';
import { WhatThisSets } from './WhatThisSets';

const TABS = [
  { id: 'ledger', label: 'Ledger', Panel: Ledger },
  { id: 'knobs', label: 'Knobs', Panel: Knobs },
  { id: 'sets', label: 'What this sets', Panel: WhatThisSets },
  { id: 'trace', label: 'Event trace', Panel: EventTrace },
] as const;

const selectTab = (s: LabState) => s.tab;
const selectSelected = (s: LabState) => s.selected;
const selectDrawer = (s: LabState) => s.present && s.details;

/**
 * Below the pipeline: the explanations, and tabs for the ledger, knobs, the guarantee's knobs and
 * the trace. In projector mode, a drawer under the pipeline opened with D (present.css).
 */
export function Lower() {
  const a = useActions();
  const tab = useLab(selectTab);
  const setTab = a.showTab;
  const selected = useLab(selectSelected);
  const view = useView();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const box = useRef<HTMLDivElement>(null);
  useDrawerFocus(box, useLab(selectDrawer));
  const onKey = (e: KeyboardEvent, k: number) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    e.preventDefault();
    e.stopPropagation();
    const next = (k + (e.key === 'ArrowRight' ? 1 : -1) + TABS.length) % TABS.length;
    setTab(TABS[next]!.id);
    refs.current[next]?.focus();
  };
  const Current = TABS.find((t) => t.id === tab)!.Panel;
  return (
    <div className="lower" ref={box}>
      <Explanations />
      <section className="card" aria-label="Details">
        <div className="tablist" role="tablist" aria-label="Details" data-testid={testIds.tabs}>
          {TABS.map((t, k) => (
            <button
              key={t.id}
              ref={(el) => {
                refs.current[k] = el;
              }}
              type="button"
              role="tab"
              id={`tab-${t.id}`}
              aria-selected={tab === t.id}
              aria-controls={`panel-${t.id}`}
              tabIndex={tab === t.id ? 0 : -1}
              onClick={() => setTab(t.id)}
              onKeyDown={(e) => onKey(e, k)}
            >
              {t.label}
              {t.id === 'trace' && view && selected >= 0 && selected < view.events.identities
                ? ` · ${eventIdOf(view.events, selected)}`
                : ''}
            </button>
          ))}
        </div>
        <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
          <Current />
        </div>
      </section>
    </div>
  );
}
