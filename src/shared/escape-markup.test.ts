import { describe, expect, it } from 'vitest';
import { escapeMarkup } from './escape-markup.js';

describe('escapeMarkup', () => {
  it('turns the five markup characters into entities, ampersands first so no entity is escaped twice', () => {
    expect(escapeMarkup(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
  });

  it('leaves other text, including non-ASCII, as it is', () => {
    expect(escapeMarkup('Bogotá — 15 °C')).toBe('Bogotá — 15 °C');
  });
});
