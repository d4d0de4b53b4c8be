import { describe, expect, it } from 'vitest';
import { textView, VALUE_VIEW_LIMITS, valueView } from './value-view.js';

// The markup without the template's indentation between tags (text inside a tag keeps all of its own).
const render = (value: unknown, limits = VALUE_VIEW_LIMITS) => valueView(value, limits).toString().replace(/>\s+</g, '><');

describe('valueView', () => {
  it('renders a flat object as a table of its keys, and a nested one as a tree whose flat parts are tables', () => {
    const flat = render({ order: 'A-1', amount: 40, refund: true, note: null });
    expect(flat).toMatch(/^<div class="value"><table class="value-table">/);
    expect([...flat.matchAll(/<th scope="row">([^<]*)<\/th>/g)].map((match) => match[1])).toEqual(['order', 'amount', 'refund', 'note']);
    expect(flat).not.toContain('value-tree');

    const nested = render({ customer: { name: 'Ada', address: { city: 'Paris' } }, tags: ['a', 'b'] });
    expect(nested).toMatch(/^<div class="value"><ul class="value-tree">/);
    expect(nested).toContain('<span class="value-key">customer</span>');
    expect(nested).toContain('<ol class="value-tree value-list" start="0"><li><span class="value-text">a</span></li>');
    // The innermost flat object is a table inside the tree.
    expect(nested).toContain('<table class="value-table"><tbody><tr><th scope="row">city</th><td><span class="value-text">Paris</span></td></tr>');
  });

  it('shows strings as text with their line breaks and quotes, never as JSON escapes', () => {
    const page = render({ body: 'line one\nsaid "hi"' });
    expect(page).toContain('<span class="value-text">line one\nsaid &quot;hi&quot;</span>');
    expect(page).not.toContain('\\n');
    expect(textView('a\n"b"').toString()).toBe('<span class="value-text">a\n&quot;b&quot;</span>');
  });

  it('escapes every key and every value', () => {
    const hostile = '<img src=x onerror=alert(1)>';
    const page = render({ [hostile]: hostile, nested: { [hostile]: [hostile] } });
    expect(page).not.toContain('<img');
    expect(page.split('&lt;img src=x onerror=alert(1)&gt;').length - 1).toBe(4);
  });

  it('renders a deeply nested value to the depth limit and says what it left out', () => {
    let deep: unknown = 'bottom';
    for (let level = 0; level < 10_000; level++) deep = { next: deep };
    const page = render(deep);
    expect(page.split('class="value-key"').length - 1).toBe(VALUE_VIEW_LIMITS.maxDepth);
    expect(page).toContain('object with 1 key, nested too deep to show here: see the raw JSON');
    expect(page).not.toContain('bottom');
  });

  it('renders a wide value to the entry and node limits, and a long text to the character limit', () => {
    const wide = Object.fromEntries(Array.from({ length: 5_000 }, (_, index) => [`key${index}`, index]));
    const page = render(wide);
    expect(page.split('<tr>').length - 1).toBe(VALUE_VIEW_LIMITS.maxEntries);
    expect(page).toContain(`… and ${5_000 - VALUE_VIEW_LIMITS.maxEntries} more keys: see the raw JSON`);

    // 50 × 50 × 50 leaves: the node limit stops the walk long before the 125,000 leaves.
    const cube = Array.from({ length: 50 }, () => Array.from({ length: 50 }, () => Array.from({ length: 50 }, (_, index) => index)));
    const rendered = render(cube);
    expect(rendered.split('<span class="value-literal">').length - 1).toBeLessThan(VALUE_VIEW_LIMITS.maxNodes);
    expect(rendered).toContain('more items: see the raw JSON');

    const long = render({ text: 'x'.repeat(50_000) });
    expect(long).toContain(`<span class="value-text">${'x'.repeat(VALUE_VIEW_LIMITS.maxChars)}</span>`);
    expect(long).toContain(`… (${50_000 - VALUE_VIEW_LIMITS.maxChars} more characters: see the raw JSON)`);
    // The character budget is shared by every string of the value, not per string.
    const many = render(Array.from({ length: 40 }, () => 'y'.repeat(1_000)));
    expect(many.split('y').length - 1).toBe(VALUE_VIEW_LIMITS.maxChars);
  });

  it('names empty values, absent ones and literals', () => {
    expect(render({})).toContain('{} (empty object)');
    expect(render([])).toContain('[] (empty list)');
    expect(render('')).toContain('"" (empty text)');
    expect(render(undefined)).toContain('absent');
    expect(render(false)).toContain('<span class="value-literal">false</span>');
  });
});
