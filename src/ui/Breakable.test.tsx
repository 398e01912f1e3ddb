import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Breakable } from './Breakable';

afterEach(cleanup);

describe('Breakable', () => {
  it('lets a config name wrap before its dots and after its equals signs, and nowhere else', () => {
    const { container } = render(
      <p>
        <Breakable text="With enable.idempotence=false, 1.5 s later. Then" />
      </p>,
    );
    // enable|.idempotence=|false — not inside 1.5, not after the sentence's full stop.
    expect(container.querySelectorAll('wbr')).toHaveLength(2);
    expect(container.textContent).toBe('With enable.idempotence=false, 1.5 s later. Then');
    expect(container.innerHTML).toContain('enable<wbr>.idempotence=<wbr>false,');
  });

  it('never ends a line with a name’s dot, which the back row reads as a full stop', () => {
    // At 1280×720 the at-least-once setup read "… so after request." / "timeout.ms (30 s) the
    // producer sends p-4 again": a sentence ending at "request". The line now ends "request" and
    // the next begins ".timeout", as a stage card breaks "transactional" / ".id" (SettingName).
    const { container } = render(
      <p>
        <Breakable text="so after request.timeout.ms (30 s) the producer" />
      </p>,
    );
    expect(container.innerHTML).toContain('request<wbr>.timeout<wbr>.ms (30 s)');
    expect(container.innerHTML).not.toMatch(/\.<wbr>/);
  });
});

describe('Breakable ids', () => {
  it('keeps an id whole at its hyphen (p-20, broker-1), and leaves words with hyphens alone', () => {
    const { container } = render(
      <p>
        <Breakable text="The same 20 payments, p-1..p-20, at-least-once, on broker-1." />
      </p>,
    );
    const ids = [...container.querySelectorAll('.event-id')].map((e) => e.textContent);
    expect(ids).toEqual(['p-1', 'p-20', 'broker-1']);
    expect(container.textContent).toBe(
      'The same 20 payments, p-1..p-20, at-least-once, on broker-1.',
    );
  });
});

describe('Breakable dates', () => {
  it('keeps a date whole at its hyphens (2024-03-10, 2024-03-10T05), beside ids and config names', () => {
    const { container } = render(
      <p>
        <Breakable text="How many rows does partition 2024-03-10 hold? e1 at 2024-03-10T05, retries=1." />
      </p>,
    );
    const dates = [...container.querySelectorAll('.date')].map((e) => e.textContent);
    expect(dates).toEqual(['2024-03-10', '2024-03-10T05']);
    expect(container.querySelectorAll('.event-id')).toHaveLength(0);
    expect(container.textContent).toBe(
      'How many rows does partition 2024-03-10 hold? e1 at 2024-03-10T05, retries=1.',
    );
  });

  it('keeps an id and a date apart in one text, in order', () => {
    const { container } = render(
      <p>
        <Breakable text="p-7 of 2024-03-11 and p-8" />
      </p>,
    );
    expect(container.firstElementChild!.innerHTML).toBe(
      '<span class="event-id">p-7</span> of <span class="date">2024-03-11</span> and <span class="event-id">p-8</span>',
    );
  });
});

describe('Breakable sources', () => {
  it('makes an address a link that wraps after its slashes, without the sentence’s punctuation', () => {
    const text =
      'The broker keeps it (https://kafka.apache.org/documentation/#producerconfigs_acks). See https://nightlies.apache.org/flink/docs/ops/state/checkpoints/.';
    const { container } = render(
      <p>
        <Breakable text={text} />
      </p>,
    );
    const links = [...container.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      'https://kafka.apache.org/documentation/#producerconfigs_acks',
      'https://nightlies.apache.org/flink/docs/ops/state/checkpoints/',
    ]);
    expect(links.every((a) => a.getAttribute('rel') === 'noreferrer')).toBe(true);
    // Its host is one piece (no break at its dots), as BreakableUrl writes it.
    expect(links[0]!.innerHTML).toContain('<span class="url-part">kafka.apache.org/</span>');
    expect(container.textContent).toBe(text);
  });

  it('leaves text without an address as it was', () => {
    const { container } = render(
      <p>
        <Breakable text="With enable.idempotence=false on broker-1." />
      </p>,
    );
    expect(container.querySelectorAll('a')).toHaveLength(0);
  });
});
