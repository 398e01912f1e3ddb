import type { RoomStep } from '../../views/room/protocol';
import type { RoomSource } from './currentRoomStep';

/**
 * Whether the room's open step is the lesson's step on screen, or its challenge's round. Its
 * number alone said so before: a room started on the page's story (numbered from 0 in the order
 * asked) or carried from another lesson in the same tab has a step 0 of its own, and the
 * lesson's step 1 took it for itself — never asked, the phones kept the old question, and the
 * ask button refused to send it ("The phones have step 1's question"). The title and the
 * question's words tell them apart (a presenter's reload finds its own step, as sent).
 */
export function isLessonStepOpen(open: RoomStep | null, source: RoomSource): boolean {
  if (open === null || open.stepIndex !== source.index) return false;
  const same = (s: RoomStep) => s.title === open.title && s.question.text === open.question.text;
  if (open.question.kind === 'challenge')
    // Its challenge's round: offered once the step is revealed (a round of another is not this).
    return source.challenge ? same(source.challenge.step()) : true;
  return same(source.step());
}
