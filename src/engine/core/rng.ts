/**
 * Seeded pseudo-random numbers for the engine.
 *
 * Why streams: each purpose (network jitter of one link, random faults, generated ids…) draws from
 * its own stream derived from `(seed, name)`, so adding a fault or a message on one link does not
 * shift the numbers drawn on another. That keeps the prefix of a trace stable when a user adds a
 * fault later in the run.
 *
 * The generator is sfc32 (Chris Doty-Humphrey's "small fast counting" generator, public domain),
 * seeded through a 32-bit string hash; it is small, fast in JS (32-bit integer ops only) and passes
 * PractRand to large sizes.
 */

/** A deterministic random stream. All draws are pure functions of the seed and the stream name. */
export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n) for 1 ≤ n ≤ 2^32. */
  int(n: number): number;
  /** True with probability p (p ≤ 0 never, p ≥ 1 always — without drawing, so p=0 costs nothing). */
  chance(p: number): boolean;
  /** 32 random bits as an unsigned integer. */
  u32(): number;
}

/** Hash a string to 32 bits (cyrb53's mixing, truncated). Used only to derive stream seeds. */
export function hashString32(s: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 ^ h2) >>> 0;
}

/**
 * Create the stream `name` of the scenario seed `seed`.
 * @param seed - the scenario seed, an unsigned 32-bit integer.
 * @param name - the purpose, e.g. `"net:producer→broker-1"` or `"fault:3"`.
 */
export function createRng(seed: number, name: string): Rng {
  return new Sfc32(seed, name);
}

/**
 * The generator's state as fields rather than a closure's variables: a run's state is copied
 * when the fault atlas forks it (src/engine/core/deepCopy.ts), and a copy must draw the same
 * numbers from there on.
 */
class Sfc32 implements Rng {
  private a: number;
  private b: number;
  private c: number;
  private d = 1;

  constructor(seed: number, name: string) {
    this.a = hashString32(name, seed >>> 0);
    this.b = hashString32(name, (seed ^ 0x9e3779b9) >>> 0);
    this.c = hashString32(name, (seed ^ 0x85ebca6b) >>> 0);
    // Discard the first outputs: sfc32 mixes its seed during these.
    for (let i = 0; i < 12; i++) this.u32();
  }

  u32(): number {
    const a = this.a >>> 0;
    const b = this.b >>> 0;
    let c = this.c >>> 0;
    const d = this.d >>> 0;
    const t = (((a + b) | 0) + d) | 0;
    this.d = (d + 1) | 0;
    this.a = b ^ (b >>> 9);
    this.b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    this.c = (c + t) | 0;
    return t >>> 0;
  }

  next(): number {
    return this.u32() / 4294967296;
  }

  int(n: number): number {
    return Math.floor((this.u32() / 4294967296) * n);
  }

  chance(p: number): boolean {
    return p <= 0 ? false : p >= 1 ? true : this.u32() / 4294967296 < p;
  }
}
