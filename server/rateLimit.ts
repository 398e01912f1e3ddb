/**
 * A token bucket per connection: `burst` messages at once, refilled at `perSecond`. The clock is
 * passed in, so tests hold it still and count refusals exactly.
 */
export function createRateLimit(burst: number, perSecond: number, now: () => number) {
  let tokens = burst;
  let last = now();
  return {
    /** Whether one more message may pass now (and takes its token if so). */
    take(): boolean {
      const t = now();
      tokens = Math.min(burst, tokens + ((t - last) / 1000) * perSecond);
      last = t;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}
