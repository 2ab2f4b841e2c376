// The body read of a `/mcp` request under its deadline (docs/design/remote.md §1.5 step 6): a
// slow body cannot hold its concurrency slot.
import { type BoundedBody, readBoundedBody } from '../../util/read-bounded-body.ts';
import { MAX_REQUEST_BODY_BYTES, REQUEST_READ_TIMEOUT_MS } from './remote-limits.ts';

/**
 * Reads a request body within the read deadline (docs/design/remote.md §1.5 step 6), aborting
 * `aborter` when the deadline passes.
 *
 * @param request The request whose body is read, at most 65536 bytes (MAX_REQUEST_BODY_BYTES).
 * @param aborter Aborted when the deadline passes; the caller's shutdown and client signals abort it too.
 * @param shuttingDown Whether the server's shutdown has begun: a read it ends counts as `timeout` as well.
 * @returns The body, `timeout` when the deadline or shutdown ended the read, or `broken` when
 *   the read failed otherwise (the client went away mid-body).
 */
export async function readWithinDeadline(request: Request, aborter: AbortController, shuttingDown: () => boolean): Promise<BoundedBody | 'timeout' | 'broken'> {
  let timedOut = false;
  const deadline = setTimeout(() => {
    timedOut = true;
    aborter.abort();
  }, REQUEST_READ_TIMEOUT_MS);
  try {
    return await readBoundedBody(request, MAX_REQUEST_BODY_BYTES, aborter.signal);
  } catch {
    return timedOut || shuttingDown() ? 'timeout' : 'broken';
  } finally {
    clearTimeout(deadline);
  }
}
