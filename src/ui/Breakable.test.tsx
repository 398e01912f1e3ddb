import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Breakable } from './Breakable';

afterEach(cleanup);

describe('Breakable', () => {
  it('lets a config name wrap after its dots and equals signs, and nowhere else', () => {
    const { container } = render(
      <p>
        <Breakable text="With enable.idempotence=false, 1.5 s later. Then" />
      </p>,
    );
    // enable.|idempotence=|false — not inside 1.5, not after the sentence's full stop.
    expect(container.querySelectorAll('wbr')).toHaveLength(2);
    expect(container.textContent).toBe('With enable.idempotence=false, 1.5 s later. Then');
    expect(container.innerHTML).toContain('enable.<wbr>idempotence=<wbr>false,');
  });
});
