/**
 * The page scanner of `delivery-lab check`: tags and attributes at their lines, read as HTML's
 * tokenizer reads them (https://html.spec.whatwg.org/multipage/parsing.html#attribute-name-state),
 * and Markdown's code (https://spec.commonmark.org/0.31.2/#fenced-code-blocks) left out.
 */
import { describe, expect, it } from 'vitest';
import { pageTags } from './checkDocsScan';

const names = (text: string, kind: 'html' | 'markdown') =>
  pageTags(text, kind).map((t) => `${t.name}@${t.line}`);

describe('checkDocsScan', () => {
  it('attributes: quoted either way, unquoted, bare; names in any case; references decoded; each at its line', () => {
    const [tag] = pageTags(
      '<IFRAME\n  SRC="/lab/?embed&amp;preset=a&#x2F;b"\n  data-x=plain\n  hidden\n  title=\'It&#39;s\'>',
      'html',
    );
    expect(tag!.name).toBe('iframe');
    expect(Object.fromEntries(tag!.attributes)).toEqual({
      src: { value: '/lab/?embed&preset=a/b', line: 2 },
      'data-x': { value: 'plain', line: 3 },
      hidden: { value: '', line: 4 },
      title: { value: "It's", line: 5 },
    });
  });

  it('a `>` inside a quoted value does not end the tag', () => {
    const tags = pageTags(`<a title="x > y" href='>'>\n<b>`, 'html');
    expect(tags.map((t) => [t.name, t.line, t.attributes.get('title')?.value])).toEqual([
      ['a', 1, 'x > y'],
      ['b', 2, undefined],
    ]);
  });

  it('HTML: comments and raw text (script, style, textarea, title) hold no tags', () => {
    const html = '<!-- <x-a> -->\n<script>"<x-b>"</script>\n<style>/* <x-c> */</style><x-d>';
    expect(names(html, 'html')).toEqual(['script@2', 'style@3', 'x-d@3']);
  });

  it('Markdown: backtick and tilde fences (a longer closing fence, an unclosed one) and code spans hold no tags; lines kept', () => {
    const md = [
      '~~~', //          1
      '<x-a>',
      '~~~~', //         3: closes (at least as long)
      '``` html',
      '<x-b>',
      '```', //          6
      'A `` `<x-c>` `` span <x-d>', // 7: the double-backtick span holds a backtick
      '````',
      '<x-e>', //        9: never closed, code to the end
    ].join('\n');
    expect(names(md, 'markdown')).toEqual(['x-d@7']);
    // The same text as HTML: every tag.
    expect(names(md, 'html')).toEqual(['x-a@2', 'x-b@5', 'x-c@7', 'x-d@7', 'x-e@9']);
  });

  it('Markdown: a chunk indented 4 spaces (or a tab) after a blank line is code; not when it continues a paragraph or a list item', () => {
    // https://spec.commonmark.org/0.31.2/#indented-code-blocks: "An indented code block cannot
    // interrupt a paragraph"; blank lines inside it are part of it; a line indented less ends it.
    // https://spec.commonmark.org/0.31.2/#list-items: a list item's content is indented by its
    // marker's width ("- " = 2), so its code needs 2 + 4 columns.
    const md = [
      'Para', //          1
      '    <x-a>', //     2: a paragraph's continuation, not code
      '',
      '    <x-b>', //     4: code
      '',
      '      <x-c>', //   6: still code (a blank line inside)
      '\t<x-d>', //       7: code (a tab)
      'Text <x-e>', //    8: ends it
      '',
      '- item <x-f>', // 10
      '',
      '    <x-g>', //    12: the item's paragraph (4 < 2 + 4)
      '',
      '      <x-h>', //  14: the item's code
      '',
      'After <x-i>', //  16
    ].join('\n');
    expect(names(md, 'markdown')).toEqual(['x-a@2', 'x-e@8', 'x-f@10', 'x-g@12', 'x-i@16']);
  });

  it('Markdown (MkDocs): an admonition’s or content tab’s content, indented 4, is content, not code; its own code is 4 more in', () => {
    // Python-Markdown's admonitions (https://python-markdown.github.io/extensions/admonition/:
    // "!!! type", content indented 4) and pymdownx's collapsible blocks ("??? type", "???+") and
    // content tabs (https://facelessuser.github.io/pymdown-extensions/extensions/tabbed/:
    // '=== "Tab"') hold Markdown indented 4 spaces: two embeds in tabs side by side were read as
    // indented code, examples, and never checked.
    const md = [
      '=== "At-least-once"', //               1
      '',
      '    <x-a>', //                          3: the tab's content
      '',
      '===+ "Exactly-once"', //                5
      '',
      '    <x-b>', //                          7
      '',
      '!!! example "Try it"', //               9
      '    <x-c>', //                         10
      '',
      '    An example:', //                   12
      '',
      '        <x-d>', //                     14: code inside the admonition
      '',
      '??? note', //                          16
      '', //                                  17
      '    <x-e>', //                         18
      '',
      'After', //                             20
      '',
      '    <x-f>', //                         22: code again, past the admonition
      '',
      'Setext', //                            24
      '===', //                               25: a heading underline, no container
      '',
      '    <x-g>', //                         27: code
    ].join('\n');
    expect(names(md, 'markdown')).toEqual(['x-a@3', 'x-b@7', 'x-c@10', 'x-e@18']);
  });

  it('Markdown: a tag spanning lines inside a block quote is read; its own indented code and fences are code', () => {
    // https://spec.commonmark.org/0.31.2/#block-quotes: the marker is `>` and one optional space;
    // the quote's content is Markdown of its own (its code blocks counted from after the marker).
    const md = [
      '> <x-a', //                 1
      '>   data-expect="3 rows">', // 2: without the markers gone, this `>` would end the tag
      '>', //                      3: a blank line inside the quote
      '>     <x-b>', //            4: indented code inside the quote
      '> > ```', //                5: a fence in a nested quote
      '> > <x-c>', //              6
      '> > ```',
      '> <x-d>', //                8
    ].join('\n');
    const tags = pageTags(md, 'markdown');
    expect(tags.map((t) => `${t.name}@${t.line}`)).toEqual(['x-a@1', 'x-d@8']);
    expect(tags[0]!.attributes.get('data-expect')).toEqual({ value: '3 rows', line: 2 });
  });

  it('Markdown: a tag spanning lines outside a block quote ends at a `>` that starts a line — not a quote marker', () => {
    // `></delivery-lab-embed>` under the attributes, as docs/embed.md writes an element: with the
    // `>` taken for a quote marker the tag ran on into `</delivery-lab-embed>`, read as two
    // attributes ("<" and "delivery-lab-embed").
    const md = [
      '<delivery-lab-embed', //                   1
      '  preset="lost-ack-retry/acks-1"',
      `  expect='{"totals": {"rows": 11,`, //    3: a value over two lines
      `           "sum": 580}}'`,
      '></delivery-lab-embed>', //              5
      '',
      '> <x-b', //                                7: in a quote, its markers still go
      '>   data-x="1">',
    ].join('\n');
    const tags = pageTags(md, 'markdown');
    expect(tags.map((t) => `${t.name}@${t.line}`)).toEqual(['delivery-lab-embed@1', 'x-b@7']);
    expect([...tags[0]!.attributes.keys()]).toEqual(['preset', 'expect']);
    expect([...tags[1]!.attributes.keys()]).toEqual(['data-x']);
  });

  it('Markdown: a <pre> HTML block runs to its closing tag, blank lines included; nothing inside it is indented code', () => {
    // https://spec.commonmark.org/0.31.2/#html-blocks, type 1: from `<pre` to the line holding
    // `</pre>`; its lines are HTML, so an embed inside it is an embed (HTML's <pre> is not raw text).
    const md = [
      '<pre>', //          1
      '',
      '    <x-a>', //      3: after a blank line, but inside the HTML block
      '```', //            4: not a fence inside it
      '</pre>',
      '',
      '    <x-b>', //      7: code again
      '<x-c>', //          8
    ].join('\n');
    expect(names(md, 'markdown')).toEqual(['pre@1', 'x-a@3', 'x-c@8']);
  });
});
