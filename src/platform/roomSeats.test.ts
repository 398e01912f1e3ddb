/**
 * The room's seats: a student's per join code in the browser's localStorage, kept as long as a
 * join code admits new students and dropped after; the presenter's in the tab's sessionStorage.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ROOM_LIMITS } from '../views/room/protocol';
import { roomSeats, STUDENT_SEAT_TTL_MS } from './roomSeats';

/** A Storage in memory. */
function memory(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    key: (k) => [...items.keys()][k] ?? null,
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, v),
    removeItem: (k) => void items.delete(k),
    clear: () => items.clear(),
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('room seats', () => {
  it('keeps a student’s seat per code in localStorage, for as long as a code admits students', () => {
    const local = memory();
    const session = memory();
    vi.stubGlobal('window', { localStorage: local, sessionStorage: session });
    expect(STUDENT_SEAT_TTL_MS).toBe(ROOM_LIMITS.codeTtlMs);
    const t0 = 1_000_000;
    roomSeats.setStudent({ code: 'ABC234', studentToken: 'token-of-abc-0123' }, t0);
    roomSeats.setStudent({ code: 'XYZ789', studentToken: 'token-of-xyz-0123' }, t0 + 1000);
    // Another tab of the same browser reads it (localStorage), not the tab's sessionStorage.
    expect(session.length).toBe(0);
    expect(roomSeats.student('ABC234', t0 + 5)).toEqual({
      code: 'ABC234',
      studentToken: 'token-of-abc-0123',
    });
    expect(roomSeats.student('QQQ222', t0 + 5)).toBeNull();
    // 4 hours after it was saved, ABC234's seat is dropped; XYZ789's (saved 1 s later) is not yet.
    expect(roomSeats.student('ABC234', t0 + STUDENT_SEAT_TTL_MS)).toBeNull();
    expect(local.length).toBe(1);
    expect(roomSeats.student('XYZ789', t0 + STUDENT_SEAT_TTL_MS)?.studentToken).toBe(
      'token-of-xyz-0123',
    );
  });

  /**
   * A tab that joined before the token moved to localStorage kept it in its sessionStorage, under
   * one key for every code: after a reload it joined as a new student (its answer lost, counted
   * twice on the projector). The old seat is moved once, to its code's key, and the old key goes.
   */
  it('moves a student’s seat from the tab’s sessionStorage (before it was per code) once', () => {
    const local = memory();
    const session = memory();
    vi.stubGlobal('window', { localStorage: local, sessionStorage: session });
    const old = { code: 'ABC234', studentToken: 'token-of-abc-0123' };
    session.setItem('delivery-lab:room-student', JSON.stringify(old));
    const t0 = 5_000_000;
    // Another code: none for it, but the old seat is moved to its own code's key all the same.
    expect(roomSeats.student('XYZ789', t0)).toBeNull();
    expect(session.getItem('delivery-lab:room-student')).toBeNull();
    expect(JSON.parse(local.getItem('delivery-lab:room-student:ABC234') ?? 'null')).toEqual({
      ...old,
      savedAt: t0,
    });
    expect(roomSeats.student('ABC234', t0 + 1)).toEqual(old);
    // Moved once: a later seat of this code is not replaced by a stale one in the tab.
    roomSeats.setStudent({ code: 'ABC234', studentToken: 'token-of-abc-4567' }, t0 + 2);
    session.setItem(
      'delivery-lab:room-student',
      JSON.stringify({ code: 'ABC234', studentToken: 'stale-token-0123' }),
    );
    expect(roomSeats.student('ABC234', t0 + 3)?.studentToken).toBe('token-of-abc-4567');
    expect(session.length).toBe(0);
    // A seat in the tab that is not one (hand-edited, another version) is dropped, not read.
    session.setItem('delivery-lab:room-student', '{"code":1}');
    expect(roomSeats.student('QQQ222', t0 + 4)).toBeNull();
    expect(session.length).toBe(0);
  });
});
