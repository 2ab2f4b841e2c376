// The `renderedOutputs` vectors of contracts/v1/test-vectors.json (profile-v1.md §5.5): provider
// items and the exact text T they render to, one per category of the rule of model-visible text
// (§5.2) and per dropped uri scheme. T is byte-exact, S = JSON.parse(T) is a valid output, and T
// holds no raw unsafe code point.
import { describe, expect, test } from 'bun:test';
import { boundItems } from '../../src/contract/bound.ts';
import { renderEnvelope } from '../../src/contract/envelope.ts';
import { validateSearchOutput } from './contract-ajv.ts';
import { VECTORS } from './vectors.ts';

// Written apart from src/: what may not appear raw (joiners between letters or emoji excepted).
const UNSAFE = /[\u007f-\u009f\u2028\u2029\p{Cf}\p{Co}\p{Cs}\p{Noncharacter_Code_Point}]/u;
const JOINED = /(?<=[\p{L}\p{M}\p{Extended_Pictographic}])[\u200c\u200d](?=[\p{L}\p{M}\p{Extended_Pictographic}])/gu;

describe('renderedOutputs vectors', () => {
  test('one vector per category of the rule, and the uri schemes', () => {
    const names = VECTORS.renderedOutputs.map((vector) => vector.name);
    for (const name of [
      'ordinary multilingual text unchanged',
      'DEL and C1 controls',
      'line and paragraph separators',
      'tag characters',
      'bidi controls',
      'zero-width and other format characters',
      'private use',
      'noncharacters',
      'lone surrogates',
      'javascript uri dropped',
    ]) {
      expect(names).toContain(name);
    }
  });

  for (const vector of VECTORS.renderedOutputs) {
    test(`"${vector.name}" renders byte for byte`, () => {
      const rendered = renderEnvelope(boundItems(vector.value.providerItems));
      expect(rendered.text).toBe(vector.value.text);
      expect(rendered.structuredContent).toStrictEqual(JSON.parse(vector.value.text));
      expect(validateSearchOutput(rendered.structuredContent)).toBe(true);
      expect(/[<>]/.test(rendered.text)).toBe(false);
      expect(UNSAFE.test(rendered.text.replace(JOINED, ''))).toBe(false);
    });
  }

  test('ordinary text renders as JSON.stringify with only < and > escaped, as before the rule', () => {
    const vector = VECTORS.renderedOutputs.find((entry) => entry.name === 'ordinary multilingual text unchanged');
    const rendered = renderEnvelope(boundItems(vector?.value.providerItems ?? []));
    expect(rendered.text).toBe(JSON.stringify(rendered.structuredContent).replaceAll('<', '\\u003c').replaceAll('>', '\\u003e'));
  });
});
