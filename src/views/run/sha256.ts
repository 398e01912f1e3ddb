/**
 * SHA-256 (FIPS 180-4, https://csrc.nist.gov/pubs/fips/180-4/upd1/final), small: the run cache's
 * and the preset index's scenario key (./compute.ts `scenarioKey`) in the page's first load
 * without @noble/hashes (2.7 kB gzip, issue 31: the embed ≤ 150 KB). The same digests as
 * @noble's `sha256` (a unit test compares them); the engine's trace hash keeps @noble's, tuned
 * for traces of millions of bytes — a scenario is a few kB, hashed once per run.
 */

/** The first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const K = new Uint32Array(64);
/** The first 32 bits of the fractional parts of the square roots of the first 8 primes. */
const H0 = new Uint32Array(8);
{
  const primes: number[] = [];
  for (let n = 2; primes.length < 64; n++) if (primes.every((p) => n % p !== 0)) primes.push(n);
  const frac = (x: number) => ((x - Math.floor(x)) * 2 ** 32) >>> 0;
  primes.forEach((p, i) => {
    K[i] = frac(Math.cbrt(p));
    if (i < 8) H0[i] = frac(Math.sqrt(p));
  });
}

/** The SHA-256 digest of `bytes` (32 bytes). */
export function sha256(bytes: Uint8Array): Uint8Array {
  // The message, a 1 bit, zeros, and its length in bits (64-bit big-endian): whole 64-byte blocks.
  const blocks = Math.ceil((bytes.length + 9) / 64);
  const m = new Uint8Array(blocks * 64);
  m.set(bytes);
  m[bytes.length] = 0x80;
  const view = new DataView(m.buffer);
  view.setUint32(m.length - 8, Math.floor(bytes.length / 2 ** 29));
  view.setUint32(m.length - 4, (bytes.length << 3) >>> 0);
  const h = H0.slice();
  const w = new Uint32Array(64);
  const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
  for (let b = 0; b < m.length; b += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(b + i * 4);
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15]!;
      const y = w[i - 2]!;
      const s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3);
      const s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10);
      w[i] = w[i - 16]! + s0 + w[i - 7]! + s1;
    }
    let a = h[0]!;
    let b1 = h[1]!;
    let c = h[2]!;
    let d = h[3]!;
    let e = h[4]!;
    let f = h[5]!;
    let g = h[6]!;
    let h1 = h[7]!;
    for (let i = 0; i < 64; i++) {
      const ch = (e & f) ^ (~e & g);
      const t1 = h1 + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ch + K[i]! + w[i]!;
      const maj = (a & b1) ^ (a & c) ^ (b1 & c);
      const t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + maj;
      h1 = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b1;
      b1 = a;
      a = (t1 + t2) | 0;
    }
    // Uint32Array stores each sum modulo 2^32.
    [a, b1, c, d, e, f, g, h1].forEach((x, i) => (h[i] = h[i]! + x));
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  h.forEach((x, i) => outView.setUint32(i * 4, x));
  return out;
}
