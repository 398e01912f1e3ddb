/**
 * The scenario's faults as markers on the timeline: where each sits, what it says, and whether
 * (and why not) it fired.
 */
import { ordinal, whyNeverFires, type FaultSpec, type Scenario } from '../../engine';
import { faultName, faultWhat } from './faultName';
import type { RunView } from '../run/runView';
import { rowOf } from '../run/steps';

/** A fault as a timeline marker: where it sits and what it says. */
export interface FaultMarker {
  index: number;
  /** `at` of the fault (ms). */
  at: number;
  /** Entry of its first firing, or -1 if it never fired. */
  firedEntry: number;
  firedAt: number;
  /** Its name ({@link faultName}): `fault "consumer crash"`, or `fault 2` without an id. */
  name: string;
  /** What it does, without its id (the name says it): "a crash of consumer-0 mid-batch…". */
  label: string;
  /** The fault's own id ("consumer crash"), or null: a short name where the label is too long. */
  id: string | null;
  kind: FaultSpec['kind'];
  /** How many times it fired (a random or repeating fault fires more than once). */
  firings: number;
  /** A random fault's end of window (ms), or null (none, or not random). */
  untilMs: number | null;
  /** Why it cannot fire in this scenario at all ({@link whyNeverFires}), or null. */
  why: string | null;
}

/**
 * The marker's words: what it is, its window, and when it fired — "fired at 1.2 s", or for a
 * fault that fires again and again "fired 7 times, first at 1.2 s".
 */
export function markerText(m: FaultMarker, formatMs: (ms: number) => string): string {
  const window = `armed from ${formatMs(m.at)}${m.untilMs !== null ? ` until ${formatMs(m.untilMs)}` : ''}`;
  const fired =
    m.firings === 0
      ? 'never fired'
      : m.firings === 1
        ? `fired at ${formatMs(m.firedAt)}`
        : `fired ${m.firings} times, first at ${formatMs(m.firedAt)}`;
  return `${m.label} — ${window}, ${fired}`;
}

/**
 * Which messages a message fault picks, in words, for the marker: " — the message carrying p-4",
 * " — the 2nd message on partition 1, then every 100th". Empty for other faults and for "the
 * next message", which the label says already.
 */
export function matchText(f: FaultSpec): string {
  if (!('match' in f) || !f.match) return '';
  const m = f.match;
  const on = [
    m.event !== undefined ? `carrying ${m.event}` : '',
    m.partition !== undefined ? `on partition ${m.partition}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  if (m.nth === 1 && on === '' && m.every === undefined) return '';
  const nth = m.nth === 1 ? 'the' : `the ${ordinal(m.nth)}`;
  const every = m.every !== undefined ? `, then every ${ordinal(m.every)}` : '';
  return ` — ${nth} message${on ? ` ${on}` : ''}${every}`;
}

/** Every scenario fault as a timeline marker. */
export function faultMarkers(v: RunView, s: Scenario): FaultMarker[] {
  return s.faults.map((f, index) => {
    const fired =
      index < v.faultFired.start.length - 1 ? rowOf(v.faultFired, index) : new Int32Array();
    const firedEntry = fired.length > 0 ? fired[0]! : -1;
    return {
      index,
      at: f.at,
      firedEntry,
      firedAt: firedEntry >= 0 ? v.cols.time[firedEntry]! : -1,
      name: faultName(f, index),
      label: faultWhat(f) + matchText(f),
      id: f.id ?? null,
      kind: f.kind,
      firings: fired.length,
      untilMs: f.kind === 'random' ? (f.untilMs ?? null) : null,
      why: whyNeverFires(s, f),
    };
  });
}
