/**
 * What the player reads of a scenario that needs zod (the schemas, `parseScenario`): validation,
 * the guarantee switch's answers, the fault menu's filter, the recipe a switch applies. One chunk
 * the lab's page provides at start-up (src/main.tsx) and the embed imports only when something
 * must be validated — a `#s=` link, a first edit, a fault menu — through
 * ./validationOnDemand.ts (issue 31: a preset embed fetches no zod).
 */
import { parseScenario } from '../../engine/scenario/validate';
import {
  applyGuarantee,
  guaranteeAvailability,
  recipeDifferences,
} from '../../scenarios/guarantees';
import { faultMenu } from '../edit/faultMenu';
import { parseFaultTime } from '../edit/schemaRange';

/** The parts as one object: provideValidation takes them whole. */
export const validationParts = {
  parseScenario,
  applyGuarantee,
  guaranteeAvailability,
  recipeDifferences,
  faultMenu,
  parseFaultTime,
};
