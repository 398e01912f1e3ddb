/**
 * A notice's details past its first 8 lines are one press away, never cut off: the page's Import
 * of a producer.properties and a consumer.properties lists 14 keys applied first and the 4 ignored
 * (with why) after them — "… and 10 more", as plain text, hid every ignored key the summary
 * counted, which `delivery-lab from-config` prints in full.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ArtifactClient } from '../../platform/runClient';
import { testIds } from '../testIds';
import { NoticeBar } from './NoticeBar';
import { createNotices } from './notices';
import { PageProvider } from './PageContext';

afterEach(cleanup);

function bar(lines: string[]) {
  const notices = createNotices();
  render(
    <PageProvider page={{ notices, artifacts: {} as unknown as ArtifactClient, shareLink: null }}>
      <NoticeBar />
    </PageProvider>,
  );
  act(() => notices.push({ tone: 'info', text: 'From “producer.properties”', lines }));
  return screen.getByTestId(testIds.notice);
}

const items = (n: HTMLElement) => [...n.querySelectorAll('li')].map((li) => li.textContent);

describe('a notice with many lines', () => {
  const lines = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);

  it('shows 8, and a button that shows the rest, and one that folds them again', () => {
    const notice = bar(lines);
    expect(items(notice)).toEqual(lines.slice(0, 8));
    const more = screen.getByRole('button', { name: 'Show the 4 more lines' });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(more);
    expect(items(notice)).toEqual(lines);
    const fewer = screen.getByRole('button', { name: 'Show the first 8 lines only' });
    expect(fewer.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(fewer);
    expect(items(notice)).toEqual(lines.slice(0, 8));
  });

  it('of 8 or fewer shows them all, with no button', () => {
    const notice = bar(lines.slice(0, 8));
    expect(items(notice)).toEqual(lines.slice(0, 8));
    expect(screen.queryByRole('button', { name: /more lines/ })).toBeNull();
  });
});

describe('what a screen reader hears of the notices', () => {
  it('the latest information, from one live region there before it; a warning is an alert', () => {
    const notices = createNotices();
    render(
      <PageProvider page={{ notices, artifacts: {} as unknown as ArtifactClient, shareLink: null }}>
        <NoticeBar />
      </PageProvider>,
    );
    const said = screen.getByTestId(testIds.noticeSaid);
    expect(said.getAttribute('aria-live')).toBe('polite');
    expect(said.textContent).toBe('');
    act(() => notices.push({ tone: 'info', text: 'From “producer.properties”', lines: ['a'] }));
    expect(said.textContent).toBe('From “producer.properties”');
    // The notice itself is no second live region (it was a status inside a polite one).
    const notice = screen.getByTestId(testIds.notice);
    expect(notice.closest('[aria-live], [role="status"], [role="alert"]')).toBeNull();
    act(() => notices.push({ tone: 'warn', text: 'Storage is full' }));
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual(['Storage is full✕']);
    expect(said.textContent).toBe('From “producer.properties”');
  });
});
