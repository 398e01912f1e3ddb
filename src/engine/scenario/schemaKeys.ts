/**
 * The fields a zod object schema allows at a path of an input — what an unknown key's "did you
 * mean …?" chooses from (./issueWords.ts). Walks the schema beside the input: through optional,
 * default, nullable, pipe and lazy wrappers, arrays' elements and records' values; at a union
 * (a fault's `kind`, a processor's or a sink's `type`), the options whose literal fields the input
 * matches — all of them when none does.
 */
import { z } from 'zod';

/** A schema and the part of the input it is matched with. */
interface Place {
  schema: z.ZodType;
  value: unknown;
}

/** The keys of the object schemas at `path` in `input` (none where there is no object). */
export function keysAt(schema: z.ZodType, input: unknown, path: readonly PropertyKey[]): string[] {
  let here: Place[] = [{ schema, value: input }];
  for (const key of path) {
    const next: Place[] = [];
    for (const { schema: s, value } of here) {
      const child =
        typeof value === 'object' && value !== null
          ? (value as Record<PropertyKey, unknown>)[key]
          : undefined;
      for (const r of resolved(s, value)) {
        if (r instanceof z.ZodObject) {
          const field = (r.shape as Record<string, z.ZodType>)[String(key)];
          if (field) next.push({ schema: field, value: child });
        } else if (r instanceof z.ZodArray)
          next.push({ schema: r.element as z.ZodType, value: child });
        else if (r instanceof z.ZodRecord)
          next.push({ schema: r.valueType as unknown as z.ZodType, value: child });
      }
    }
    here = next;
  }
  const keys = here.flatMap(({ schema: s, value }) =>
    resolved(s, value).flatMap((r) => (r instanceof z.ZodObject ? Object.keys(r.shape) : [])),
  );
  return [...new Set(keys)];
}

/** `schema` without its wrappers, a union as the options `value` fits (all if none does). */
function resolved(schema: z.ZodType, value: unknown): z.ZodType[] {
  if (schema instanceof z.ZodUnion) {
    const options = (schema.options as z.ZodType[]).flatMap((o) => resolved(o, value));
    const fitting = options.filter((o) => literalsFit(o, value));
    return fitting.length > 0 ? fitting : options;
  }
  if (schema instanceof z.ZodLazy) return resolved(schema.unwrap() as z.ZodType, value);
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  // optional, nullable, default, prefault, readonly, catch: innerType; a pipe: its input side.
  const inner = def.innerType ?? (schema instanceof z.ZodPipe ? def.in : undefined);
  return inner ? resolved(inner as z.ZodType, value) : [schema];
}

/** Whether `value` has the value of each literal field of object schema `o` (its `kind`, `type`). */
function literalsFit(o: z.ZodType, value: unknown): boolean {
  if (!(o instanceof z.ZodObject) || typeof value !== 'object' || value === null) return false;
  let any = false;
  for (const [key, field] of Object.entries(o.shape as Record<string, z.ZodType>)) {
    const literal = resolved(field, undefined)[0];
    if (!(literal instanceof z.ZodLiteral)) continue;
    any = true;
    if (!literal.values.has((value as Record<string, never>)[key])) return false;
  }
  return any;
}
