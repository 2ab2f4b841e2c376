// The `--metrics-listen` listener of `serve --http` and `corpus serve` (docs/design/remote.md §1.12):
// its own socket, so metrics never share the public port, behind the Host allow-list of `/mcp`.
import { listen } from '../runtime/listen.ts';
import type { Listener, ListenOptions } from '../runtime/listen-types.ts';
import { isAllowedHost, listenerAllowedHosts } from '../util/allowed-hosts.ts';
import { hostFieldProblem } from '../util/host-field.ts';
import { createMetricsHandler } from '../util/metrics-handler.ts';
import type { MetricsRegistry } from '../util/metrics.ts';

/**
 * Binds `GET /metrics` for `registry`.
 *
 * @param registry The process's metrics.
 * @param address Host and port (0 binds a free port).
 * @param extraHosts `--allowed-host` values (see listenerAllowedHosts).
 * @returns The listener. A well-formed `Host` that is not the listen host with the bound port
 *   (or, on loopback, `localhost`, `127.0.0.1` or `[::1]` with it) nor an `--allowed-host`
 *   value gets an empty 403: a page
 *   a DNS-rebinding attack loads cannot read the metrics.
 * @throws {Error} From the runtime when the address cannot be bound (see listenFailureCause).
 */
export async function startMetricsListener(registry: MetricsRegistry, address: ListenOptions, extraHosts: readonly string[] = []): Promise<Listener> {
  const metrics = createMetricsHandler(registry);
  // Empty until the port is bound: nothing is allowed before.
  let allowed: ReadonlySet<string> = new Set();
  const listener = await listen((request) => {
    const host = request.headers.get('host');
    if (hostFieldProblem(host) === undefined && !isAllowedHost(allowed, host)) return Promise.resolve(new Response(null, { status: 403 }));
    return metrics(request);
  }, address);
  allowed = listenerAllowedHosts(address.hostname, listener.port, extraHosts);
  return listener;
}
