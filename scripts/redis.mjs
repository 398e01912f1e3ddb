// Makes sure Debian's redis-server is installed for the dedupe store's conformance test
// (src/cli/dedupeRedisConformance.test.ts starts its own server from this binary). Looks in
// $REDIS_SERVER, then PATH. If none: as root `apt-get update && apt-get install -y redis-server`
// (Debian's package); otherwise it says so and that test file fails with the same message. The
// package's own service is not needed: the test runs the binary on a free loopback port.
import { execSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** @returns {string | null} the redis-server binary */
function findRedis() {
  if (process.env.REDIS_SERVER)
    return existsSync(process.env.REDIS_SERVER) ? process.env.REDIS_SERVER : null;
  const r = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() ? r.stdout.trim() : null;
}

/** @returns {string} the binary, installing Debian's redis-server first if needed */
export function findOrInstallRedis() {
  const found = findRedis();
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot)
    throw new Error(
      "redis-server not found on PATH: install Debian's redis-server package, or set REDIS_SERVER",
    );
  const command = 'apt-get update && apt-get install -y redis-server';
  console.log(`redis-server not found; installing it: ${command}`);
  execSync(command, {
    stdio: ['ignore', process.stderr, process.stderr],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  const installed = findRedis();
  if (!installed) throw new Error(`\`${command}\` finished but no redis-server is on PATH`);
  return installed;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    console.log(findOrInstallRedis());
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
