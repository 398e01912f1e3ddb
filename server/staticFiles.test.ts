/**
 * The page's files as the classroom server sends them, over a real socket: the build's gzipped
 * copies (scripts/precompress.ts) to a browser that accepts gzip, the file itself otherwise, and
 * how long a browser may keep each.
 */
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../scripts/precompress';
import { serveStatic } from './staticFiles';

const dist = mkdtempSync(join(tmpdir(), 'static-dist-'));
mkdirSync(join(dist, 'assets'));
const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => i).join(', ')}];\n`;
writeFileSync(join(dist, 'index.html'), `<!doctype html><title>lab</title>${' '.repeat(2000)}`);
writeFileSync(join(dist, 'assets', 'lab-abc123.js'), script);
writeFileSync(join(dist, 'assets', 'tiny-abc123.js'), 'export {};\n');
writeFileSync(join(dist, 'assets', 'shot-abc123.png'), Buffer.alloc(4096, 7));

let server: Server;
let port: number;
let written: number;
beforeAll(async () => {
  written = precompressDir(dist);
  server = createServer((req, res) => serveStatic(dist, req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** A GET as a browser sends it, the body as it came over the wire (not decoded). */
function get(path: string, acceptEncoding?: string) {
  return new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (b: Buffer) => parts.push(b));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(parts) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the build gzipped beside itself', () => {
  it('writes a .gz for each text file of 1 kB or more, none for small or image files', () => {
    expect(written).toBe(2);
    expect(readdirSync(join(dist, 'assets')).sort()).toEqual([
      'lab-abc123.js',
      'lab-abc123.js.gz',
      'shot-abc123.png',
      'tiny-abc123.js',
    ]);
  });
});

describe('serveStatic', () => {
  it('sends the gzipped copy to a browser that accepts gzip, kept for good under its hashed name', async () => {
    const { headers, body } = await get('/assets/lab-abc123.js', 'gzip, deflate, br, zstd');
    expect(headers['content-encoding']).toBe('gzip');
    expect(headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(headers.vary).toBe('accept-encoding');
    expect(headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(body.length).toBeLessThan(script.length / 2);
    expect(Number(headers['content-length'])).toBe(body.length);
    expect(gunzipSync(body).toString()).toBe(script);
  });

  it('sends the file itself without Accept-Encoding, or when gzip is refused (q=0)', async () => {
    for (const accept of [undefined, 'gzip;q=0, identity', 'br']) {
      const { headers, body } = await get('/assets/lab-abc123.js', accept);
      expect(headers['content-encoding'], String(accept)).toBeUndefined();
      expect(body.toString(), String(accept)).toBe(script);
      expect(Number(headers['content-length']), String(accept)).toBe(script.length);
    }
  });

  it('sends a file without a gzipped copy as it is', async () => {
    const { headers, body } = await get('/assets/tiny-abc123.js', 'gzip');
    expect(headers['content-encoding']).toBeUndefined();
    expect(body.toString()).toBe('export {};\n');
  });

  it('asks the browser to check the page again (its name has no hash)', async () => {
    const { headers, body } = await get('/', 'gzip');
    expect(headers['content-encoding']).toBe('gzip');
    expect(headers['cache-control']).toBe('no-cache');
    expect(gunzipSync(body).toString()).toMatch(/^<!doctype html><title>lab<\/title>/);
  });
});
