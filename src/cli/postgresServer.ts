/**
 * A throwaway native PostgreSQL server for tests that need what PGlite lacks (prepared
 * transactions): `initdb` into a temporary directory, `pg_ctl start` on a free loopback port with
 * `max_prepared_transactions` > 0 (its default, 0, disables PREPARE TRANSACTION:
 * https://www.postgresql.org/docs/current/runtime-config-resource.html#GUC-MAX-PREPARED-TRANSACTIONS),
 * and `stop()` removes it all. PostgreSQL refuses to run as root: as root, the server runs as the
 * `postgres` user (or `nobody`) through `runuser`, in a directory that user owns.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The directory of initdb, pg_ctl and psql: $PG_BIN, else the newest /usr/lib/postgresql/N/bin. */
function postgresBin(): string | null {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
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

/** The user to run the server as when we are root: postgres, else nobody. */
function serverUser(): { name: string; uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  for (const name of ['postgres', 'nobody']) {
    const r = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    if (r.status !== 0) continue;
    const g = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    return { name, uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) };
  }
  throw new Error(
    'running as root, and neither a postgres nor a nobody user exists to run PostgreSQL',
  );
}

export interface PostgresServer {
  /** psql's connection arguments. */
  connection: string[];
  psql: string;
  stop(): void;
}

/** Start a server (see the module comment). Throws when PostgreSQL is not installed. */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBin();
  if (!bin)
    throw new Error(
      "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb; set PG_BIN): Debian's `postgresql` package has it",
    );
  const dir = mkdtempSync(join(tmpdir(), 'delivery-lab-pg-'));
  const user = serverUser();
  if (user) chownSync(dir, user.uid, user.gid);
  const as = (cmd: string, args: string[]) =>
    user
      ? execFileSync('runuser', ['-u', user.name, '--', join(bin, cmd), ...args], { stdio: 'pipe' })
      : execFileSync(join(bin, cmd), args, { stdio: 'pipe' });
  const data = join(dir, 'data');
  as('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    '-c max_prepared_transactions=16',
    '-c fsync=off',
    '-c synchronous_commit=off',
  ].join(' ');
  as('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '120', 'start']);
  return {
    connection: ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres'],
    psql: join(bin, 'psql'),
    stop() {
      try {
        as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
