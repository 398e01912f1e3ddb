import { describe, expect, it } from 'vitest';
import { EventQueue } from './heap';
import { createRng } from './rng';
import { murmur2, partitionForKey } from './murmur2';

describe('event queue', () => {
  it('pops by time, and by insertion order at equal times', () => {
    const q = new EventQueue<{ time: number; seq: number; tag: string }>();
    for (const [time, tag] of [
      [5, 'a'],
      [1, 'b'],
      [5, 'c'],
      [3, 'd'],
      [1, 'e'],
      [5, 'f'],
    ] as const)
      q.push({ time, seq: 0, tag });
    const out: string[] = [];
    for (let x = q.pop(); x; x = q.pop()) out.push(x.tag);
    expect(out).toEqual(['b', 'e', 'd', 'a', 'c', 'f']);
  });

  it('stays ordered under a large random load', () => {
    const q = new EventQueue<{ time: number; seq: number }>();
    const r = createRng(7, 'heap');
    for (let i = 0; i < 5000; i++) q.push({ time: r.int(100), seq: 0 });
    let prev = { time: -1, seq: -1 };
    for (let x = q.pop(); x; x = q.pop()) {
      expect(x.time > prev.time || (x.time === prev.time && x.seq > prev.seq)).toBe(true);
      prev = x;
    }
  });

  it('retain drops the rejected items and the rest come out in the same order as without it', () => {
    // Pushes and pops interleaved, then a third of the queued items dropped (as cancelled timers
    // are): the remaining pops are exactly the kept items in (time, seq) order.
    type Item = { time: number; seq: number; id: number };
    const a = new EventQueue<Item>();
    const b = new EventQueue<Item>();
    const r = createRng(11, 'retain');
    let id = 0;
    const popped: number[] = [];
    for (let i = 0; i < 3000; i++) {
      const time = r.int(500);
      a.push({ time, seq: 0, id });
      b.push({ time, seq: 0, id: id++ });
      if (r.int(3) === 0) {
        popped.push(a.pop()!.id);
        expect(b.pop()!.id).toBe(popped[popped.length - 1]);
      }
    }
    const dropped = (x: Item) => x.id % 3 === 1;
    a.retain((x) => !dropped(x));
    expect(a.size).toBeLessThan(b.size);
    const fromA: number[] = [];
    for (let x = a.pop(); x; x = a.pop()) fromA.push(x.id);
    const fromB: number[] = [];
    for (let x = b.pop(); x; x = b.pop()) if (!dropped(x)) fromB.push(x.id);
    expect(fromA).toEqual(fromB);
    expect(fromA.length).toBeGreaterThan(1000);
  });
});

describe('event queue dropping cancelled items', () => {
  it('dropCancelled drops the cancelled items, near and far, and the rest come out in order', () => {
    // Times up to 5 s: items past the 1,024 ms horizon wait in the far list, and a third of all
    // items (near and far) are cancelled before the drop.
    type Item = { time: number; seq: number; id: number; cancelled?: boolean };
    const a = new EventQueue<Item>();
    const b = new EventQueue<Item>();
    const r = createRng(12, 'dropCancelled');
    let id = 0;
    const queued: Item[] = [];
    for (let i = 0; i < 3000; i++) {
      const time = r.int(5000);
      const x: Item = { time, seq: 0, id };
      queued.push(x);
      a.push(x);
      b.push({ time, seq: 0, id: id++ });
      if (r.int(3) === 0) expect(a.pop()!.id).toBe(b.pop()!.id);
    }
    for (const x of queued) if (x.id % 3 === 1) x.cancelled = true;
    const sizeBefore = a.size;
    a.dropCancelled();
    const sizeAfter = a.size;
    expect(sizeAfter).toBeLessThan(sizeBefore);
    const fromA: number[] = [];
    for (let x = a.pop(); x; x = a.pop()) fromA.push(x.id);
    const fromB: number[] = [];
    for (let x = b.pop(); x; x = b.pop()) if (x.id % 3 !== 1) fromB.push(x.id);
    // The drop took every cancelled item, near and far: what it left is exactly what pops.
    expect(fromA.length).toBe(sizeAfter);
    expect(fromA).toEqual(fromB);
    expect(fromA.length).toBeGreaterThan(1000);
  });
});

describe('event queue with far items (two levels)', () => {
  it('pops in exactly (time, seq) order with items far ahead, pops, drops and backdating interleaved', () => {
    // A reference: every queued item in a list, the earliest by (time, seq) taken each time. The
    // times span 0–90 s from the current time (timeouts far past the heap's 1,024 ms horizon).
    type Item = { time: number; seq: number; id: number };
    const q = new EventQueue<Item>();
    let ref: Item[] = [];
    const r = createRng(5, 'far');
    let now = 0;
    let id = 0;
    const first = (xs: Item[]) =>
      xs.reduce((a, b) => (b.time < a.time || (b.time === a.time && b.seq < a.seq) ? b : a));
    let popped = 0;
    let backdated = 0;
    for (let i = 0; i < 10_000; i++) {
      const op = r.int(10);
      if (op < 5) {
        const far = r.int(4) === 0;
        const x = { time: now + (far ? 1_000 + r.int(90_000) : r.int(50)), seq: 0, id: id++ };
        q.push(x);
        ref.push(x);
      } else if (op < 9) {
        const x = q.pop();
        if (ref.length === 0) {
          expect(x).toBeUndefined();
          continue;
        }
        const want = first(ref);
        expect(x).toBe(want);
        ref = ref.filter((y) => y !== want);
        now = want.time;
        popped++;
      } else if (r.int(20) === 0) {
        q.retain((x) => x.id % 7 !== 3);
        ref = ref.filter((x) => x.id % 7 !== 3);
      } else if (r.int(20) === 1 && q.nextSequence > 10) {
        // What arming a timed fault part way does: the last item takes an earlier place.
        q.backdate(q.nextSequence - 1, q.nextSequence - 10);
        backdated++;
      }
      expect(q.size).toBe(ref.length);
    }
    while (ref.length > 0) {
      const want = first(ref);
      expect(q.pop()).toBe(want);
      ref = ref.filter((y) => y !== want);
    }
    expect(q.pop()).toBeUndefined();
    expect(popped).toBeGreaterThan(2_500);
    expect(backdated).toBeGreaterThan(3);
  }, 30_000);

  it('drops cancelled far items when they come near, and goes on to the next window when all were', () => {
    // Near: 0 (heap). Far (past the 1,024 ms horizon): 2,000 and 2,500 cancelled, 3,100 not;
    // 9,000 cancelled, 9,500 not (pushed out of time order, as timers are). The first refill
    // finds only cancelled items before its horizon: the queue refills again rather than look
    // empty (which ended runs early), and pops exactly the live items.
    type Item = { time: number; seq: number; cancelled?: boolean; id: string };
    const q = new EventQueue<Item>();
    const items: Item[] = [
      { time: 0, seq: 0, id: 'near' },
      { time: 2_000, seq: 0, id: 'c1' },
      { time: 2_500, seq: 0, id: 'c2' },
      // 2,600 would come with the first window; 3,100 needs the second.
      { time: 9_000, seq: 0, id: 'c3' },
      { time: 9_500, seq: 0, id: 'live2' },
      { time: 3_100, seq: 0, id: 'live1' },
    ];
    for (const x of items) q.push(x);
    expect(q.size).toBe(6);
    for (const x of items) if (x.id.startsWith('c')) x.cancelled = true;
    expect(q.pop()!.id).toBe('near');
    // The first refill takes 2,000–3,023: c1 and c2, both dropped; the next one 3,100–4,123,
    // and drops c3 on its way (every cancelled item a refill walks is dropped): live2 is left.
    expect(q.pop()!.id).toBe('live1');
    expect(q.size).toBe(1);
    expect(q.pop()!.id).toBe('live2');
    expect(q.pop()).toBeUndefined();
    expect(q.size).toBe(0);
  });
});

describe('seeded random streams', () => {
  it('repeat for the same seed and stream, and differ across streams and seeds', () => {
    const draw = (seed: number, name: string) =>
      Array.from(
        { length: 5 },
        (
          (r) => () =>
            r.u32()
        )(createRng(seed, name)),
      );
    expect(draw(1, 'a')).toEqual(draw(1, 'a'));
    expect(draw(1, 'a')).not.toEqual(draw(1, 'b'));
    expect(draw(1, 'a')).not.toEqual(draw(2, 'a'));
  });

  it('int(n) stays in range and chance(0)/chance(1) are certain', () => {
    const r = createRng(3, 'x');
    for (let i = 0; i < 1000; i++) {
      const v = r.int(7);
      expect(v >= 0 && v < 7 && Number.isInteger(v)).toBe(true);
    }
    expect(r.chance(0)).toBe(false);
    expect(r.chance(1)).toBe(true);
  });
});

describe("Kafka's murmur2 partitioner", () => {
  // The vectors of org.apache.kafka.common.utils.UtilsTest#testMurmur2, so keys land on the same
  // partition as with the Java client.
  it.each([
    ['21', -973932308],
    ['foobar', -790332482],
    ['a-little-bit-long-string', -985981536],
    ['a-little-bit-longer-string', -1486304829],
    ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
    ['abc', 479470107],
  ])('murmur2(%s) = %d', (key, hash) => {
    expect(murmur2(key)).toBe(hash);
  });

  it('maps a key to toPositive(hash) % partitions', () => {
    expect(partitionForKey('foobar', 8)).toBe((-790332482 & 0x7fffffff) % 8);
  });
});
