/**
 * The classroom server: one Node process, one port. HTTP serves the built page (dist/) and a small
 * API; WebSocket (`ws`, on /ws of the same port) relays a session between the presenter's page and
 * the students' (the message protocol: src/views/room/protocol.ts).
 *
 * - POST /api/sessions (from this machine only): a new session → code, join URL, presenter token.
 * - GET /api/sessions/<id>/results.csv with `Authorization: Bearer <presenter token>`: the CSV.
 * - GET /api/classroom: the probe by which the page knows this server serves it.
 *
 * ws in "noServer" mode shares the HTTP server's port: the `upgrade` event is handed to
 * `handleUpgrade` (https://github.com/websockets/ws/blob/master/doc/ws.md#serverhandleupgraderequest-socket-head-callback).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import {
  CLASSROOM_PROBE,
  ClientMessageSchema,
  describeIssue,
  ROOM_LIMITS,
  type ClientMessage,
  type CreatedSession,
  type ServerMessage,
} from '../src/views/room/protocol';
import { createRateLimit } from './rateLimit';
import { createResultsWriter, loadResults } from './resultsFile';
import { resultsCsv } from './resultsCsv';
import {
  currentStep,
  hashToken,
  isRefusal,
  resultsOf,
  Sessions,
  solutionsOf,
  tallyOf,
  tallyOfRecord,
  type Refusal,
  type Session,
  type Student,
} from './sessions';
import { serveStatic } from './staticFiles';

export interface ClassroomOptions {
  /** Where to listen: 127.0.0.1 by default (this machine only); 0.0.0.0 opens it on the LAN. */
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** The built page. */
  distDir: string;
  /** The results file; without one, results live in memory until the server stops. */
  resultsFile?: string;
  /** The host students reach the server at, for the join URL (a LAN address with --host). */
  publicHost?: string;
  /** The clock (tests hold it still). */
  now?: () => number;
  /**
   * How often every socket is pinged; one that has not answered the ping before is terminated
   * (HEARTBEAT_MS by default; tests use a fraction of a second).
   */
  heartbeatMs?: number;
  /**
   * How long a socket may stay without a valid `join` or `present` before it is closed
   * (JOIN_DEADLINE_MS by default; tests use a fraction of a second).
   */
  joinDeadlineMs?: number;
}

/**
 * A socket that has not joined a room (a valid `join`) nor taken a presenter's seat (`present`)
 * this long after it connected is closed, code 1008 (policy violation, RFC 6455 §7.4.1,
 * https://www.rfc-editor.org/rfc/rfc6455#section-7.4.1), its reason in the close frame: it kept
 * one of the server's connection slots (ROOM_LIMITS.connections) for good otherwise, as it
 * answers the heartbeat's pings. Socket.IO's default for the same rule, its server's
 * `connectTimeout` ("the number of ms before closing a client that has not successfully joined a
 * namespace", https://socket.io/docs/v4/server-options/#connecttimeout): 45 s. The lab's pages
 * send their `join` or `present` as the socket opens, so none waits on it.
 */
const JOIN_DEADLINE_MS = 45_000;

/**
 * Every socket is pinged this often, and one that did not answer the last ping (a phone gone
 * off the venue's Wi-Fi without a TCP close: a half-open socket) is terminated — ws's documented
 * heartbeat, https://github.com/websockets/ws#how-to-detect-and-close-broken-connections, at its
 * 30 s. A dead phone is let go within 30–60 s, its connection slot freed; a ping every 30 s to 150
 * phones costs nothing, and keeps the socket alive through a proxy's idle timeout (nginx's
 * proxy_read_timeout is 60 s: https://nginx.org/en/docs/http/ngx_http_proxy_module.html#proxy_read_timeout).
 */
const HEARTBEAT_MS = 30_000;

export interface ClassroomServer {
  /** The base URL, e.g. http://127.0.0.1:8080/ */
  url: string;
  port: number;
  close(): Promise<void>;
}

interface Client {
  ws: WebSocket;
  /** Closes the socket unless it joins or presents in time (JOIN_DEADLINE_MS). */
  deadline: ReturnType<typeof setTimeout> | undefined;
  /** It answered the last ping (a pong), or it has not been pinged yet. */
  alive: boolean;
  rate: ReturnType<typeof createRateLimit>;
  session: Session | null;
  student: Student | null;
  presenter: boolean;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

export async function startClassroomServer(options: ClassroomOptions): Promise<ClassroomServer> {
  const now = options.now ?? Date.now;
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const joinDeadlineMs = options.joinDeadlineMs ?? JOIN_DEADLINE_MS;
  const sessions = new Sessions(options.resultsFile ? await loadResults(options.resultsFile) : []);
  const writer = options.resultsFile
    ? createResultsWriter(options.resultsFile, () => sessions.all())
    : { save: () => Promise.resolve() };
  const clients = new Set<Client>();
  let port = options.port;

  const joinUrl = (code: string) =>
    `http://${hostForUrl(options.publicHost ?? options.host)}:${port}/?join=${code}`;

  const send = (client: Client, msg: ServerMessage) => {
    if (client.ws.readyState === client.ws.OPEN) client.ws.send(JSON.stringify(msg));
  };
  const refuse = (client: Client, r: Refusal) => send(client, { type: 'refused', ...r });
  const members = (s: Session) => [...clients].filter((c) => c.session === s);
  /** The students of `s` present now: a connection of theirs open (docs/classroom.md). */
  const presentIn = (s: Session): Set<string> =>
    new Set(members(s).flatMap((c) => (c.student ? [c.student.id] : [])));
  /** The students present now, to the session's presenters (a join, a last tab closed). */
  const attendanceToPresenters = (s: Session) => {
    const students = presentIn(s).size;
    for (const c of members(s)) if (c.presenter) send(c, { type: 'attendance', students });
  };
  /**
   * Refuses a `present`. A socket with no seat has nothing left to do then: left open, the join
   * deadline closed it 45 s later as if it had never said hello, the page presented again on a
   * new socket, was refused again, and so on every 45 s (the panel flickering between
   * "reconnecting…" and "the room is lost"). It is closed now, saying why, with the deadline's
   * code (1008): the page's client does not reconnect after one. A seated socket keeps its seat.
   */
  const refusePresent = (client: Client, r: Refusal) => {
    refuse(client, r);
    if (client.student || client.presenter) return;
    clearTimeout(client.deadline);
    client.ws.close(1008, `present refused: ${r.message}`);
  };
  /** The socket has joined or presents: no deadline for it any more. */
  const seated = (client: Client) => {
    clearTimeout(client.deadline);
    client.deadline = undefined;
  };
  const toPresenters = (s: Session) => {
    const tally = tallyOf(s, presentIn(s));
    if (tally) for (const c of members(s)) if (c.presenter) send(c, { type: 'tally', tally });
  };
  /** A challenge round's solutions, to the session's presenters only (never a student). */
  const solutionsToPresenters = (s: Session) => {
    const record = currentStep(s);
    if (record?.step.question.kind !== 'challenge') return;
    const msg: ServerMessage = {
      type: 'solutions',
      stepIndex: record.step.stepIndex,
      solutions: solutionsOf(record),
    };
    for (const c of members(s)) if (c.presenter) send(c, msg);
  };
  /** The session as a presenter resumes it: its code and the step open, with its state. */
  const presenting = (s: Session): ServerMessage => {
    const record = currentStep(s);
    return {
      type: 'presenting',
      sessionId: s.id,
      heartbeatMs,
      code: s.code,
      joinUrl: joinUrl(s.code),
      codeExpiresAt: s.codeExpiresAt,
      step: record?.step ?? null,
      tally: tallyOf(s, presentIn(s)),
      closed: record?.closed ?? false,
      reveal: record?.reveal ?? null,
      students: presentIn(s).size,
      ...(record?.step.question.kind === 'challenge' ? { solutions: solutionsOf(record) } : {}),
    };
  };

  async function handle(client: Client, msg: ClientMessage): Promise<void> {
    switch (msg.type) {
      case 'join': {
        // One student a connection: a second join (not the same student's token again) made
        // another student of it, counted on the projector beside the first.
        if (client.student || client.presenter) {
          const same =
            client.student !== null &&
            msg.studentToken !== undefined &&
            hashToken(msg.studentToken) === client.student.tokenHash;
          if (!same)
            return refuse(client, {
              reason: 'already-joined',
              message: 'this connection has already joined the room: reload the page to join again',
              field: 'code',
            });
        }
        const r = sessions.join(msg.code, msg.name, msg.studentToken, now());
        if (isRefusal(r)) return refuse(client, r);
        Object.assign(client, { session: r.session, student: r.student, presenter: false });
        seated(client);
        await writer.save();
        // A student of an ended room (a reload) sees how it ended, as the others did.
        if (r.session.endedAt !== null)
          return send(client, {
            type: 'end',
            results: resultsOf(r.session, r.student.id, presentIn(r.session)),
          });
        const record = currentStep(r.session);
        send(client, {
          type: 'joined',
          sessionId: r.session.id,
          heartbeatMs,
          studentToken: r.studentToken,
          step: record?.step ?? null,
          answer: record?.answers[r.student.id] ?? null,
          closed: record?.closed ?? false,
          reveal: record?.reveal ?? null,
          tally: record?.reveal
            ? tallyOfRecord(record, r.session.students, presentIn(r.session))
            : null,
        });
        attendanceToPresenters(r.session);
        return toPresenters(r.session);
      }
      case 'present': {
        const r = sessions.present(msg.sessionId, msg.presenterToken);
        if (isRefusal(r)) return refusePresent(client, r);
        if (r.endedAt !== null)
          return refusePresent(client, { reason: 'ended', message: 'the room has ended' });
        Object.assign(client, { session: r, student: null, presenter: true });
        seated(client);
        return send(client, presenting(r));
      }
      case 'publish':
      case 'close':
      case 'reveal':
      case 'end': {
        const session = client.session;
        if (!client.presenter || !session)
          return refuse(client, {
            reason: 'presenter-only',
            message: 'only the presenter can move steps, close answers or reveal',
          });
        if (msg.type === 'end') {
          const present = presentIn(session);
          sessions.end(session, now(), present);
          await writer.save();
          for (const c of members(session))
            if (c.student)
              send(c, { type: 'end', results: resultsOf(session, c.student.id, present) });
          return;
        }
        if (msg.type === 'publish') {
          const before = currentStep(session);
          const asked = session.steps.length;
          const record = sessions.publish(session, msg.step, now(), presentIn(session), msg.again);
          if (isRefusal(record)) return refuse(client, record);
          await writer.save();
          if (record === before) return toPresenters(session);
          if (session.steps.length > asked) {
            for (const c of members(session))
              if (c.student) send(c, { type: 'step', step: record.step });
            return toPresenters(session);
          }
          // A step asked before, open again: each student's answer, whether the answers are
          // closed, and — revealed — the reveal and the room's tally (not before: a phone shows
          // the room's answers with the answer only).
          const tally = record.reveal ? tallyOf(session, presentIn(session)) : null;
          for (const c of members(session))
            if (c.student)
              send(c, {
                type: 'step',
                step: record.step,
                answer: record.answers[c.student.id] ?? null,
                closed: record.closed,
                reveal: record.reveal,
                tally,
              });
            else if (c.presenter) send(c, presenting(session));
          return;
        }
        if (msg.type === 'close') {
          const r = sessions.close(session, msg.stepIndex, now(), presentIn(session));
          if (isRefusal(r)) return refuse(client, r);
          await writer.save();
          for (const c of members(session))
            send(c, { type: 'closed', stepIndex: r.step.stepIndex });
          return;
        }
        const present = presentIn(session);
        const r = sessions.reveal(session, msg.stepIndex, msg.reveal, now(), present);
        if (isRefusal(r)) return refuse(client, r);
        // The revealed step's tally, read before the write: a step published meanwhile (a lesson's
        // End, then PageDown) is open by the time it is on disk, and its tally made this reveal
        // step 1's on every phone and on the presenter's panel.
        const tally = tallyOfRecord(r, session.students, present);
        await writer.save();
        for (const c of members(session)) send(c, { type: 'reveal', reveal: msg.reveal, tally });
        return;
      }
      case 'answer': {
        const { session, student } = client;
        if (!session || !student)
          return refuse(client, {
            reason: client.presenter ? 'presenter-only' : 'not-joined',
            message: client.presenter
              ? 'the presenter does not answer'
              : 'join the session with its code first',
          });
        const r = sessions.answer(session, student, msg.stepIndex, msg.value, msg.solution);
        if (isRefusal(r)) return refuse(client, r);
        // Acknowledged only once on disk (with --results): a restart loses no accepted answer.
        // To each of the student's connections (the join link open in two tabs of one phone is
        // one student: src/platform/roomSeats.ts), so that every tab shows the answer the room has.
        await writer.save();
        for (const c of members(session))
          if (c.student === student) send(c, { type: 'accepted', ...r });
        solutionsToPresenters(session);
        return toPresenters(session);
      }
      default: {
        const never: never = msg;
        return never;
      }
    }
  }

  function onMessage(client: Client, data: RawData, isBinary: boolean): void {
    if (!client.rate.take())
      return refuse(client, {
        reason: 'too-fast',
        message: `too many messages: at most ${ROOM_LIMITS.burst} at once, then ${ROOM_LIMITS.perSecond} a second`,
      });
    const bytes = Array.isArray(data)
      ? data.reduce((n, b) => n + b.length, 0)
      : data instanceof ArrayBuffer
        ? data.byteLength
        : data.length;
    if (bytes > ROOM_LIMITS.messageBytes)
      return refuse(client, {
        reason: 'too-large',
        message: `a message may be at most ${ROOM_LIMITS.messageBytes} bytes (this one: ${bytes})`,
      });
    let parsed: unknown;
    try {
      if (isBinary) throw new Error('binary');
      parsed = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : String(data));
    } catch {
      return refuse(client, { reason: 'malformed', message: 'a message must be JSON text' });
    }
    const checked = ClientMessageSchema.safeParse(parsed);
    if (!checked.success) {
      const { field, message } = describeIssue(checked.error);
      // A message that is not an object is at fault as a whole: no field to name ("" was sent).
      return refuse(client, { reason: 'malformed', message, ...(field ? { field } : {}) });
    }
    handle(client, checked.data).catch((error: unknown) => {
      console.error('classroom: could not save the results file:', error);
      refuse(client, { reason: 'malformed', message: 'the server could not save: try again' });
    });
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: ROOM_LIMITS.hardMessageBytes });
  // The heartbeat (HEARTBEAT_MS): a socket that missed the last ping's pong is terminated, which
  // closes it (its 'close' below lets the client go).
  const heartbeat = setInterval(() => {
    for (const c of clients) {
      if (!c.alive) {
        c.ws.terminate();
        continue;
      }
      c.alive = false;
      c.ws.ping();
      // The browser never sees the ping: the page in a session hears the heartbeat as a message.
      if (c.session) send(c, { type: 'heartbeat' });
    }
  }, heartbeatMs);
  wss.on('connection', (ws: WebSocket) => {
    const client: Client = {
      ws,
      deadline: setTimeout(
        () =>
          ws.close(
            1008,
            `no join or present within ${joinDeadlineMs / 1000} s: this socket is closed`,
          ),
        joinDeadlineMs,
      ),
      alive: true,
      rate: createRateLimit(ROOM_LIMITS.burst, ROOM_LIMITS.perSecond, now),
      session: null,
      student: null,
      presenter: false,
    };
    clients.add(client);
    ws.on('pong', () => {
      client.alive = true;
    });
    ws.on('message', (data, isBinary) => onMessage(client, data, isBinary));
    ws.on('close', () => {
      clients.delete(client);
      seated(client);
      // A student gone (their last tab closed, their phone terminated by the heartbeat) is no
      // longer counted in the step's "N of M answered": the presenter's tally says so at once.
      const { session, student } = client;
      if (session && student && session.endedAt === null)
        if (!members(session).some((c) => c.student === student)) {
          attendanceToPresenters(session);
          toPresenters(session);
        }
    });
    ws.on('error', () => {
      clients.delete(client);
      seated(client);
    });
  });

  const http = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      console.error('classroom:', error);
      if (!res.headersSent) json(res, 500, { error: 'internal error' });
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/api/classroom') return json(res, 200, CLASSROOM_PROBE);
    if (path === '/api/sessions' && req.method === 'POST') {
      // Starting a room is for the machine the server runs on: a student on the LAN cannot.
      if (!LOOPBACK.test(req.socket.remoteAddress ?? ''))
        return json(res, 403, { error: 'a room is started on the machine running the server' });
      const r = sessions.create(now());
      if (isRefusal(r)) return json(res, 503, { error: r.message });
      await writer.save();
      const created: CreatedSession = {
        sessionId: r.session.id,
        code: r.session.code,
        joinUrl: joinUrl(r.session.code),
        presenterToken: r.presenterToken,
        codeExpiresAt: r.session.codeExpiresAt,
      };
      return json(res, 201, created);
    }
    const csv = /^\/api\/sessions\/([\w-]{1,64})\/results\.csv$/.exec(path);
    if (csv && req.method === 'GET') {
      const session = sessions.get(csv[1]!);
      const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!session || !bearer || hashToken(bearer) !== session.presenterTokenHash)
        return json(res, 403, { error: 'the presenter token is needed for the results' });
      res.writeHead(200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="room-${session.code}.csv"`,
      });
      res.end(resultsCsv(session));
      return;
    }
    if (path.startsWith('/api/')) return json(res, 404, { error: 'no such API' });
    serveStatic(options.distDir, req, res);
  }

  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const origin = req.headers.origin;
    // A page from another site must not drive the room from a student's browser.
    const foreign = origin !== undefined && new URL(origin).host !== req.headers.host;
    const status =
      path !== '/ws' ? 404 : foreign ? 403 : clients.size >= ROOM_LIMITS.connections ? 503 : 0;
    if (status !== 0) {
      socket.end(`HTTP/1.1 ${status} Refused\r\nConnection: close\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', (error) => {
      clearInterval(heartbeat);
      reject(error);
    });
    http.listen(options.port, options.host, () => resolve());
  });
  port = (http.address() as AddressInfo).port;
  return {
    url: `http://${hostForUrl(options.host)}:${port}/`,
    port,
    async close() {
      clearInterval(heartbeat);
      for (const c of clients) c.ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await writer.save();
    },
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

/** A host as it goes in a URL: IPv6 in brackets; the wildcard addresses as this machine. */
function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
