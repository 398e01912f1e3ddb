/**
 * The page's entry (index.html): the embed's page for an embed address, the lab's otherwise. Each
 * is a chunk of its own, so an iframe `?embed…` loads the player alone and the lab loads none of
 * the embed-only code; any share link still becomes an embed by adding `?embed`, from the same
 * index.html (one file to deploy on any static host).
 */
import { isEmbed } from './ui/embed/embedAddress';

if (isEmbed(window.location.search)) {
  // As the lab's page does (below): the preset the address opens and the simulation asked for
  // beside the player's graph, not once that graph has arrived and evaluated (issue 31: first
  // paint ≤ 500 ms; scripts/embed-waterfall.ts). Not ./ui/io/firstPresets: the embed has its own
  // copy of it (./ui/embed/earlyPresets.ts says why). No explanations: an embed explains its run
  // once it shows a "why" (src/ui/io/bootLab.ts).
  const hint = () => {};
  import('./ui/embed/earlyPresets')
    .then((m) => m.startPresetDownloads(window.location.search))
    .catch(hint);
  void import('./embedMain');
  // The simulation's own module starts its download, by its rule (not for a batch job's embed,
  // which never runs it): ./platform/simulationChunk.ts.
  import('./platform/simulationChunk').catch(hint);
} else {
  // What the lab's first run loads besides main's graph — the presets the address opens (their
  // metadata, family and parsed variants: ./ui/io/firstPresets.ts), the simulation, the
  // explanations — asked for with that graph rather than once it has all arrived and evaluated:
  // one wave of downloads before the first verdict, not four in a row (issue 24: first verdict
  // ≤ 500 ms). The presets first: what they fetch next is known only once that small module runs.
  // The same modules main imports (one instance each); a failed download is the first run's to
  // report.
  const hint = () => {};
  import('./ui/io/firstPresets').catch(hint);
  void import('./main');
  import('./views/run/runScenario').catch(hint);
  import('./views/run/explainer').catch(hint);
}
