/**
 * The notice that imported configuration files claim no guarantee: the claim the verdict checks
 * is the workload's ("The verdict checks exactly-once: the claim of the workload …"), with a
 * button per guarantee — one sets the claim alone, the files' knobs kept; "Keep …" keeps it
 * (docs/page.md, "Sharing, exporting, importing"). While it waits for that choice it is part of
 * the saved workspace (`Workspace.claimAsked`): the scenario it speaks of comes back on reload,
 * and so does the question — it went with the page's other notices, the choice never made.
 */
import { CLAIMS } from '../../scenarios/claim';
import type { ClaimAsked } from '../../platform/storage';
import type { LabActions } from '../../store/labState';
import type { PageNotice } from './notices';

/** The notice asking which guarantee the pipeline promises, for the workload's `claim`. */
export function claimNotice(
  actions: Pick<LabActions, 'setKnob'>,
  claim: ClaimAsked,
): Omit<PageNotice, 'id'> {
  return {
    tone: 'info',
    text: `The verdict checks ${claim.value}: the claim of the workload ${claim.workload}, not of your files — a configuration claims no guarantee. Which does your pipeline promise?`,
    claimAsked: claim,
    actions: CLAIMS.map((g) => ({
      label: g === claim.value ? `Keep ${g}` : g,
      name: `${g === claim.value ? `Keep ${g}` : g}: the claim the verdict checks (your knobs kept)`,
      run: () => {
        if (g !== claim.value)
          actions.setKnob(
            'claim',
            g,
            `${g}, the guarantee your pipeline promises; your files’ knobs kept`,
          );
        return true;
      },
    })),
  };
}

/** The claim question still waiting on the page, to save with the workspace (or none). */
export function claimAskedOf(items: readonly PageNotice[]): { claimAsked?: ClaimAsked } {
  const asked = [...items].reverse().find((n) => n.claimAsked !== undefined)?.claimAsked;
  return asked ? { claimAsked: asked } : {};
}
