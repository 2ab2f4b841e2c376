// Finds a key that appears twice in one JSON object (docs/design/config.md §3 step 4; the
// request bodies of `corpus serve`, docs/design/providers.md §8.2 row 5).
// JSON.parse keeps the last of two equal keys, so a second `"provider"` block later in a file
// silently replaced the first; every administrator file is checked with this before its schema.

/** One step of a field path: an object key or an array index. */
export type PathSegment = string | number;

/**
 * Scans valid JSON text for an object with two equal keys (compared after unescaping).
 *
 * @param text Text that `JSON.parse` has accepted.
 * @returns The path of the first repeated key, ending with that key (for example
 *   `["provider", "type"]`), or undefined when every object's keys are distinct.
 */
export function findDuplicateKey(text: string): PathSegment[] | undefined {
  type Frame = { readonly keys: Set<string> | undefined; index: number; key: PathSegment | undefined };
  const stack: Frame[] = [];
  let i = 0;
  let expectKey = false;
  while (i < text.length) {
    const char = text[i];
    if (char === '"') {
      const end = stringEnd(text, i);
      const top = stack.at(-1);
      if (expectKey && top?.keys !== undefined) {
        const key = JSON.parse(text.slice(i, end)) as string;
        if (top.keys.has(key)) return [...parentPath(stack), key];
        top.keys.add(key);
        top.key = key;
        expectKey = false;
      }
      i = end;
      continue;
    }
    if (char === '{') {
      stack.push({ keys: new Set(), index: 0, key: undefined });
      expectKey = true;
    } else if (char === '[') {
      stack.push({ keys: undefined, index: 0, key: 0 });
    } else if (char === '}' || char === ']') {
      stack.pop();
    } else if (char === ',') {
      const top = stack.at(-1);
      if (top?.keys !== undefined) expectKey = true;
      else if (top !== undefined) top.key = ++top.index;
    }
    i++;
  }
  return undefined;
}

/** The keys and indexes leading to the innermost open container (its own key not included). */
function parentPath(stack: ReadonlyArray<{ readonly key: PathSegment | undefined }>): PathSegment[] {
  return stack.slice(0, -1).flatMap((frame) => (frame.key === undefined ? [] : [frame.key]));
}

/** Index just past the closing quote of the string that starts at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const char = text[i];
    if (char === '\\') i += 2;
    else if (char === '"') return i + 1;
    else i++;
  }
  return i;
}

/**
 * Writes a field path as schema messages do (docs/design/config.md §5): segments joined with
 * `.`, array indexes as numbers, each key through `showKey` (which hides keys unsafe to print).
 *
 * @param path The segments from findDuplicateKey.
 * @param showKey How one key is shown.
 * @returns For example `servers.docs.tools` or `env.2.name`.
 */
export function formatFieldPath(path: readonly PathSegment[], showKey: (key: string) => string): string {
  return path.map((segment) => (typeof segment === 'number' ? String(segment) : showKey(segment))).join('.');
}
