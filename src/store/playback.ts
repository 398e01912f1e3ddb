/**
 * The lab's playback: the cursor `{ t, idx }` and the actions that move it (play, pause, seek,
 * step, jump to the next moment, and the frame tick), plus `shown`, the cursor the panels render.
 * src/store/labStore.ts creates it with its app store and spreads these actions into its own; the
 * run (which puts the cursor on a new view) stays there.
 *
 * The cursor is a store of its own, advanced 60 times a second while playing, so that a frame
 * only notifies the cursor's subscribers, never the whole app store (zustand README, "Transient
 * updates"). `shown` follows it at most every {@link SHOWN_INTERVAL_MS} while playing (a dense run
 * crosses engine events every frame, and re-rendering every panel 60 times a second is wasted
 * work nobody can read); on a seek, a step or a pause it follows at once.
 *
 * A move asked for while the scenario's run is on its way (End, a jump or a step pressed the
 * moment after a preset, a lesson's step or an edit was opened) is kept and made once the run is
 * ready ({@link PendingMove}): it is a move in that run, whose end and moments the run on screen
 * (the previous one, or none) does not know — it used to be lost, and a lesson's reveal then
 * played the run from its start (CI: "1 / 10 sent", playing, after an End).
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { indexAtTime, timeAtIndex } from '../views/run/at';
import { nextMoment, noMomentWords, type MomentKind } from '../views/run/moments';
import { advance, SPEED_MAX, SPEED_MIN } from '../views/run/playback';
import type { ScenarioInput } from '../engine';
import type { CursorState, LabActions, LabState } from './labState';
import { withMomentWords } from './momentWordsOnDemand';

/** While playing, the panels' cursor (`shown`) updates at most this often (real ms): ≈ 15 Hz. */
const SHOWN_INTERVAL_MS = 66;

type PlaybackActions = Pick<
  LabActions,
  | 'play'
  | 'pause'
  | 'togglePlay'
  | 'setOwnPlayback'
  | 'setSpeed'
  | 'setSkipIdle'
  | 'restart'
  | 'toEnd'
  | 'setRevealGuard'
  | 'forwardRefusal'
  | 'seek'
  | 'openAt'
  | 'seekIndex'
  | 'step'
  | 'jump'
  | 'setJumpsHideAnomalies'
  | 'tick'
>;

/** A move of the cursor that waits for the run it is a move in (see the module's comment). */
type PendingMove =
  | { to: 'end' }
  | { to: 'jump'; delta: number }
  | { to: 'step'; delta: number }
  | { to: 'time'; t: number }
  | { to: 'index'; idx: number };

/**
 * The playback of a lab's `app` store. `onSpeedChosen`: the user set the speed, which wins over
 * the pace of a run still on its way (labStore.ts `paceFor`). `jump`: the lab's jump, which a
 * jump that waited for its run makes (it asks for the explanations first where it needs them).
 */
export function createPlayback(
  app: StoreApi<LabState>,
  onSpeedChosen: () => void,
  jump: (delta: number) => void,
): {
  cursor: StoreApi<CursorState>;
  shown: StoreApi<{ idx: number }>;
  actions: PlaybackActions;
  /** Whether the jumps land on anomalies now (they need the verdict's explanations). */
  jumpsNeedExplanations: () => boolean;
  /**
   * The run of the scenario on screen has arrived and the cursor is on it: make the move asked
   * for while it was on its way, if any (and if asked for this scenario, not one since left).
   */
  runArrived: () => void;
} {
  const cursor = createStore<CursorState>()(() => ({ t: 0, idx: 0 }));
  const shown = createStore<{ idx: number }>()(() => ({ idx: 0 }));
  let inTick = false;
  let sinceShown = 0;
  const flushShown = () => {
    sinceShown = 0;
    const idx = cursor.getState().idx;
    if (shown.getState().idx !== idx) shown.setState({ idx });
  };
  cursor.subscribe(() => {
    if (inTick && sinceShown < SHOWN_INTERVAL_MS) return;
    flushShown();
  });
  app.subscribe((s, prev) => {
    if (prev.playing && !s.playing) flushShown();
  });

  /** See setOwnPlayback. */
  let ownPlayback: (() => void) | null = null;
  /** See setRevealGuard. */
  let revealGuard: (() => string | null) | null = null;
  /**
   * Why the run may not play or land on its end now (the guard's words, put in the status line),
   * or null: play and the end would show the final counters and tables — the answer to a
   * question still waiting for one.
   */
  const refusal = (): string | null => {
    const why = revealGuard?.() ?? null;
    if (why !== null) app.setState({ notice: why });
    return why;
  };
  /**
   * A move forward is refused: any later moment shows counters and tables on their way to the
   * answer (one event before the end shows it all). Back towards the start stays free.
   */
  const refusedAt = (idx: number): boolean => idx > cursor.getState().idx && refusal() !== null;
  /** See setJumpsHideAnomalies. */
  let jumpsWithout: readonly MomentKind[] = [];

  /**
   * The last edit's note ("Undone", "Set acks to all") is about that edit: once the user moves
   * through the run, the status line says where they are instead (it stayed while stepping).
   */
  const dismissNotice = () => {
    if (app.getState().notice !== null) app.setState({ notice: null });
  };

  /** The move asked for while the run of `scenario` was on its way: see runArrived. */
  let pending: { move: PendingMove; scenario: ScenarioInput } | null = null;
  /**
   * Keep `move` for the run on its way, if one is (true): the cursor waits, paused, and the last
   * move asked for wins (a step adds to a step) — unless the reveal guard refuses a move
   * `forward` (true too: nothing to make). False: the run on screen is the scenario's (a run
   * again with the explanations is the same trace), or none is coming (an invalid scenario): move
   * now.
   */
  const whenReady = (move: PendingMove, forward: boolean): boolean => {
    const s = app.getState();
    if (s.status !== 'running' && s.status !== 'validating') return false;
    if (s.view && s.viewFor === s.scenario) return false;
    if (forward && refusal() !== null) return true;
    const before = pending?.scenario === s.scenario ? pending.move : null;
    pending = {
      move:
        move.to === 'step' && before?.to === 'step'
          ? { to: 'step', delta: before.delta + move.delta }
          : move,
      scenario: s.scenario,
    };
    dismissNotice();
    if (s.playing) app.setState({ playing: false });
    return true;
  };

  const seekTo = (t: number) => {
    pending = null;
    if (app.getState().lastSkip !== 0) app.setState({ lastSkip: 0 });
    const v = app.getState().view;
    if (!v) {
      cursor.setState({ t: 0, idx: 0 });
      return;
    }
    const tt = Math.max(0, Math.min(t, v.endTime));
    cursor.setState({ t: tt, idx: indexAtTime(v, tt) });
  };

  const actions: PlaybackActions = {
    play() {
      const s = app.getState();
      if (!s.view) return;
      if (refusal() !== null) {
        if (s.playing) app.setState({ playing: false });
        return;
      }
      dismissNotice();
      // Play is the last move asked for: a move still waiting for the run is not made.
      pending = null;
      // At the end, play starts over.
      if (cursor.getState().idx >= s.view.n && cursor.getState().t >= s.view.endTime)
        cursor.setState({ t: 0, idx: 0 });
      app.setState({ playing: true });
    },
    pause() {
      app.setState({ playing: false });
    },
    togglePlay() {
      if (ownPlayback) ownPlayback();
      else if (app.getState().playing) actions.pause();
      else actions.play();
    },
    setOwnPlayback(toggle) {
      ownPlayback = toggle;
    },
    setSpeed(speed) {
      // A speed the user chose wins over the pace of a run still on its way.
      onSpeedChosen();
      app.setState({ speed: Math.min(SPEED_MAX, Math.max(SPEED_MIN, speed)) });
    },
    setSkipIdle(on) {
      app.setState({ skipIdle: on });
    },
    restart() {
      pending = null;
      dismissNotice();
      app.setState({ playing: false, lastSkip: 0 });
      cursor.setState({ t: 0, idx: 0 });
    },
    toEnd() {
      if (whenReady({ to: 'end' }, true)) return;
      const v = app.getState().view;
      if (!v) return;
      if (refusal() !== null) return;
      pending = null;
      dismissNotice();
      app.setState({ playing: false, lastSkip: 0 });
      cursor.setState({ idx: v.n, t: v.endTime });
    },
    setRevealGuard(guard) {
      revealGuard = guard;
    },
    forwardRefusal() {
      return refusal();
    },
    seek(t) {
      const v = app.getState().view;
      // With a view on screen, its time carries over to the run on its way (labStore.ts).
      if (!v && whenReady({ to: 'time', t }, t > 0)) return;
      if (v && refusedAt(indexAtTime(v, Math.min(Math.max(0, t), v.endTime)))) return;
      dismissNotice();
      seekTo(t);
    },
    openAt(t) {
      dismissNotice();
      seekTo(t);
    },
    seekIndex(idx) {
      const v = app.getState().view;
      if (!v) {
        whenReady({ to: 'index', idx }, idx > 0);
        return;
      }
      const i = Math.max(0, Math.min(Math.round(idx), v.n));
      if (refusedAt(i)) return;
      pending = null;
      dismissNotice();
      cursor.setState({ idx: i, t: timeAtIndex(v, i) });
    },
    step(delta) {
      if (whenReady({ to: 'step', delta: Math.sign(delta) }, delta > 0)) return;
      const v = app.getState().view;
      if (!v) return;
      app.setState({ playing: false });
      const { idx } = cursor.getState();
      actions.seekIndex(idx + Math.sign(delta));
    },
    jump(delta) {
      if (whenReady({ to: 'jump', delta }, delta > 0)) return;
      const v = app.getState().view;
      if (!v) return;
      pending = null;
      app.setState({ playing: false });
      const m = nextMoment(v, cursor.getState().idx, delta, jumpsWithout);
      if (!m) {
        app.setState({ notice: noMomentWords(v, delta, jumpsWithout) });
        return;
      }
      if (refusedAt(m.entry + 1)) return;
      actions.seekIndex(m.entry + 1);
      withMomentWords((words) => {
        // Said where the cursor still stands (the words may arrive after another move).
        if (app.getState().view === v && cursor.getState().idx === m.entry + 1)
          app.setState({ notice: words(v, m, delta) });
      });
    },
    setJumpsHideAnomalies(hide) {
      jumpsWithout = hide ? ['anomaly'] : [];
    },
    tick(dtReal) {
      const s = app.getState();
      const v = s.view;
      if (!s.playing || !v) return;
      const c = cursor.getState();
      const a = advance(v, c.t, dtReal, s.speed, s.skipIdle);
      // Whatever started the run, it waits as Play does (a question asked while it played).
      if (a.idx > c.idx && refusal() !== null) {
        app.setState({ playing: false });
        return;
      }
      sinceShown += dtReal;
      inTick = !a.done;
      cursor.setState({ t: a.t, idx: a.idx });
      inTick = false;
      // Only jumps worth telling (a second of virtual time or more) reach the app store.
      if (a.skipped >= 1000) app.setState({ lastSkip: a.skipped });
      if (a.done) app.setState({ playing: false });
    },
  };
  return {
    cursor,
    shown,
    actions,
    jumpsNeedExplanations: () => !jumpsWithout.includes('anomaly'),
    runArrived() {
      const p = pending;
      pending = null;
      if (!p || p.scenario !== app.getState().scenario) return;
      const { move } = p;
      switch (move.to) {
        case 'end':
          return actions.toEnd();
        case 'jump':
          return jump(move.delta);
        case 'step':
          return actions.seekIndex(cursor.getState().idx + move.delta);
        case 'time':
          return actions.seek(move.t);
        case 'index':
          return actions.seekIndex(move.idx);
        default: {
          const never: never = move;
          return never;
        }
      }
    },
  };
}
