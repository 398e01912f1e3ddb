/**
 * The field shapes the scenario's parts share (times, names, topic names, counts), each built
 * once. A zod schema never changes once built — `.default()`, `.optional()` and every check
 * return a new schema — so one instance serves every field of that shape. Building them per
 * field cost the CLI's start-up most of its schema time (issue 28): `z.number().int().min(…)
 * .max(…)` is seven zod objects, and there are some sixty time fields.
 */
import { z } from 'zod';
import { LIMITS } from './limits';

/** One schema per argument, built on its first use. */
function memoised<K, S>(build: (key: K) => S): (key: K) => S {
  const built = new Map<K, S>();
  return (key) => {
    let s = built.get(key);
    if (s === undefined) built.set(key, (s = build(key)));
    return s;
  };
}

const intFrom = memoised((range: string) => {
  const [min, max] = range.split(' ').map(Number) as [number, number];
  return z.number().int().min(min).max(max);
});
/** An integer from `min` to `max`, both included. */
export const int = (min: number, max: number) => intFrom(`${min} ${max}`);

/** Virtual milliseconds, an integer from `min` (one bound: a negative value gets one message). */
export const ms = (min = 0) => int(min, LIMITS.timeMs);

const AMOUNT = z.number().min(-1e12).max(1e12);
/** An amount in the workload's currency units. */
export const amount = () => AMOUNT;

const NAME = z.string().min(1).max(LIMITS.stringLength);
/** A name or id: a non-empty string within the format's string limit. */
export const name = () => NAME;

/**
 * A Kafka topic name, as the broker accepts it: ASCII letters, digits, `.`, `_` and `-`, and
 * neither `.` nor `..` (Kafka's own length limit, 249, is above this format's string limit).
 * Source: org.apache.kafka.common.internals.Topic#validate,
 * https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/common/internals/Topic.java
 */
const TOPIC_NAME = z
  .string()
  .min(1)
  .max(LIMITS.stringLength)
  .regex(/^[a-zA-Z0-9._-]+$/, {
    message: "a Kafka topic name holds only ASCII letters, digits, '.', '_' and '-'",
  })
  .refine((t) => t !== '.' && t !== '..', {
    message: "'.' and '..' are not topic names in Kafka",
  });
export const topicName = () => TOPIC_NAME;

/** A count: an integer from 0 to `max`. */
export const count = (max: number) => int(0, max);
