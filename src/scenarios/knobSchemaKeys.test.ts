/**
 * ./knobSchemaKeys.ts is the scenario schema's keys and defaulted unions copied as plain data
 * (the knob panels render without zod): pinned here equal to what the zod schema says, read the
 * way knobPaths.ts read it before the copy.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BrokerSchema,
  ProcessorSchema,
  ProducerSchema,
  ReaderSchema,
  ScenarioSchema,
  SinkSchema,
} from '../engine';
import { DEFAULT_DISCRIMINATORS, READER_KEYS, SCHEMA_KEYS } from './knobSchemaKeys';

const keysOf = (o: unknown): string[] => Object.keys((o as { shape?: object }).shape ?? {});
/** A union's keys: every option's, once each, in the schema's order. */
const unionKeys = (options: readonly unknown[]) => [...new Set(options.flatMap(keysOf))];

interface SchemaNode {
  shape?: Record<string, SchemaNode>;
  def?: { innerType?: SchemaNode; discriminator?: string };
  safeParse(v: unknown): { success: boolean; data?: unknown };
}
const unwrap = (n: SchemaNode) => {
  while (n.def?.innerType) n = n.def.innerType;
  return n;
};

/** Every object path of the schema whose left-out value defaults to a discriminated union. */
function defaultedUnions(node: SchemaNode, path: string[] = []): Record<string, [string, unknown]> {
  const found: Record<string, [string, unknown]> = {};
  const inner = unwrap(node);
  const d = inner.def?.discriminator;
  if (d !== undefined && path.length > 0) {
    const parsed = node.safeParse(undefined);
    const data = parsed.success ? (parsed.data as Record<string, unknown> | undefined) : undefined;
    if (data && d in data) found[path.join('.')] = [d, data[d]];
  }
  for (const [k, child] of Object.entries(inner.shape ?? {}))
    Object.assign(found, defaultedUnions(child, [...path, k]));
  return found;
}

describe('the knob paths’ schema facts as plain data', () => {
  it('each object’s keys are the schema’s', () => {
    expect(SCHEMA_KEYS).toEqual({
      producer: keysOf(ProducerSchema),
      'producer.app': keysOf(
        (ProducerSchema.shape.app as unknown as { unwrap(): unknown }).unwrap(),
      ),
      broker: keysOf(BrokerSchema),
      processor: unionKeys(ProcessorSchema.options),
      sink: unionKeys(SinkSchema.options),
    });
    expect(READER_KEYS).toEqual(keysOf(ReaderSchema));
  });

  it('the defaulted unions are the schema’s: a consumer-loop processor, a table sink', () => {
    const fromSchema = defaultedUnions(ScenarioSchema as unknown as SchemaNode);
    expect(fromSchema).toEqual({ processor: ['type', 'consumer'], sink: ['type', 'table'] });
    expect(DEFAULT_DISCRIMINATORS).toEqual(fromSchema);
  });
});

describe('the knob paths without zod', () => {
  afterEach(() => {
    vi.doUnmock('zod');
    vi.resetModules();
  });

  it(
    'knobPaths.ts evaluates and sets a knob with zod mocked to throw at its first use',
    async () => {
      vi.resetModules();
      vi.doMock(
        'zod',
        () =>
          new Proxy(
            {},
            {
              get(_, key) {
                if (key === 'then') return undefined;
                throw new Error(`zod.${String(key)} used by knobPaths.ts`);
              },
            },
          ),
      );
      const { setKnob } = await import('./knobPaths');
      // The dotted config name split by the plain keys, the default union's type filled in.
      expect(setKnob({ version: 1 }, 'processor.enable.auto.commit', false)).toEqual({
        version: 1,
        processor: { type: 'consumer', 'enable.auto.commit': false },
      });
    },
    // Transforming a fresh module graph takes seconds on a busy machine.
    60_000,
  );
});
