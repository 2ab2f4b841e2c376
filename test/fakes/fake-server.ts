// Common machinery of the strict loopback fakes (mem0-services.md §5): a node:http server on
// 127.0.0.1, port 0, that records every request byte for byte and plays scripted per-test
// overrides (fixed replies, stalls, endless streams, resets) in front of a service handler.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { playOverride, type FakeOverride } from './overrides.ts';
import { writeReply, type FakeReply } from './reply.ts';
import { LIVENESS_MS } from '../support/liveness.ts';

/** What happened to the response of one recorded request (filled in as it is written). */
export interface ResponseRecord {
  /** Status line sent, or undefined while no headers were sent (stall, reset before headers). */
  status: number | undefined;
  /** `handler` for the service's own answer, else the override kind that answered. */
  answeredBy: 'handler' | FakeOverride['kind'];
  /** Body writes handed to the socket (one per chunk of a chunked or endless body). */
  chunksWritten: number;
  /** Body bytes handed to the socket, in bytes. */
  bytesWritten: number;
  /** True once the response ended normally. */
  completed: boolean;
  /** True when the connection closed before the response ended (client cancel or reset). */
  clientClosed: boolean;
  /** Settles when the response ended or its connection closed, whichever comes first. */
  readonly settled: Promise<void>;
}

/** One request as the fake saw it on the wire. */
export interface RecordedRequest {
  readonly method: string;
  /** Raw request-target up to the first `?`, not normalized (`/search/`, `//x` stay as sent). */
  readonly path: string;
  /** Raw request-target as sent, including any query string. */
  readonly url: string;
  /** Lower-case names; repeated headers joined with `, ` (so a duplicate never looks valid). */
  readonly headers: Readonly<Record<string, string>>;
  /** Names and values in wire order, as node:http reports them. */
  readonly rawHeaders: readonly string[];
  /** Raw body bytes. */
  readonly body: Uint8Array;
  /** Body decoded as UTF-8, lossy (invalid bytes become U+FFFD). */
  readonly text: string;
  /** `JSON.parse` of the strictly decoded body, or undefined when empty, not UTF-8 or not JSON. */
  readonly json: unknown;
  /** `performance.now()` when the whole request had arrived (for liveness bounds). */
  readonly receivedAtMs: number;
  readonly response: ResponseRecord;
}

/** The service behind a fake: one reply per recorded request. */
export type FakeHandler = (request: RecordedRequest) => FakeReply | Promise<FakeReply>;

/** Which requests an override applies to, and how often. */
export interface OverrideOptions {
  /** Number of requests it answers before it is used up (default: until `reset()`). */
  readonly times?: number;
  /** Only requests with this method (default: any). */
  readonly method?: string;
  /** Only requests with exactly this raw path (default: any). */
  readonly path?: string;
}

/** A running fake. Arrays and methods are shared with service fakes built on top of it. */
export interface FakeServer {
  /** `http://127.0.0.1:<port>/` here; service fakes replace it with their main endpoint URL. */
  readonly url: string;
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  readonly origin: string;
  readonly port: number;
  /** Every request in arrival order, overridden ones included. Cleared by `reset()`. */
  readonly requests: RecordedRequest[];
  /** Adds a scripted behaviour; the newest matching override with uses left answers a request. */
  override(behaviour: FakeOverride, options?: OverrideOptions): void;
  /** Forgets requests and overrides, ends stalled responses, restores the service's state. */
  reset(): void;
  /** Resolves once at least `count` requests were recorded; rejects after `timeoutMs` ms. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** Destroys every open connection and stops listening. */
  close(): Promise<void>;
}

/** Options of {@link startFakeServer}. */
export interface FakeServerOptions {
  /** Answers requests no override took (default: 404 with an empty JSON object). */
  readonly handler?: FakeHandler;
  /** Called by `reset()` after requests and overrides are cleared (service state). */
  readonly onReset?: () => void;
}

interface OverrideRule {
  readonly behaviour: FakeOverride;
  readonly options: OverrideOptions;
  remaining: number;
}

/** Default wait of `waitForRequests()`: a generous hang guard, never what decides a test. */
const DEFAULT_WAIT_MS = LIVENESS_MS;

/**
 * A client timeout that starts only once the fake holds the request: a signal aborted with a
 * `TimeoutError` reason (as `AbortSignal.timeout` sets it) `timeoutMs` ms after the fake has
 * recorded `count` requests. Unlike `AbortSignal.timeout`, it can never fire before the request
 * arrives, however loaded the machine, so "exactly one request" stays true.
 *
 * @param fake The fake the request goes to.
 * @param count How many recorded requests start the clock (usually `fake.requests.length + 1`).
 * @param timeoutMs The timeout in ms after that request.
 */
export function timeoutAfterRequests(fake: Pick<FakeServer, 'waitForRequests'>, count: number, timeoutMs: number): AbortSignal {
  const controller = new AbortController();
  fake.waitForRequests(count).then(
    () => setTimeout(() => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), timeoutMs),
    (error: unknown) => controller.abort(error),
  );
  return controller.signal;
}

/**
 * Starts a fake on 127.0.0.1 with a free port.
 *
 * @returns The running fake; call `close()` when done.
 * @see mem0-services.md §5, "Common rules"
 */
export async function startFakeServer(options: FakeServerOptions = {}): Promise<FakeServer> {
  const handler: FakeHandler = options.handler ?? (() => ({ status: 404, json: {} }));
  const requests: RecordedRequest[] = [];
  const rules: OverrideRule[] = [];
  const sockets = new Set<Socket>();
  const openResponses = new Set<ServerResponse>();
  const waiters = new Set<() => void>();

  const takeOverride = (request: RecordedRequest): FakeOverride | undefined => {
    // Newest first: a later override shadows an earlier one until it is used up.
    const rule = rules.findLast((r) => r.remaining > 0 && (r.options.method === undefined || r.options.method === request.method) && (r.options.path === undefined || r.options.path === request.path));
    if (rule === undefined) return undefined;
    rule.remaining -= 1;
    return rule.behaviour;
  };

  const server = createServer((req, res) => {
    void answer(req, res).catch(() => res.destroy());
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
  });

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const record = recordRequest(req, body, res);
    openResponses.add(res);
    res.on('close', () => openResponses.delete(res));
    requests.push(record);
    for (const wake of [...waiters]) wake();
    const behaviour = takeOverride(record);
    if (behaviour !== undefined) {
      record.response.answeredBy = behaviour.kind;
      await playOverride(behaviour, { req, res, record, origin, handler });
      return;
    }
    const reply = await handler(record);
    writeReply(res, record.response, reply);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/`,
    origin,
    port,
    requests,
    override(behaviour, overrideOptions = {}) {
      rules.push({ behaviour, options: overrideOptions, remaining: overrideOptions.times ?? Infinity });
    },
    reset() {
      requests.length = 0;
      rules.length = 0;
      for (const res of openResponses) res.destroy();
      options.onReset?.();
    },
    waitForRequests(count, timeoutMs = DEFAULT_WAIT_MS) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`The fake saw ${requests.length} of ${count} expected requests.`));
        }, timeoutMs);
        const check = (): void => {
          if (requests.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      });
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function readBody(req: IncomingMessage): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    req.on('error', reject);
  });
}

function recordRequest(req: IncomingMessage, body: Uint8Array, res: ServerResponse): RecordedRequest {
  const url = req.url ?? '';
  const query = url.indexOf('?');
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = (req.rawHeaders[i] as string).toLowerCase();
    const value = req.rawHeaders[i + 1] as string;
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  let settle: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  const response: ResponseRecord = {
    status: undefined,
    answeredBy: 'handler',
    chunksWritten: 0,
    bytesWritten: 0,
    completed: false,
    clientClosed: false,
    settled,
  };
  res.on('finish', () => {
    response.completed = true;
    settle();
  });
  res.on('close', () => {
    if (!response.completed) response.clientClosed = true;
    settle();
  });
  return {
    method: req.method ?? '',
    path: query === -1 ? url : url.slice(0, query),
    url,
    headers,
    rawHeaders: [...req.rawHeaders],
    body,
    text: new TextDecoder().decode(body),
    json: parseJson(body),
    receivedAtMs: performance.now(),
    response,
  };
}

function parseJson(body: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    return undefined;
  }
}
