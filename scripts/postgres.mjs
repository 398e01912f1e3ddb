// Makes sure a native PostgreSQL is installed for the conformance tests that need prepared
// transactions, which PGlite lacks (src/cli/sqlConformanceNative.test.ts starts its own server
// from these binaries). Looks in $PG_BIN, then /usr/lib/postgresql/<version>/bin. If none: as
// root `apt-get update && apt-get install -y postgresql` (Debian's package); otherwise it says so
// and that test file fails with the same message.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** @returns {string | null} the directory holding initdb, pg_ctl and psql */
function findPostgres() {
  if (process.env.PG_BIN)
    return existsSync(join(process.env.PG_BIN, 'initdb')) ? process.env.PG_BIN : null;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

/** @returns {string} the binaries' directory, installing Debian's postgresql first if needed */
export function findOrInstallPostgres() {
  const found = findPostgres();
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot)
    throw new Error(
      "PostgreSQL not found (/usr/lib/postgresql/*/bin/initdb): install Debian's postgresql package, or set PG_BIN",
    );
  const command = 'apt-get update && apt-get install -y postgresql';
  console.log(`PostgreSQL not found; installing it: ${command}`);
  execSync(command, {
    stdio: ['ignore', process.stderr, process.stderr],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  const installed = findPostgres();
  if (!installed)
    throw new Error(`\`${command}\` finished but no initdb was found under /usr/lib/postgresql`);
  return installed;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    console.log(findOrInstallPostgres());
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
