/**
 * A room client for Node (tests and the bench): a ws socket that queues the server's messages so
 * a test can wait for the next one of a type, in order, without racing the socket.
 */
import { WebSocket } from 'ws';
import type { ClientMessage, CreatedSession, ServerMessage } from '../src/views/room/protocol';

type Of<T extends ServerMessage['type']> = Extract<ServerMessage, { type: T }>;

export class RoomTestClient {
  /** Every message received, in order (read by tests that check what a student never saw). */
  readonly received: ServerMessage[] = [];
  private readonly queue: ServerMessage[] = [];
  private waiters: { type: string; resolve: (m: ServerMessage) => void }[] = [];

  private constructor(private readonly ws: WebSocket) {
    this.closed = new Promise((resolve) =>
      ws.once('close', (code, reason) => {
        this.closeReason = reason.toString('utf8');
        resolve(code);
      }),
    );
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as ServerMessage;
      this.received.push(msg);
      const k = this.waiters.findIndex((w) => w.type === msg.type);
      if (k >= 0) this.waiters.splice(k, 1)[0]!.resolve(msg);
      else this.queue.push(msg);
    });
  }

  /**
   * `autoPong: false` makes a phone gone off the network without a TCP close (a half-open socket):
   * it never answers the server's pings (ws's option:
   * https://github.com/websockets/ws/blob/master/doc/ws.md#new-websocketaddress-protocols-options).
   */
  static open(baseUrl: string, options: { autoPong?: boolean } = {}): Promise<RoomTestClient> {
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}ws`, options);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new RoomTestClient(ws)));
      ws.once('error', reject);
    });
  }

  /** Sends a message (or raw text, to test what the server refuses). */
  send(msg: ClientMessage | string): void {
    this.ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
  }

  /** The next message of this type not yet taken (earlier ones of other types stay queued). */
  next<T extends ServerMessage['type']>(type: T): Promise<Of<T>> {
    const k = this.queue.findIndex((m) => m.type === type);
    if (k >= 0) return Promise.resolve(this.queue.splice(k, 1)[0] as Of<T>);
    return new Promise((resolve) =>
      this.waiters.push({ type, resolve: resolve as (m: ServerMessage) => void }),
    );
  }

  /** Whether the socket is still open (a refusal must not close it). */
  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** Resolves with the close code when the socket closes (the server's end or a terminate). */
  readonly closed: Promise<number>;

  /** The close frame's reason, once {@link closed} has resolved ('' for none). */
  closeReason = '';

  close(): void {
    this.ws.close();
  }

  /** Drops the socket at once, with no closing handshake: a tab killed, a phone gone. */
  terminate(): void {
    this.ws.terminate();
  }
}

/** POST /api/sessions: a new session, as the presenter's page creates it. */
export async function createSession(baseUrl: string): Promise<CreatedSession> {
  const res = await fetch(`${baseUrl}api/sessions`, { method: 'POST' });
  if (res.status !== 201) throw new Error(`POST /api/sessions: ${res.status} ${await res.text()}`);
  return (await res.json()) as CreatedSession;
}
