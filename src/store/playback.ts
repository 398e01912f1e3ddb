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
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { indexAtTime, timeAtIndex } from '../views/run/at';
import { nextMoment, noMomentWords, type MomentKind } from '../views/run/moments';
import { advance, SPEED_MAX, SPEED_MIN } from '../views/run/playback';
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

/**
 * The playback of a lab's `app` store. `onSpeedChosen`: the user set the speed, which wins over
 * the pace of a run still on its way (labStore.ts `paceFor`).
 */
export function createPlayback(
  app: StoreApi<LabState>,
  onSpeedChosen: () => void,
): {
  cursor: StoreApi<CursorState>;
  shown: StoreApi<{ idx: number }>;
  actions: PlaybackActions;
  /** Whether the jumps land on anomalies now (they need the verdict's explanations). */
  jumpsNeedExplanations: () => boolean;
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

  const seekTo = (t: number) => {
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
      dismissNotice();
      app.setState({ playing: false, lastSkip: 0 });
      cursor.setState({ t: 0, idx: 0 });
    },
    toEnd() {
      const v = app.getState().view;
      if (!v) return;
      if (refusal() !== null) return;
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
      if (!v) return;
      const i = Math.max(0, Math.min(Math.round(idx), v.n));
      if (refusedAt(i)) return;
      dismissNotice();
      cursor.setState({ idx: i, t: timeAtIndex(v, i) });
    },
    step(delta) {
      const v = app.getState().view;
      if (!v) return;
      app.setState({ playing: false });
      const { idx } = cursor.getState();
      actions.seekIndex(idx + Math.sign(delta));
    },
    jump(delta) {
      const v = app.getState().view;
      if (!v) return;
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
  };
}
