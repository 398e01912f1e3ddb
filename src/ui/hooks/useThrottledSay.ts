import { useCallback, useRef, useState } from 'react';

/** How often a long task's progress is said at most: a screen reader reads each change. */
const SAY_PROGRESS_EVERY_MS = 10_000;

/**
 * What a live region says about a long task (the fault atlas): its start, its end and a
 * cancellation at once (`say(text, true)`), its progress at most every 10 s. The visible progress
 * updates several times a second; a `role="status"` around it had a screen reader queue each of
 * them ("53 of 206 runs…, 66 of 206 runs…") and say nothing when the atlas ended.
 *
 * @returns the text to put in an always-present `role="status"` element, and `say`.
 */
export function useThrottledSay(): [string, (text: string, now?: boolean) => void] {
  const [said, setSaid] = useState('');
  const last = useRef(Number.NEGATIVE_INFINITY);
  const say = useCallback((text: string, now = false) => {
    const t = performance.now();
    if (!now && t - last.current < SAY_PROGRESS_EVERY_MS) return;
    last.current = t;
    setSaid(text);
  }, []);
  return [said, say];
}
