import { describe, expect, it } from 'vitest';
import { findPreset } from '../../scenarios';
import { setupAboutWords, setupWrittenFor } from './setupFor';

describe('setupWrittenFor', () => {
  // lost-ack-retry's question is about "idempotence off" (its predict.variant): its setup says
  // the producer sends e3 again, which retries-0 does not do.
  const preset = findPreset('lost-ack-retry/idempotence-off')!.preset;
  const variant = (id: string) => preset.variants.find((v) => v.id === id)!;

  it('names the variant the setup describes, on another one', () => {
    const about = setupWrittenFor(preset, variant('retries-0'));
    expect(about?.id).toBe('idempotence-off');
    expect(setupAboutWords(about!)).toBe('Set up for the “idempotence off” variant, not this one:');
  });

  it('is undefined on the variant the setup is written for', () => {
    expect(setupWrittenFor(preset, variant('idempotence-off'))).toBeUndefined();
  });
});
