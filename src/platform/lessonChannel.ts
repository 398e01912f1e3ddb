/**
 * The presenter view and its notes window (`&notes=1`) kept in step over a BroadcastChannel (same
 * origin, same browser; https://developer.mozilla.org/docs/Web/API/Broadcast_Channel_API): the
 * presenter announces each step; a notes window says hello when it opens and is told where the
 * presenter is; its keys ask the presenter to move or reveal.
 */

/** What goes over the channel. */
export type LessonMessage =
  | { type: 'step'; index: number; revealed: boolean }
  | { type: 'hello' }
  | { type: 'go'; index: number }
  | { type: 'reveal' };

export interface LessonChannel {
  post(m: LessonMessage): void;
  close(): void;
}

/** Whether a value received is one of ours (another tab may run another build). */
function isMessage(m: unknown): m is LessonMessage {
  if (typeof m !== 'object' || m === null) return false;
  const t = (m as { type?: unknown }).type;
  const index = (m as { index?: unknown }).index;
  const indexOk = typeof index === 'number' && Number.isInteger(index) && index >= 0;
  return t === 'hello' || t === 'reveal' || ((t === 'step' || t === 'go') && indexOk);
}

/** The channel of one lesson; a no-op where BroadcastChannel is missing. */
export function openLessonChannel(
  lessonId: string,
  onMessage: (m: LessonMessage) => void,
): LessonChannel {
  if (typeof BroadcastChannel === 'undefined') return { post() {}, close() {} };
  const channel = new BroadcastChannel(`delivery-lab-lesson:${lessonId}`);
  channel.onmessage = (e: MessageEvent<unknown>) => {
    if (isMessage(e.data)) onMessage(e.data);
  };
  return { post: (m) => channel.postMessage(m), close: () => channel.close() };
}
