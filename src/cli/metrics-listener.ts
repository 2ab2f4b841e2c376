// The `--metrics-listen` listener of `serve --http` and `corpus serve` (docs/design/remote.md §1.12):
// its own socket, so metrics never share the public port.
import { listen } from '../runtime/listen.ts';
import type { Listener, ListenOptions } from '../runtime/listen-types.ts';
import { createMetricsHandler } from '../util/metrics-handler.ts';
import type { MetricsRegistry } from '../util/metrics.ts';

/**
 * Binds `GET /metrics` for `registry`.
 *
 * @param registry The process's metrics.
 * @param address Host and port (0 binds a free port).
 * @returns The listener.
 * @throws {Error} From the runtime when the address cannot be bound (see listenFailureCause).
 */
export function startMetricsListener(registry: MetricsRegistry, address: ListenOptions): Promise<Listener> {
  return listen(createMetricsHandler(registry), address);
}
