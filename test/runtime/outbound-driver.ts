// The outbound cases' runtime side (issue 26 §3): one operation of the product's outbound code,
// run inside whichever runtime imports this module, its outcome returned as plain JSON. Runtime-
// neutral (no bun:test, no Bun or Deno globals): test/runtime/outbound-driver-main.ts runs it
// under Bun from source and, bundled by test/support/outbound-runner.ts, under Node.js and
// Deno, so one process per runtime runs a whole batch of cases. The assertions stay in the Bun
// test files, which own the loopback servers and what those observed.
import { ConfigError } from '../../src/config/config-error.ts';
import { loadConfig } from '../../src/config/load.ts';
import { createProvider } from '../../src/providers/create-provider.ts';
import { decideRoute, routedFetch } from '../../src/providers/outbound.ts';
import { transportFailureOf } from '../../src/providers/transport-failure.ts';
import type { ProxyDecision } from '../../src/runtime/fetch-types.ts';
import { runtimeFetch } from '../../src/runtime/runtime-fetch.ts';
import { runSearch } from '../../src/search/run-search.ts';
import process from 'node:process';

/**
 * One operation. `env` is the environment the product decides the route from (the proxy
 * variables); the runtime's own process environment is the one the driver was started with,
 * so a runtime that routed by it on its own would show.
 */
export type OutboundCase =
  /** `check --search`'s path: load the configuration, bind the provider, one runSearch under the binding's timeout. */
  | {
      readonly op: 'search';
      readonly config: string;
      readonly query: string;
      readonly env: Readonly<Record<string, string>>;
      /** Pass a caller's cancellation signal as `serve` does (its MCP request's); `check --search` passes none. */
      readonly callerSignal?: boolean;
    }
  /** `context_remember`'s provider call: one write under `timeoutMs` (default 10 s). */
  | { readonly op: 'remember'; readonly config: string; readonly content: string; readonly env: Readonly<Record<string, string>> }
  /** The SDK transports' routed fetch (gateway, conformance): one POST, the route decided per request. */
  | { readonly op: 'routed-fetch'; readonly url: string; readonly body: string; readonly headers: Readonly<Record<string, string>>; readonly env: Readonly<Record<string, string>> }
  /** runtime/runtime-fetch.ts with an explicit decision: one POST of `{}`. */
  | { readonly op: 'runtime-fetch'; readonly url: string; readonly route: ProxyDecision }
  /** The route decision alone (what `check` prints as `proxy: direct|proxied`). */
  | { readonly op: 'decide'; readonly url: string; readonly env: Readonly<Record<string, string>> }
  /** The proxy variables of the driver's own process environment, to show they were put back. */
  | { readonly op: 'proxy-env' };

/** What a case produced, as JSON. */
export type OutboundOutcome =
  | { readonly status: 'ok'; readonly text: string; readonly structured: unknown }
  | { readonly status: 'failed'; readonly line: string; readonly hint: string | undefined }
  | { readonly status: 'config-error'; readonly message: string }
  | { readonly status: 'remembered'; readonly result: unknown }
  | { readonly status: 'answered'; readonly code: number; readonly text: string }
  | { readonly status: 'rejected'; readonly failureClass: string | undefined }
  | { readonly status: 'route'; readonly mode: string }
  | { readonly status: 'env'; readonly values: Readonly<Record<string, string | null>> };

const PROXY_VARIABLES = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'ALL_PROXY', 'all_proxy', 'NO_PROXY', 'no_proxy'] as const;

function configError(error: unknown): OutboundOutcome {
  if (error instanceof ConfigError) return { status: 'config-error', message: error.message };
  throw error;
}

const WRITE_TIMEOUT_MS = 10_000;

async function bind(config: string, env: Readonly<Record<string, string>>) {
  const binding = await loadConfig(config, env);
  return { binding, provider: createProvider(binding, { env }) };
}

/**
 * Runs one case.
 *
 * @returns Its outcome; a configuration error (a refused proxy on Node.js) is an outcome too.
 */
export async function runOutboundCase(entry: OutboundCase): Promise<OutboundOutcome> {
  switch (entry.op) {
    case 'search': {
      let bound: Awaited<ReturnType<typeof bind>>;
      try {
        bound = await bind(entry.config, entry.env);
      } catch (error) {
        return configError(error);
      }
      const timeoutMs = bound.binding.autoRecall?.timeoutMs ?? bound.binding.timeoutMs;
      const caller = entry.callerSignal === true ? new AbortController() : undefined;
      const outcome = await runSearch(bound.provider, { query: entry.query }, { signal: caller?.signal, timeoutMs });
      if (outcome.status === 'ok') return { status: 'ok', text: outcome.rendered.text, structured: outcome.rendered.structuredContent };
      if (outcome.status === 'failed') return { status: 'failed', line: outcome.operatorLine, hint: outcome.failure?.hint };
      return { status: 'config-error', message: outcome.message };
    }
    case 'remember': {
      const { provider } = await bind(entry.config, entry.env);
      if (provider.remember === undefined) return { status: 'config-error', message: 'writes are off' };
      return { status: 'remembered', result: await provider.remember({ content: entry.content, signal: new AbortController().signal, timeoutMs: WRITE_TIMEOUT_MS }) };
    }
    case 'routed-fetch': {
      try {
        // The route is decided per request, inside the call: a refusal is thrown there.
        const response = await routedFetch(entry.env)(entry.url, { method: 'POST', headers: { ...entry.headers }, body: entry.body });
        return { status: 'answered', code: response.status, text: await response.text() };
      } catch (error) {
        if (error instanceof ConfigError) return configError(error);
        return { status: 'rejected', failureClass: transportFailureOf(error) };
      }
    }
    case 'runtime-fetch': {
      try {
        const response = await runtimeFetch(entry.url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }, entry.route);
        return { status: 'answered', code: response.status, text: await response.text() };
      } catch {
        return { status: 'rejected', failureClass: undefined };
      }
    }
    case 'decide':
      try {
        return { status: 'route', mode: decideRoute(entry.url, entry.env).mode };
      } catch (error) {
        return configError(error);
      }
    case 'proxy-env':
      return { status: 'env', values: Object.fromEntries(PROXY_VARIABLES.map((name) => [name, process.env[name] ?? null])) };
  }
}
