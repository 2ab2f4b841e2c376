// Where two JSON values first differ, for the reasons of the deep-equality checks
// (docs/design/remote.md §2.2 `input-schema`, `output-schema`, `text-equals-structured`).

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
  if (isRecord(actual) && isRecord(expected)) {
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
