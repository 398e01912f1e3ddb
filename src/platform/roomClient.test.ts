// @vitest-environment jsdom
/**
 * The room's socket as the page keeps it: a drop reconnects, and the server's 1008 (a hello it
 * refused, docs/classroom.md#security-limits) does not — a refused presenter was closed by the
 * server every 45 s and presented again every time.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectRoom, type RoomLinkStatus } from './roomClient';

/** A WebSocket the test opens and closes by hand; every socket made is kept, in order. */
class FakeSocket {
  static made: FakeSocket[] = [];
  static readonly OPEN = 1;
  static readonly CLOSED = 3;
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: ((e: { code: number; reason: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }
  send(text: string) {
    this.sent.push(text);
  }
  close() {
    this.readyState = FakeSocket.CLOSED;
  }
  /** The server accepts the connection. */
  opened() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  /** The server closes it, with this code and reason. */
  closedBy(code: number, reason: string) {
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.({ code, reason });
  }
}

const HELLO = { type: 'present', sessionId: 's-1', presenterToken: 'a-presenter-token-1' } as const;

beforeEach(() => {
  FakeSocket.made = [];
  vi.useFakeTimers();
  vi.stubGlobal('WebSocket', FakeSocket);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function connect() {
  const statuses: RoomLinkStatus[] = [];
  const link = connectRoom({
    hello: () => HELLO,
    onMessage: () => {},
    onStatus: (s) => statuses.push(s),
  });
  return { link, statuses };
}

describe("the room's socket", () => {
  it('opens a new socket after a drop, and says hello on it', () => {
    const { link, statuses } = connect();
    FakeSocket.made[0]!.opened();
    FakeSocket.made[0]!.closedBy(1006, '');
    vi.advanceTimersByTime(1000);
    expect(FakeSocket.made).toHaveLength(2);
    FakeSocket.made[1]!.opened();
    expect(FakeSocket.made[1]!.sent).toEqual([JSON.stringify(HELLO)]);
    expect(statuses).toEqual(['connecting', 'open', 'reconnecting', 'reconnecting', 'open']);
    link.close();
  });

  it('stays closed after the server closes it with 1008: the same hello would be refused again', () => {
    const { link, statuses } = connect();
    FakeSocket.made[0]!.opened();
    FakeSocket.made[0]!.closedBy(1008, 'present refused: the room has ended');
    // Well past the back-off's longest wait (10 s), and the server's 45 s deadline.
    vi.advanceTimersByTime(60_000);
    window.dispatchEvent(new Event('online'));
    expect(FakeSocket.made).toHaveLength(1);
    expect(statuses).toEqual(['connecting', 'open', 'closed']);
    link.close();
  });
});
