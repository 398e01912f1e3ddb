/**
 * The dev/test API on `window.__deliveryLab` (see testApiTypes.ts). Loaded lazily — a separate
 * chunk, not in the entry bundle — and only in a dev build or when the browser is driven by
 * automation (`navigator.webdriver`, true under Playwright), so users never get it.
 */
import type { ScenarioInput } from '../engine';
import type { Lab } from '../store/labStore';
import { countersAt, tokensAt } from '../views/run/at';
import { traceHashOfView } from '../views/run/hash';
import { eventIdOf } from '../views/run/runView';
import type { DeliveryLabTestApi } from './testApiTypes';

/** Install the API for `lab`; returns a function that removes it. */
export function installTestApi(lab: Lab): () => void {
  const a = lab.actions;
  const view = () => {
    const v = lab.app.getState().view;
    if (!v) throw new Error('no run yet');
    return v;
  };
  const api: DeliveryLabTestApi = {
    async load(scenario) {
      if (typeof scenario === 'string') a.loadPreset(scenario);
      else a.loadScenario(scenario as ScenarioInput);
      await a.settled();
    },
    settled: () => a.settled(),
    async runTo(t) {
      a.pause();
      a.seek(t);
      return api.counters();
    },
    counters() {
      const v = view();
      return countersAt(v, lab.cursor.getState().idx);
    },
    engineTotalsAt(t) {
      const scenario = lab.app.getState().scenario;
      return import('../views/run/computeRun').then((m) => m.cutOffTotals(scenario, t));
    },
    cursor() {
      const v = lab.app.getState().view;
      const c = lab.cursor.getState();
      return { t: c.t, idx: c.idx, n: v?.n ?? 0, endTime: v?.endTime ?? 0 };
    },
    scenario: () => structuredClone(lab.app.getState().scenario),
    traceHash: () => traceHashOfView(view()),
    status: () => lab.app.getState().status,
    tokens() {
      const v = view();
      const { t, idx } = lab.cursor.getState();
      return tokensAt(v, t, idx).map((k) => ({
        entry: k.entry,
        type: k.type,
        lost: k.lost,
        event: k.event >= 0 ? eventIdOf(v.events, v.events.identity[k.event]!) : '',
        sentAt: k.sentAt,
        until: k.until,
      }));
    },
    play(speed) {
      if (speed !== undefined) a.setSpeed(speed);
      a.play();
    },
  };
  window.__deliveryLab = api;
  return () => {
    if (window.__deliveryLab === api) delete window.__deliveryLab;
  };
}
