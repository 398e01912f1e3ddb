/** The downstream readers' and the network's knobs. */
import type { KnobMeta } from './knobTypes';
import { consumerDoc, always, ms } from './knobDocs';

export const READER_NETWORK_KNOBS: readonly KnobMeta[] = [
  ...[0, 1, 2, 3].map((i): KnobMeta => ({
    path: `readers.${i}.isolation.level`,
    name: 'isolation.level',
    group: 'reader',
    system: 'Kafka consumer, downstream reader',
    editor: { type: 'enum', options: ['read_uncommitted', 'read_committed'] },
    what: 'read_committed reads only committed transactions (up to the last stable offset); read_uncommitted also sees open and aborted ones.',
    realDefault: 'read_uncommitted',
    doc: consumerDoc('isolation.level'),
    applies: (s) => s.readers.length > i,
  })),
  // ── Network ──────────────────────────────────────────────────────────────────────────
  {
    path: 'network.latencyMs',
    name: 'latency',
    group: 'network',
    system: 'simulator',
    editor: ms(0),
    what: 'One-way latency of every link.',
    realDefault: '2 ms',
    doc: null,
    applies: always,
  },
  {
    path: 'network.jitterMs',
    name: 'jitter',
    group: 'network',
    system: 'simulator',
    editor: ms(0),
    what: 'Extra uniform latency in [0, jitter] per message, drawn from the seed.',
    realDefault: '0',
    doc: null,
    applies: always,
  },
];
