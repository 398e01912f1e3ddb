/** The two readers of the transaction tests' topic, one per `isolation.level` (docs/semantics/broker.md#transactions). */
export const readers = [
  { name: 'rc', topic: 'events', 'isolation.level': 'read_committed' },
  { name: 'ru', topic: 'events', 'isolation.level': 'read_uncommitted' },
] as const;
