/**
 * The room's tokens, kept so that a reload rejoins (./roomClient.ts): the presenter's seat in the
 * tab's sessionStorage, read as the lab's first screen draws "Start a room"; a student's in
 * localStorage, per join code, so that the join link opened again on the same phone — a second
 * scan of the QR code, a tab closed and reopened, a second tab — is the same student: each tab
 * was a student of its own, counted on the projector beside the first, and a closed tab lost its
 * answer. A student's seat is kept as long as a join code admits new students (4 hours,
 * ROOM_LIMITS.codeTtlMs: src/views/room/protocol.ts) and then dropped, so nothing lingers on a
 * shared computer. Without zod, which the room's client loads with the room (issue 24): a seat
 * is an object of the string fields below, else none.
 */

import { wellFormedJoinCode } from '../views/room/joinCode';

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
/** A student's seat: this prefix and the join code. */
const STUDENT_PREFIX = 'delivery-lab:room-student:';
/** How long a student's seat is kept: ROOM_LIMITS.codeTtlMs (src/views/room/protocol.ts). */
export const STUDENT_SEAT_TTL_MS = 4 * 60 * 60 * 1000;

type Store = () => Storage;
const tab: Store = () => window.sessionStorage;
const browser: Store = () => window.localStorage;

/** The object stored under `key` if its `fields` are strings (only those kept, and `savedAt`). */
function read<T>(store: Store, key: string, fields: readonly (keyof T & string)[]): T | null {
  try {
    const v: unknown = JSON.parse(store().getItem(key) ?? 'null');
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
    const o = v as Record<string, unknown>;
    if (!fields.every((f) => typeof o[f] === 'string')) return null;
    return Object.fromEntries(fields.map((f) => [f, o[f]])) as T;
  } catch {
    return null;
  }
}
function write(store: Store, key: string, value: unknown): void {
  try {
    if (value === null) store().removeItem(key);
    else store().setItem(key, JSON.stringify(value));
  } catch {
    // Storage refused (private mode, quota): the room works; a reload starts afresh.
  }
}

/** When the seat under `key` was saved (0: unknown). */
function savedAt(key: string): number {
  try {
    const v = (JSON.parse(browser().getItem(key) ?? 'null') as { savedAt?: unknown } | null)
      ?.savedAt;
    return typeof v === 'number' ? v : 0;
  } catch {
    return 0;
  }
}

/**
 * Where a student's seat was before it moved to localStorage per code: the tab's sessionStorage,
 * one key. A tab that joined then rejoined as a new student after a reload (its answer gone from
 * its screen, counted twice on the projector) until its seat is moved — once: the key goes.
 */
const TAB_STUDENT_KEY = 'delivery-lab:room-student';

/** Moves the tab's old seat to its code's key (unless this browser has a seat for it already). */
function moveTabSeat(now: number): void {
  try {
    if (tab().getItem(TAB_STUDENT_KEY) === null) return;
  } catch {
    return; // Storage refused: nothing was kept.
  }
  const old = read<StudentSeat>(tab, TAB_STUDENT_KEY, STUDENT_FIELDS);
  write(tab, TAB_STUDENT_KEY, null);
  if (!old || !wellFormedJoinCode(old.code)) return;
  if (read<StudentSeat>(browser, STUDENT_PREFIX + old.code, STUDENT_FIELDS) === null)
    write(browser, STUDENT_PREFIX + old.code, { ...old, savedAt: now });
}

/** Drops the students' seats saved longer ago than their join codes admit anyone. */
function dropOldSeats(now: number): void {
  try {
    const store = browser();
    const keys = Array.from({ length: store.length }, (_, k) => store.key(k) ?? '');
    for (const key of keys)
      if (key.startsWith(STUDENT_PREFIX) && now - savedAt(key) >= STUDENT_SEAT_TTL_MS)
        store.removeItem(key);
  } catch {
    // Storage refused: nothing was kept.
  }
}

export const roomSeats = {
  presenter: () => read<PresenterSeat>(tab, PRESENTER_KEY, PRESENTER_FIELDS),
  setPresenter: (seat: PresenterSeat | null) => write(tab, PRESENTER_KEY, seat),
  /** The student's token for this code, if this browser joined it in the last 4 hours. */
  student: (code: string, now = Date.now()): StudentSeat | null => {
    moveTabSeat(now);
    dropOldSeats(now);
    const seat = read<StudentSeat>(browser, STUDENT_PREFIX + code, STUDENT_FIELDS);
    return seat?.code === code ? seat : null;
  },
  setStudent: (seat: StudentSeat, now = Date.now()) =>
    write(browser, STUDENT_PREFIX + seat.code, { ...seat, savedAt: now }),
};
