/**
 * The engine's explanations (src/engine/explain) as the run client and the run worker reach them:
 * a chunk of its own, which the embed loads only once it shows a "why" (issue 31,
 * ./runScenario.ts `Explainer`).
 */
export { explain } from '../../engine/explain';
