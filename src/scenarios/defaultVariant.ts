/**
 * The one rule for a bare preset id (`preset-id` without `/variant-id`): it names the preset's
 * **default variant** — the one its question is about (`predict.variant`), else its first. The
 * library opens a story there, and so do `?preset=<id>` (the page, projector mode, an embed), a
 * lesson step, `delivery-lab sim <id>` and `check` of a `preset=` embed: opened at another
 * variant, the first screen said "This question is about the “read_uncommitted” variant. Open
 * it" instead of asking (aborted-transaction-dirty-read opened read-committed, its first).
 * Every resolver of a preset ref goes through {@link variantOfRef}: `findPreset`
 * (src/scenarios/index.ts), `findPresetMeta` (presetCatalog.ts), `findBatchPreset`
 * (library/batch.ts), `presetRefOf` (presetScenarios.ts, the CLI's run).
 */

/** A variant, or its id alone (the generated index of variant ids, src/scenarios/parsed/). */
type VariantLike = string | { readonly id: string };

const idOf = (v: VariantLike) => (typeof v === 'string' ? v : v.id);

/**
 * The variant `variantId` names; none named (a bare preset id), the default: the one
 * `questionAbout` (the preset's `predict.variant`) names, else the first.
 * @returns undefined when `variantId` names no variant.
 */
export function variantOfRef<V extends VariantLike>(
  variants: readonly V[],
  variantId: string | undefined,
  questionAbout: string | undefined,
): V | undefined {
  if (variantId !== undefined) return variants.find((v) => idOf(v) === variantId);
  return variants.find((v) => idOf(v) === questionAbout) ?? variants[0];
}

/**
 * The variant a preset's question is about — its default variant: `predict.variant`, else the
 * first.
 */
export function questionVariant(p: {
  readonly predict: { readonly variant?: string };
  readonly variants: readonly { readonly id: string }[];
}): string {
  return idOf(variantOfRef(p.variants, undefined, p.predict.variant)!);
}
