import { describe, expect, it } from 'vitest';
import { shareUrl } from '../../views/io/shareLink';
import { IMPORT_PLACEHOLDER } from './ImportDialog';

describe('the import paste box', () => {
  it('shows a share link as the page makes them: #s=2.', () => {
    expect(IMPORT_PLACEHOLDER).toBe('{ "version": 1, … }   or   https://…#s=2.…');
    // The same prefix as a link the share button makes today.
    const link = shareUrl('https://example.org/lab/', {
      version: 1,
      name: 'x',
      workload: { events: [] },
    } as never);
    const prefix = /#s=\d+\./.exec(link)![0];
    expect(prefix).toBe('#s=2.');
    expect(IMPORT_PLACEHOLDER).toContain(prefix);
  });
});
