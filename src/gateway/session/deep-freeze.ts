// A deep-frozen structured clone: the arguments an approval covers can never change afterwards.

/**
 * Clones a value with structuredClone and freezes every object and array in the clone.
 *
 * @param value A structured-cloneable value (tool arguments).
 * @returns The frozen clone.
 * @throws {DOMException} When the value cannot be cloned.
 */
export function frozenClone<T>(value: T): T {
  return deepFreeze(structuredClone(value));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
