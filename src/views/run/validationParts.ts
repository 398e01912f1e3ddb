/**
 * What the player reads of a scenario that needs zod (the schemas, `parseScenario`): validation,
 * the guarantee switch's answers, the fault menu's filter, the recipe a switch applies. One chunk
 * both pages import only when something must be validated — a `#s=` link, a saved workspace, a
 * first edit, a fault menu — through ./validationOnDemand.ts (issue 31: a preset embed fetches no
 * zod; issue 24: nor the lab's first visit, which loads it once idle after its first verdict).
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
