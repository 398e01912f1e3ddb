/**
 * The whole catalog, provided at once (src/scenarios/presetCatalog.ts): the lab's page imports this
 * module before anything reads a preset's metadata (src/main.tsx) — its scenario menu, `?preset=`,
 * "Start here" and the library read every preset's — so it fetches no part on its own. An embed
 * does not import it: it loads its preset's family's part.
 */
import { PRESET_CATALOG } from './parsed/catalog';
import { provideCatalog } from './presetCatalog';

provideCatalog(PRESET_CATALOG);
