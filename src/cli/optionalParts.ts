/**
 * The runner's optional parts, each imported only when an option asks for it (issue 28: a preset
 * run parses and evaluates none of them, docs/benchmarks.md#cli-start-up): `--compare`,
 * `--explore`, `--format sql` / `--against`, the diagrams (`--format mermaid|markdown`) and a share
 * link's decoder (fflate), and zod's validation of a scenario file. `runCli` (src/cli/main.ts) imports the ones its arguments need
 * (src/cli/runArgs.ts's `optionalPartsFor`) before the synchronous runner starts; the runner
 * reaches each with `optionalPart(name)`. The in-process tests load them all once
 * (src/cli/cliTesting.ts).
 */
const IMPORTS = {
  compare: () => import('./compare'),
  explore: () => import('./explore'),
  exploreBatch: () => import('./exploreBatch'),
  // `--check` of a scenario whose pin holds its fault atlas (`expect.atlas`).
  atlasPin: () => import('./atlasPin'),
  sql: () => import('./sqlCommand'),
  diagrams: () => import('./reportDiagram'),
  share: () => import('./shareLinkPart'),
  // zod and the scenario schemas: a scenario file's validation (our presets come parsed).
  validate: () => import('../engine/scenario/validate'),
};

export type OptionalPart = keyof typeof IMPORTS;
type Modules = { [K in OptionalPart]: Awaited<ReturnType<(typeof IMPORTS)[K]>> };

export const OPTIONAL_PARTS = Object.keys(IMPORTS) as OptionalPart[];

const loaded: Partial<Modules> = {};

async function load<K extends OptionalPart>(name: K): Promise<void> {
  loaded[name] ??= (await IMPORTS[name]()) as Modules[K];
}

/** Import these parts (each once). */
export async function loadOptionalParts(names: readonly OptionalPart[]): Promise<void> {
  await Promise.all(names.map(load));
}

/** The parts imported so far, in {@link OPTIONAL_PARTS} order. */
export function loadedOptionalParts(): OptionalPart[] {
  return OPTIONAL_PARTS.filter((name) => loaded[name] !== undefined);
}

/** A part already imported; throws (an internal error: exit 1) if `optionalPartsFor` missed it. */
export function optionalPart<K extends OptionalPart>(name: K): Modules[K] {
  const part = loaded[name];
  if (part === undefined)
    throw new Error(`the runner's part "${name}" was used before it was imported`);
  return part as Modules[K];
}
