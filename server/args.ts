/**
 * `npm run classroom -- [--host [address]] [--port n] [--results file.json]`, parsed; a bad flag
 * is an error naming it.
 */
import { networkInterfaces } from 'node:os';

export interface ClassroomArgs {
  host: string;
  port: number;
  resultsFile?: string;
  /** Where students reach the server (the join URL's host). */
  publicHost: string;
}

export const USAGE = `npm run classroom -- [--host [address]] [--port n] [--results file.json]
  --host            open the room on the LAN (listens on 0.0.0.0; default: 127.0.0.1, this machine only)
  --host <address>  listen on this address
  --port <n>        the port (default 8080; 0 picks a free one)
  --results <file>  keep every session's answers in this JSON file (a restart loses none)`;

export function parseArgs(argv: readonly string[]): ClassroomArgs {
  let host = '127.0.0.1';
  let port = 8080;
  let resultsFile: string | undefined;
  for (let k = 0; k < argv.length; k++) {
    const flag = argv[k]!;
    const value = argv[k + 1];
    const hasValue = value !== undefined && !value.startsWith('--');
    if (flag === '--host') {
      host = hasValue ? value : '0.0.0.0';
      if (hasValue) k++;
    } else if (flag === '--port') {
      if (!hasValue || !/^\d{1,5}$/.test(value) || Number(value) > 65535)
        throw new Error(`--port: expected a port number 0–65535, got ${value ?? 'nothing'}`);
      port = Number(value);
      k++;
    } else if (flag === '--results') {
      if (!hasValue) throw new Error('--results: expected a file name, such as results.json');
      resultsFile = value;
      k++;
    } else throw new Error(`unknown option ${flag}\n${USAGE}`);
  }
  return { host, port, resultsFile, publicHost: publicHostFor(host) };
}

/** A wildcard address is reached at this machine's first LAN IPv4 address. */
function publicHostFor(host: string): string {
  if (host !== '0.0.0.0' && host !== '::') return host;
  for (const addresses of Object.values(networkInterfaces()))
    for (const a of addresses ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return '127.0.0.1';
}
