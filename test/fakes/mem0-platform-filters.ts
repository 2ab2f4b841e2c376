// Mem0 Platform v3 search filters for the fake: the positive-scope rule and record matching
// (mem0-services.md §1.2: AND/OR/NOT, in, gte, lte, gt, lt, ne, contains, icontains, "*").
import { isPlainObject } from './strict-json.ts';

/** The entity ids of the Platform, in documentation order. */
export const PLATFORM_ENTITY_KEYS = ['user_id', 'agent_id', 'app_id', 'run_id'] as const;

const ENTITY_KEYS: ReadonlySet<string> = new Set(PLATFORM_ENTITY_KEYS);

/**
 * Whether filters name at least one positively scoped entity id: a concrete value (not the
 * `"*"` wildcard) for an entity key, directly or through `in`, at the top or inside `AND`/`OR`.
 * `NOT` never counts.
 */
export function hasPositiveScope(filters: Record<string, unknown>): boolean {
  for (const [key, value] of Object.entries(filters)) {
    if ((key === 'AND' || key === 'OR') && Array.isArray(value)) {
      if (value.some((entry) => isPlainObject(entry) && hasPositiveScope(entry))) return true;
    } else if (ENTITY_KEYS.has(key) && isConcreteValue(value)) {
      return true;
    }
  }
  return false;
}

function isConcreteValue(value: unknown): boolean {
  if (typeof value === 'string') return value !== '' && value !== '*';
  if (isPlainObject(value) && Array.isArray(value['in'])) {
    return value['in'].some((entry) => typeof entry === 'string' && entry !== '' && entry !== '*');
  }
  return false;
}

/** Whether a stored record satisfies the filters (unknown operators never match). */
export function matchesFilters(record: Readonly<Record<string, unknown>>, filters: Record<string, unknown>): boolean {
  return Object.entries(filters).every(([key, condition]) => {
    if (key === 'AND') return Array.isArray(condition) && condition.every((f) => isPlainObject(f) && matchesFilters(record, f));
    if (key === 'OR') return Array.isArray(condition) && condition.some((f) => isPlainObject(f) && matchesFilters(record, f));
    if (key === 'NOT') {
      const list = Array.isArray(condition) ? condition : [condition];
      return list.every((f) => isPlainObject(f) && !matchesFilters(record, f));
    }
    return matchesCondition(fieldOf(record, key), condition);
  });
}

function fieldOf(record: Readonly<Record<string, unknown>>, key: string): unknown {
  if (key in record) return record[key];
  const metadata = record['metadata'];
  return isPlainObject(metadata) ? metadata[key] : undefined;
}

function matchesCondition(actual: unknown, condition: unknown): boolean {
  if (condition === '*') return actual !== undefined && actual !== null;
  if (!isPlainObject(condition)) return actual === condition;
  return Object.entries(condition).every(([operator, operand]) => {
    switch (operator) {
      case 'in':
        return Array.isArray(operand) && operand.includes(actual);
      case 'ne':
        return actual !== operand;
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte':
        return compare(actual, operand, operator);
      case 'contains':
        return typeof actual === 'string' && typeof operand === 'string' && actual.includes(operand);
      case 'icontains':
        return typeof actual === 'string' && typeof operand === 'string' && actual.toLowerCase().includes(operand.toLowerCase());
      default:
        return false;
    }
  });
}

function compare(actual: unknown, operand: unknown, operator: 'gt' | 'gte' | 'lt' | 'lte'): boolean {
  if (typeof actual !== typeof operand || (typeof actual !== 'number' && typeof actual !== 'string')) return false;
  const a = actual as number | string;
  const b = operand as number | string;
  if (operator === 'gt') return a > b;
  if (operator === 'gte') return a >= b;
  if (operator === 'lt') return a < b;
  return a <= b;
}
