// The `--metrics-listen` listener's handler (docs/design/remote.md §1.12): `GET /metrics` only,
// behind a well-formed `Host`; everything else is refused with an empty answer.
import { hostFieldProblem } from './host-field.ts';
import { METRICS_CONTENT_TYPE, type MetricsRegistry } from './metrics.ts';

/** The one path of the metrics listener. */
export const METRICS_PATH = '/metrics';

/**
 * Builds the handler of the metrics listener.
 *
 * @param registry The process's metrics.
 * @returns A handler: 200 with the exposition text for `GET` or `HEAD /metrics`; an empty 400
 *   for a missing, repeated or malformed `Host`, 404 for another path, 405 (`Allow: GET, HEAD`)
 *   for another method.
 * @see docs/design/remote.md §1.12
 */
export function createMetricsHandler(registry: MetricsRegistry): (request: Request) => Promise<Response> {
  return async (request) => {
    if (hostFieldProblem(request.headers.get('host')) !== undefined) return new Response(null, { status: 400 });
    let path: string;
    try {
      path = new URL(request.url).pathname;
    } catch {
      return new Response(null, { status: 404 });
    }
    if (path !== METRICS_PATH) return new Response(null, { status: 404 });
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405, headers: { allow: 'GET, HEAD' } });
    const body = request.method === 'HEAD' ? null : registry.render();
    return new Response(body, { status: 200, headers: { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' } });
  };
}
