// Where two JSON values first differ, for the reasons of the deep-equality checks
// (docs/design/remote.md §2.2 `input-schema`, `output-schema`, `text-equals-structured`).
import { isPlainObject } from '../util/plain-object.ts';

/**
 * Finds the first place where two JSON values differ (objects compared key by key, sorted;
 * arrays index by index).
 *
 * @returns A JSON Pointer (`""` for the root), or undefined when the values are deep-equal.
 */
export function firstDifference(actual: unknown, expected: unknown, pointer = ''): string | undefined {
  if (Object.is(actual, expected)) return undefined;
  if (Array.isArray(actual) && Array.isArray(expected)) {
    for (let index = 0; index < Math.max(actual.length, expected.length); index++) {
      if (index >= actual.length || index >= expected.length) return `${pointer}/${index}`;
      const inner = firstDifference(actual[index], expected[index], `${pointer}/${index}`);
      if (inner !== undefined) return inner;
    }
    return undefined;
  }
  if (isPlainObject(actual) && isPlainObject(expected)) {
    const keys = [...new Set([...Object.keys(actual), ...Object.keys(expected)])].sort();
    for (const key of keys) {
      const child = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (!Object.hasOwn(actual, key) || !Object.hasOwn(expected, key)) return child;
      const inner = firstDifference(actual[key], expected[key], child);
      if (inner !== undefined) return inner;
    }
    return undefined;
  }
  return pointer;
}
