/**
 * The fault atlas's choice as a panel uses it: the kinds ticked of its own options, "Pairs too",
 * and their changes — each one undoable edit of the page's state (src/store/labStore.ts
 * `setAtlas`), the same rule for a stream's atlas and a batch job's.
 */
import type { AtlasChoice } from '../../views/atlas/atlasChoice';
import { withKind, withPairs } from '../../views/atlas/atlasChoice';
import { kindsTicked, type KindOption } from '../../views/atlas/atlasKinds';
import type { LabState } from '../../store/labStore';
import { useActions, useLab } from '../../store/LabContext';

const selectAtlas = (s: LabState) => s.atlas;

export function useAtlasChoice<K extends string>(options: readonly KindOption<K>[]) {
  const actions = useActions();
  const choice: AtlasChoice = useLab(selectAtlas);
  const ticked = kindsTicked(options, choice);
  const words = (kind: string) => options.find((o) => o.kind === kind)?.words ?? kind;
  return {
    choice,
    ticked,
    /** Every kind ticked: the atlas runs unfiltered (the CLI without `--kinds`). */
    all: ticked.length === options.length,
    pairs: choice.pairs === true,
    toggleKind: (kind: string, on: boolean) =>
      actions.setAtlas(
        withKind(choice, options, kind, on),
        `Fault atlas: ${words(kind)} ${on ? 'ticked' : 'left out'}`,
      ),
    setPairs: (on: boolean) =>
      actions.setAtlas(withPairs(choice, on), `Fault atlas: ${on ? 'pairs too' : 'single faults'}`),
  };
}
