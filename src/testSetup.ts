/**
 * Vitest's setup file (vite.config.ts `setupFiles`): the page loads presets per family and zod on
 * demand (src/scenarios/presetCatalog.ts, docs/ARCHITECTURE.md "The first screen"); unit tests
 * read any preset synchronously, as they always have, so every one is loaded before each file.
 */
import { loadAllPresets } from './scenarios/presetCatalog';
import { provideKnobEditing } from './store/knobEditing';
import { provideMomentWords } from './store/momentWordsOnDemand';
import { editKnob } from './views/edit/knobs';
import { momentWords } from './views/run/momentWords';
import { provideValidation } from './views/run/validationOnDemand';
import { validationParts } from './views/run/validationParts';

await loadAllPresets();
// As src/main.tsx does: the store's setKnob synchronous (src/store/knobEditing.ts).
provideKnobEditing(editKnob);
// As src/main.tsx does: the validation in hand, its readers synchronous
// (src/views/run/validationOnDemand.ts).
provideValidation(validationParts);
// As src/main.tsx does: a jump's words said at once (src/store/momentWordsOnDemand.ts).
provideMomentWords(momentWords);
