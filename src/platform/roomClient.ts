/**
 * The page's side of the room: the classroom server's HTTP API, the WebSocket (reconnected after a
 * drop), and the tokens kept so that a reload rejoins — the student as the same student (per join
 * code, in localStorage: a second tab of the same phone is the same student), the presenter in
 * the same session (in the tab's sessionStorage,
 * https://developer.mozilla.org/en-US/docs/Web/API/Window/sessionStorage). The tokens are
 * ./roomSeats.ts (re-exported): the lab's first screen reads a presenter's seat without this
 * module, which validates the server's messages with zod (issue 24: loaded on "Start a room").
 */
import {
  CLASSROOM_PROBE,
  CreatedSessionSchema,
  ServerMessageSchema,
  type ClientMessage,
  type CreatedSession,
  type ServerMessage,
} from '../views/room/protocol';

export { roomSeats, type PresenterSeat } from './roomSeats';

/** Whether the page is served by the classroom server (`npm run classroom`). */
export async function probeClassroom(): Promise<boolean> {
  try {
    const res = await fetch('./api/classroom', { headers: { accept: 'application/json' } });
    if (!res.ok) return false;
    const body = (await res.json()) as { classroom?: unknown; version?: unknown };
    // A static host answers unknown paths with the page itself (not JSON), or a 404.
    return body.classroom === CLASSROOM_PROBE.classroom && body.version === CLASSROOM_PROBE.version;
  } catch {
    return false;
  }
}

/** A new session; throws with the server's reason. */
export async function createRoomSession(): Promise<CreatedSession> {
  const res = await fetch('./api/sessions', { method: 'POST' });
  const body: unknown = await res.json().catch(() => null);
  if (res.status !== 201) {
    const why = (body as { error?: string } | null)?.error ?? `HTTP ${res.status}`;
    throw new Error(`The room could not be started: ${why}.`);
  }
  return CreatedSessionSchema.parse(body);
}

/** The session's results as CSV text (the presenter's token is sent as a header, not in a URL). */
export async function fetchResultsCsv(sessionId: string, presenterToken: string): Promise<string> {
  const res = await fetch(`./api/sessions/${encodeURIComponent(sessionId)}/results.csv`, {
    headers: { authorization: `Bearer ${presenterToken}` },
  });
  if (!res.ok) throw new Error(`The results could not be exported (HTTP ${res.status}).`);
  return res.text();
}

/**
 * `closed`: for good — the server closed the socket with 1008 (policy violation: its hello was
 * refused, or never came), or the page closed the link on a refusal of its seat.
 */
/** The close code the classroom server closes a socket with when no hello of it will do. */
const POLICY_VIOLATION = 1008;

export type RoomLinkStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface RoomLink {
  /** Sends the message if the socket is open; false when it could not go. */
  send(msg: ClientMessage): boolean;
  /**
   * Drops this socket and opens a new one at once: a socket that no longer answers (a phone's
   * network gone without the socket being told) is not waited for.
   */
  reconnect(): void;
  close(): void;
}

/**
 * Opens the room's socket. `hello` is sent on every (re)connection — the join or present message
 * that puts this page back in its session — so a dropped connection heals by itself.
 */
export function connectRoom(handlers: {
  hello: () => ClientMessage;
  onMessage: (msg: ServerMessage) => void;
  onStatus: (status: RoomLinkStatus) => void;
  /** Say hello again when the page is back on screen or online (a student's phone). */
  helloOnResume?: boolean;
}): RoomLink {
  const url = new URL('./ws', window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  let ws: WebSocket | null = null;
  let closed = false;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Waits for the server's answer to a hello sent again on a socket thought open. */
  let answerDue: ReturnType<typeof setTimeout> | undefined;
  /** The server's heartbeat interval, as it told this page (`joined`, `presenting`). */
  let heartbeatMs: number | null = null;
  /** Fires when the server has been silent too long: the socket is taken for dead. */
  let silence: ReturnType<typeof setTimeout> | undefined;
  // A socket whose network went away without a close (the venue's Wi-Fi, a phone left idle) is
  // not told: the browser sees no ping, and the page waited on it for good, "connected". The
  // server's heartbeat comes every `heartbeatMs` (server/classroomServer.ts); heard nothing for
  // that long and as much again (at most 5 s more: Socket.IO's client waits pingInterval +
  // pingTimeout, https://socket.io/docs/v4/how-it-works/#disconnection-detection), the page says
  // the connection is lost and opens a new one — on screen only: a page back on screen says
  // hello again first (retryNow).
  const expectHeartbeat = () => {
    clearTimeout(silence);
    if (heartbeatMs === null) return;
    silence = setTimeout(
      () => {
        if (!closed && document.visibilityState !== 'hidden') reconnect();
      },
      heartbeatMs + Math.min(heartbeatMs, 5000),
    );
  };

  const open = () => {
    clearTimeout(timer);
    handlers.onStatus(attempt === 0 ? 'connecting' : 'reconnecting');
    const socket = new WebSocket(url);
    ws = socket;
    socket.onopen = () => {
      attempt = 0;
      handlers.onStatus('open');
      socket.send(JSON.stringify(handlers.hello()));
      expectHeartbeat();
    };
    socket.onmessage = (e) => {
      clearTimeout(answerDue);
      try {
        const parsed = ServerMessageSchema.safeParse(JSON.parse(String(e.data)));
        if (!parsed.success) return;
        const msg = parsed.data;
        if ((msg.type === 'joined' || msg.type === 'presenting') && msg.heartbeatMs)
          heartbeatMs = msg.heartbeatMs;
        expectHeartbeat();
        if (msg.type !== 'heartbeat') handlers.onMessage(msg);
      } catch {
        // Not JSON: not from our server; ignored.
      }
    };
    socket.onclose = (e) => {
      clearTimeout(silence);
      if (closed) return;
      // 1008 (policy violation, https://www.rfc-editor.org/rfc/rfc6455#section-7.4.1) is the
      // server's "this hello will not do" (docs/classroom.md#security-limits): a new socket
      // would say the same hello and be refused the same way — a refused presenter was closed,
      // reconnected and refused every 45 s.
      if (e.code === POLICY_VIOLATION) {
        closed = true;
        handlers.onStatus('closed');
        return;
      }
      attempt += 1;
      handlers.onStatus('reconnecting');
      // 1 s, 2 s, 4 s… at most 10 s: a server restart is back within seconds.
      timer = setTimeout(open, Math.min(10_000, 1000 * 2 ** (attempt - 1)));
    };
  };
  const drop = () => {
    clearTimeout(answerDue);
    clearTimeout(silence);
    if (!ws) return;
    ws.onopen = ws.onmessage = ws.onclose = null;
    ws.close();
    ws = null;
  };
  const reconnect = () => {
    if (closed) return;
    drop();
    attempt += 1;
    open();
  };
  // The phone back online, or the page back on screen (a phone suspends a page in the
  // background, its socket with it): try at once rather than at the end of the back-off. A
  // socket that looks open says hello again — the server answers with the room as it is now
  // (what was missed meanwhile: the next step, the reveal) — and one that does not answer
  // within 5 s is dead (its network gone while the phone slept, unknown to it): a new one.
  const retryNow = () => {
    if (closed || document.visibilityState === 'hidden') return;
    if (ws?.readyState === WebSocket.OPEN) {
      if (!handlers.helloOnResume) return;
      clearTimeout(answerDue);
      ws.send(JSON.stringify(handlers.hello()));
      answerDue = setTimeout(reconnect, 5000);
      return;
    }
    if (ws && ws.readyState !== WebSocket.CLOSED) return;
    open();
  };
  window.addEventListener('online', retryNow);
  document.addEventListener('visibilitychange', retryNow);
  open();
  return {
    send(msg) {
      if (ws?.readyState !== WebSocket.OPEN) return false;
      ws.send(JSON.stringify(msg));
      return true;
    },
    reconnect,
    close() {
      closed = true;
      clearTimeout(timer);
      window.removeEventListener('online', retryNow);
      document.removeEventListener('visibilitychange', retryNow);
      drop();
    },
  };
}
