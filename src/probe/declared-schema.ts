// Step 1 of the probe: `GET <origin><basePath>/openapi.json` without the credential, and the
// search model it declares (docs/design/probe.md §2 step 1).
import { sendJsonRequest } from '../providers/http-client.ts';
import { ProviderError } from '../providers/provider-error.ts';
import type { DeclaredSchemaResult } from './probe-report.ts';
import type { ProbeTarget } from './probe-target.ts';
import { stripUnsafe } from './sanitize-detail.ts';
import { isPlainObject } from '../util/plain-object.ts';

/** Schema names looked up under `components.schemas`, in order. */
export const SEARCH_SCHEMA_NAMES = ['SearchRequest', 'SearchMemoryRequest'] as const;

function objectAt(value: unknown, key: string): Record<string, unknown> | undefined {
  if (!isPlainObject(value) || !Object.hasOwn(value, key)) return undefined;
  const nested = value[key];
  return isPlainObject(nested) ? nested : undefined;
}

/** Applies `stripUnsafe` to every string and key of a JSON value. */
function cleanJson(value: unknown, credential: string): unknown {
  if (typeof value === 'string') return stripUnsafe(value, credential);
  if (Array.isArray(value)) return value.map((entry) => cleanJson(entry, credential));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [stripUnsafe(key, credential), cleanJson(entry, credential)]));
  }
  return value;
}

/**
 * Picks the declared search model from a parsed OpenAPI document. Pure.
 *
 * The first of `SearchRequest`, `SearchMemoryRequest` that is an object with an object
 * `properties` wins. Field names and the `additionalProperties` value lose every control and
 * format character and every occurrence of the credential, since they reach a terminal.
 *
 * @param document The parsed JSON of a 2xx answer.
 * @param credential The resolved credential, redacted wherever it occurs.
 * @returns The schema, or `{served: false, status: undefined}` when there is none.
 * @see docs/design/probe.md §2 step 1
 */
export function pickSearchSchema(document: unknown, credential: string): DeclaredSchemaResult {
  const schemas = objectAt(objectAt(document, 'components'), 'schemas');
  for (const name of SEARCH_SCHEMA_NAMES) {
    const schema = objectAt(schemas, name);
    const properties = objectAt(schema, 'properties');
    if (schema === undefined || properties === undefined) continue;
    return {
      served: true,
      name,
      fields: Object.keys(properties).map((field) => stripUnsafe(field, credential)),
      additionalProperties: Object.hasOwn(schema, 'additionalProperties') ? cleanJson(schema['additionalProperties'], credential) : undefined,
    };
  }
  return { served: false, status: undefined };
}

/**
 * Reads the declared schema. One GET with `accept: application/json` and no credential header,
 * through the shared HTTP client (manual redirects, 1 MiB, fatal UTF-8).
 *
 * @param target The validated target (OpenAPI URL and route).
 * @param signal The probe's shared 30000 ms signal.
 * @returns The schema, or "not served" with the status of a non-2xx or redirect answer.
 * @see docs/design/probe.md §2 step 1
 */
export async function readDeclaredSchema(target: ProbeTarget, signal: AbortSignal): Promise<DeclaredSchemaResult> {
  try {
    const response = await sendJsonRequest({ method: 'GET', url: target.openApiUrl, signal, proxy: target.proxy });
    return pickSearchSchema(response.value, target.credential);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    const withStatus = error.kind === 'http-status' || error.kind === 'redirect';
    return { served: false, status: withStatus ? error.status : undefined };
  }
}
