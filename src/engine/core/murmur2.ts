/**
 * Kafka's default partitioner for keyed records: `toPositive(murmur2(keyBytes)) % numPartitions`.
 * A port of `org.apache.kafka.common.utils.Utils.murmur2` (seed 0x9747b28c), so a key lands on the
 * same partition number as it would with the Java client.
 * Source: https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/common/utils/Utils.java
 */

/** UTF-8 bytes of a string (keys are short; no TextEncoder needed in the pure engine). */
function utf8(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else
      out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return out;
}

/** Kafka's murmur2 of the UTF-8 bytes of `key`, as a signed 32-bit integer. */
export function murmur2(key: string): number {
  const data = utf8(key);
  const length = data.length;
  const m = 0x5bd1e995;
  const r = 24;
  let h = 0x9747b28c ^ length;
  const length4 = length >> 2;
  for (let i = 0; i < length4; i++) {
    const i4 = i * 4;
    let k =
      (data[i4]! & 0xff) +
      ((data[i4 + 1]! & 0xff) << 8) +
      ((data[i4 + 2]! & 0xff) << 16) +
      ((data[i4 + 3]! & 0xff) << 24);
    k = Math.imul(k, m);
    k ^= k >>> r;
    k = Math.imul(k, m);
    h = Math.imul(h, m);
    h ^= k;
  }
  const rest = length & 3;
  const base = length & ~3;
  if (rest === 3) h ^= (data[base + 2]! & 0xff) << 16;
  if (rest >= 2) h ^= (data[base + 1]! & 0xff) << 8;
  if (rest >= 1) {
    h ^= data[base]! & 0xff;
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

/** The partition Kafka's default partitioner picks for a keyed record. */
export function partitionForKey(key: string, numPartitions: number): number {
  return (murmur2(key) & 0x7fffffff) % numPartitions;
}
