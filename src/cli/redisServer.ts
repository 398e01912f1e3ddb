/**
 * A throwaway `redis-server` for the dedupe store's conformance test (dedupeRedisConformance.test.ts):
 * Debian's binary (scripts/redis.mjs installs it), started on a free loopback port in a temporary
 * directory with persistence off, and a tiny client speaking RESP, Redis's protocol
 * (https://redis.io/docs/latest/develop/reference/protocol-spec/): commands go out as arrays of
 * bulk strings; replies are simple strings, errors, integers, bulk strings (nil: `$-1`) or arrays.
 * `stop()` shuts the server down and removes the directory.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A reply: `OK`/`PONG` (simple string), a number, a bulk string, null (nil), or an array. */
type RespValue = string | number | null | RespValue[];

export interface RedisServer {
  port: number;
  /** Send one command; resolves with its reply, rejects with a Redis error reply. */
  command(...args: (string | number)[]): Promise<RespValue>;
  stop(): Promise<void>;
}

/** The `redis-server` binary: $REDIS_SERVER, else the one on PATH. */
function redisBinary(): string | null {
  if (process.env.REDIS_SERVER) return process.env.REDIS_SERVER;
  const r = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

/**
 * Parse one reply at `at` of `buf`: the value and where the next one starts, or null when the
 * buffer does not hold it all yet.
 */
function parseReply(buf: Buffer, at: number): { value: RespValue | Error; next: number } | null {
  const eol = buf.indexOf('\r\n', at);
  if (eol < 0) return null;
  const line = buf.toString('utf8', at + 1, eol);
  switch (String.fromCharCode(buf[at]!)) {
    case '+':
      return { value: line, next: eol + 2 };
    case '-':
      return { value: new Error(line), next: eol + 2 };
    case ':':
      return { value: Number(line), next: eol + 2 };
    case '$': {
      const n = Number(line);
      if (n < 0) return { value: null, next: eol + 2 };
      if (buf.length < eol + 2 + n + 2) return null;
      return { value: buf.toString('utf8', eol + 2, eol + 2 + n), next: eol + 2 + n + 2 };
    }
    case '*': {
      const n = Number(line);
      if (n < 0) return { value: null, next: eol + 2 };
      const items: RespValue[] = [];
      let next = eol + 2;
      for (let i = 0; i < n; i++) {
        const item = parseReply(buf, next);
        if (!item) return null;
        items.push(item.value instanceof Error ? item.value.message : item.value);
        next = item.next;
      }
      return { value: items, next };
    }
    default:
      throw new Error(`redis: unexpected reply byte ${JSON.stringify(buf[at])}`);
  }
}

/** A client on `socket`: replies come back in the order the commands went out. */
function respClient(socket: Socket): RedisServer['command'] {
  const waiting: { resolve: (v: RespValue) => void; reject: (e: Error) => void }[] = [];
  let buf = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    for (;;) {
      const r = buf.length > 0 ? parseReply(buf, 0) : null;
      if (!r) break;
      buf = buf.subarray(r.next);
      const w = waiting.shift();
      if (r.value instanceof Error) w?.reject(r.value);
      else w?.resolve(r.value);
    }
  });
  socket.on('close', () => {
    for (const w of waiting.splice(0)) w.reject(new Error('redis: connection closed'));
  });
  return (...args) =>
    new Promise((resolve, reject) => {
      waiting.push({ resolve, reject });
      const parts = args.map(String);
      socket.write(
        `*${parts.length}\r\n${parts.map((p) => `$${Buffer.byteLength(p)}\r\n${p}\r\n`).join('')}`,
      );
    });
}

/** Start a server (see the module comment). Throws when redis-server is not installed. */
export async function startRedis(): Promise<RedisServer> {
  const bin = redisBinary();
  if (!bin)
    throw new Error(
      "redis-server is not installed (not on PATH; set REDIS_SERVER): Debian's `redis-server` package has it",
    );
  const dir = mkdtempSync(join(tmpdir(), 'delivery-lab-redis-'));
  const port = await freePort();
  const child = spawn(
    bin,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let socket: Socket | null = null;
  for (let i = 0; i < 200 && socket === null; i++) {
    if (child.exitCode !== null)
      throw new Error(`redis-server exited (${child.exitCode}): ${stderr.trim()}`);
    socket = await new Promise<Socket | null>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => resolve(s));
      s.once('error', () => resolve(null));
    });
    if (socket === null) await new Promise((r) => setTimeout(r, 50));
  }
  if (socket === null) {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`redis-server did not accept connections on 127.0.0.1:${port}: ${stderr}`);
  }
  const command = respClient(socket);
  await command('PING');
  return {
    port,
    command,
    async stop() {
      // SHUTDOWN NOSAVE closes the connection without a reply; the process exit is the answer.
      command('SHUTDOWN', 'NOSAVE').catch(() => undefined);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
      socket.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
