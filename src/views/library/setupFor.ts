/**
 * A preset's setup is written for one variant, the one its question is about. On another, the
 * story panel (src/ui/library/StoryPanel.tsx) and the room's step (src/ui/room/currentRoomStep.ts)
 * say which variant it describes, in the same words.
 */
import { questionVariant } from '../../scenarios/defaultVariant';

/**
 * The variant a preset's setup is written for (the one its question is about: "the producer
 * sends e3 again"), when `variant` is another one (retries=0 sends nothing again); undefined on
 * that variant itself. The story panel and the room's step both say so, in {@link setupAboutWords}.
 */
export function setupWrittenFor<V extends { readonly id: string }>(
  preset: { readonly predict: { readonly variant?: string }; readonly variants: readonly V[] },
  variant: { readonly id: string },
): V | undefined {
  const about = preset.variants.find((v) => v.id === questionVariant(preset));
  return about && about.id !== variant.id ? about : undefined;
}

/** What goes before a setup written for another variant ({@link setupWrittenFor}). */
export function setupAboutWords(about: { readonly label: string }): string {
  return `Set up for the “${about.label}” variant, not this one:`;
}
