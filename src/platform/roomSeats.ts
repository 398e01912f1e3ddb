/**
 * The room's tokens kept in sessionStorage so that a reload rejoins (./roomClient.ts): the
 * presenter's seat, read as the lab's first screen draws "Start a room", and a student's. Without
 * zod, which the room's client loads with the room (issue 24): a seat is an object of the string
 * fields below, else none.
 */

/** A presenter's session, as the server created it (`CreatedSession`, src/views/room/protocol.ts). */
export interface PresenterSeat {
  sessionId: string;
  presenterToken: string;
  code: string;
  joinUrl: string;
}
const PRESENTER_FIELDS = ['sessionId', 'presenterToken', 'code', 'joinUrl'] as const;

interface StudentSeat {
  code: string;
  studentToken: string;
}
const STUDENT_FIELDS = ['code', 'studentToken'] as const;

const PRESENTER_KEY = 'delivery-lab:room-presenter';
const STUDENT_KEY = 'delivery-lab:room-student';

/** The seat stored under `key` if it is an object whose `fields` are strings (only those kept). */
function read<T>(key: string, fields: readonly (keyof T & string)[]): T | null {
  try {
    const v: unknown = JSON.parse(window.sessionStorage.getItem(key) ?? 'null');
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
    const o = v as Record<string, unknown>;
    if (!fields.every((f) => typeof o[f] === 'string')) return null;
    return Object.fromEntries(fields.map((f) => [f, o[f]])) as T;
  } catch {
    return null;
  }
}
function write(key: string, value: unknown): void {
  try {
    if (value === null) window.sessionStorage.removeItem(key);
    else window.sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage refused (private mode, quota): the room works; a reload starts afresh.
  }
}

export const roomSeats = {
  presenter: () => read<PresenterSeat>(PRESENTER_KEY, PRESENTER_FIELDS),
  setPresenter: (seat: PresenterSeat | null) => write(PRESENTER_KEY, seat),
  /** The student's token for this code, if this tab joined it before. */
  student: (code: string) => {
    const seat = read<StudentSeat>(STUDENT_KEY, STUDENT_FIELDS);
    return seat?.code === code ? seat : null;
  },
  setStudent: (seat: StudentSeat | null) => write(STUDENT_KEY, seat),
};
