import { it, expect } from 'vitest';
import { compileJsonSchema } from '../../src/decoding/index.js';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { byteVocabulary } from '../decoding/byte-vocabulary.js';
import { boundaryInstances } from '../decoding/boundary-instances.js';
import { DIFFERENTIAL_CASES } from '../decoding/differential-schemas.js';
it('q', () => {
  const v = byteVocabulary();
  for (const c of DIFFERENTIAL_CASES.slice(-2)) {
    const g = compileJsonSchema(c.schema, v, { limits: c.limits ?? {} });
    const val = compileSchema(c.schema as never);
    let good = 0, bad = 0; const problems: string[] = [];
    for (const seed of [1, 2, 3]) for (const value of boundaryInstances(c.schema, { seed, maxInstances: 400 })) {
      const ok = val.validate(value).success;
      const texts = ok ? [g.format(value)!] : [JSON.stringify(value)];
      for (const t of texts) { const m = g.matcher(); const acc = m.acceptString(t) && m.canTerminate(); if (acc !== ok) problems.push(`${ok} ${t}`); }
      ok ? good++ : bad++;
    }
    console.log('CASE', c.name.slice(0, 40), good, bad, problems.slice(0, 5));
    expect(problems).toEqual([]);
  }
});
