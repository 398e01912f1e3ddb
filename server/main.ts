/**
 * `npm run classroom`: the classroom server (server/classroomServer.ts) for a workshop. Run by
 * tsx, as `npm run sim` runs the CLI: nothing to build but the page itself.
 */
import { join, resolve } from 'node:path';
import { parseArgs, USAGE } from './args';
import { startClassroomServer } from './classroomServer';
import { isBuilt } from './staticFiles';

const distDir = resolve(join(import.meta.dirname, '..', 'dist'));

try {
  if (process.argv.includes('--help')) {
    console.log(USAGE);
    process.exit(0);
  }
  const args = parseArgs(process.argv.slice(2));
  if (!isBuilt(distDir)) {
    console.error(
      `The page is not built (${distDir}/index.html is missing): run \`npm run build\` first.`,
    );
    process.exit(1);
  }
  const server = await startClassroomServer({ ...args, distDir });
  const open = args.host === '127.0.0.1' || args.host === 'localhost' || args.host === '::1';
  console.log(`Delivery Lab classroom: ${server.url}`);
  console.log(
    open
      ? 'Only this machine can reach it; `--host` opens it to the LAN for students.'
      : `Students join at http://${args.publicHost}:${server.port}/ (the page shows the code and a QR code).`,
  );
  if (args.resultsFile) console.log(`Results are kept in ${args.resultsFile}.`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  console.error(`classroom: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}
