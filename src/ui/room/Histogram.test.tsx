/**
 * The room's bars letter a choice as the projector's question box does (A, B, C by the options'
 * order): the teacher's "who chose B?" names the same option on the panel and the phones. Before,
 * the projector said "B" and the bars and the phones' options said the text only.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { Histogram } from './Histogram';

afterEach(cleanup);

it('a choice’s bars are lettered by the options’ order; a number’s are not', () => {
  const choice = {
    kind: 'choice' as const,
    text: 'What does the table end with?',
    options: [
      { id: 'lost', text: 'Some payments missing' },
      { id: 'dup', text: 'Every payment, some twice' },
      { id: 'exact', text: 'Every payment exactly once' },
    ],
  };
  render(<Histogram question={choice} counts={{ dup: 4, lost: 1 }} reveal={null} />);
  const labels = screen
    .getAllByRole('listitem')
    .map((li) => li.querySelector('.room-bar-label')!.textContent);
  expect(labels).toEqual([
    'ASome payments missing',
    'BEvery payment, some twice',
    'CEvery payment exactly once',
  ]);
  cleanup();
  render(
    <Histogram
      question={{ kind: 'number', text: 'How many rows?', unit: 'rows' }}
      counts={{ '18': 2 }}
      reveal={null}
    />,
  );
  expect(document.querySelector('.room-letter')).toBeNull();
});
