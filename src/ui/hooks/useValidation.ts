/**
 * The validation (zod, src/views/run/validationOnDemand.ts) for a component that needs it as it
 * renders — the fault time editor's range: in hand on the lab's page, loaded on mount in an
 * embed (which then renders again). Null until it is in.
 */
import { useEffect, useState } from 'react';
import {
  loadValidation,
  validation,
  type ValidationParts,
} from '../../views/run/validationOnDemand';

export function useValidation(): ValidationParts | null {
  const [parts, setParts] = useState(validation);
  useEffect(() => {
    if (parts) return;
    let live = true;
    loadValidation().then(
      (v) => live && setParts(() => v),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [parts]);
  return parts;
}
