/**
 * The animation clock: calls `onFrame(dtMs)` once per `requestAnimationFrame` while running.
 * An imperative object whose lifecycle a hook owns (src/ui/hooks/usePlaybackLoop.ts), like
 * xyflow's XYDrag; it knows nothing about the lab — the store decides what a frame means.
 */

/** A start/stop-able frame loop. */
export interface FrameLoop {
  start(): void;
  stop(): void;
  readonly running: boolean;
}

/**
 * Create a frame loop.
 * @param onFrame - called with the real milliseconds since the previous frame (0 on the first,
 *   and on the first after the page was hidden: a background tab draws no frames, and the time it
 *   spent there is not play time).
 */
export function createFrameLoop(onFrame: (dtMs: number) => void): FrameLoop {
  let handle = 0;
  let last = -1;
  let running = false;
  const shown = () => {
    if (document.visibilityState === 'visible') last = -1;
  };
  const frame = (now: number) => {
    if (!running) return;
    const dt = last < 0 ? 0 : now - last;
    last = now;
    onFrame(dt);
    if (running) handle = requestAnimationFrame(frame);
  };
  return {
    start() {
      if (running) return;
      running = true;
      last = -1;
      document.addEventListener('visibilitychange', shown);
      handle = requestAnimationFrame(frame);
    },
    stop() {
      running = false;
      document.removeEventListener('visibilitychange', shown);
      cancelAnimationFrame(handle);
    },
    get running() {
      return running;
    },
  };
}
