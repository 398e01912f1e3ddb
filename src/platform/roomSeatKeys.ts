/**
 * Where a tab keeps its room seats (sessionStorage, ./roomClient.ts says why), without the room's
 * schemas: the page's first render asks only whether a presenter's seat is kept, and loads the
 * room client (zod, src/views/room/protocol.ts) to read and validate it only when one is (issue
 * 24: first verdict ≤ 500 ms; zod off the page's first path).
 */
export const PRESENTER_KEY = 'delivery-lab:room-presenter';
export const STUDENT_KEY = 'delivery-lab:room-student';

/** Whether this tab keeps a presenter's seat, unread: ./roomClient.ts's `roomSeats` validates it. */
export function presenterSeatKept(): boolean {
  try {
    return window.sessionStorage.getItem(PRESENTER_KEY) !== null;
  } catch {
    return false;
  }
}
