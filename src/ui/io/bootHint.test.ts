// @vitest-environment jsdom
/**
 * The first load's hint (index.html, public/boot-hint.js): over HTTP it says "Still loading…",
 * not "opened as a file" — a first `npm start` optimising its dependencies showed that after 4 s.
 * Opened as a file, the script leaves the page's own words.
 */
import { describe, expect, it } from 'vitest';
import page from '../../../index.html?raw';
import script from '../../../public/boot-hint.js?raw';

const root = /<div id="root">([\s\S]*?)<\/div>/.exec(page)![1]!;

function hintAfterScript(protocol: string): string {
  document.body.innerHTML = root;
  // The script as the page runs it, with `location` standing for the page's address.
  new Function('location', script)({ protocol });
  return document.getElementById('boot-hint')!.textContent!.replace(/\s+/g, ' ').trim();
}

describe('the first load’s hint', () => {
  it('over HTTP says only that the page is still loading', () => {
    expect(hintAfterScript('http:')).toBe('Still loading…');
  });
  it('opened as a file says to serve the folder over HTTP', () => {
    expect(hintAfterScript('file:')).toMatch(/^Still here\? Serve this folder over HTTP/);
  });
  it('the page runs the script right after the hint, from the page’s own folder', () => {
    expect(root).toMatch(/id="boot-hint"[\s\S]*<script src="\.\/boot-hint\.js"><\/script>/);
  });
});
