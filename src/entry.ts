/**
 * The page's entry (index.html): the embed's page for an embed address, the lab's otherwise. Each
 * is a chunk of its own, so an iframe `?embed…` loads the player alone and the lab loads none of
 * the embed-only code; any share link still becomes an embed by adding `?embed`, from the same
 * index.html (one file to deploy on any static host).
 */
import { isEmbed } from './ui/embed/embedAddress';
// Evaluated with the entry, before either page's branch: the simulation's download starts by its
// own rule (./platform/simulationChunk.ts: not for a batch job's embed, which never runs it), and
// the embed's preset loaders are in hand. Both were imported by the embed's branch and ran only
// once in, a round of requests after the entry: what they import next (the simulation's 20
// chunks, the preset's family) came a round later still, the last of the embed's first load
// (issue 31: first paint ≤ 500 ms; scripts/embed-waterfall.ts). Their modules are the lab's
// first load too (src/main.tsx, ./ui/io/firstPresets.ts): fetched with the entry, not more.
import './platform/simulationChunk';
import { startPresetDownloads } from './ui/embed/earlyPresets';

if (isEmbed(window.location.search)) {
  // The preset the address opens asked for beside the player's graph, not once that graph has
  // arrived and evaluated. Not ./ui/io/firstPresets: the embed has its own copy of it
  // (./ui/embed/earlyPresets.ts says why). No explanations: an embed explains its run once it
  // shows a "why" (src/ui/io/bootLab.ts).
  startPresetDownloads(window.location.search);
  void import('./embedMain');
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
