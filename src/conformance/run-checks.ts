// The Profile v1 checks of docs/design/remote.md §2.2, in order, against one initialized connection. Each
// ends PASS (reason `ok`), FAIL or WARN with a fixed phrase; server values are quoted with
// quoteServerValue(), and nothing the runner was given (headers, environment, command) appears.
import { escapeJsonText } from '../contract/escape.ts';
import { type CheckResult, type CheckStatus, NO_TOOL_TO_CALL, PASS_REASON } from './check-result.ts';
import type { ConformanceSession, RequestOutcome } from './conformance-session.ts';
import { REQUEST_TIMEOUT_MS } from './conformance-session.ts';
import { firstDifference } from './first-difference.ts';
import { inertItemsReason } from './inert-items.ts';
import { validateOutputContract } from './output-validator.ts';
import {
  EXPECTED_INPUT_SCHEMA,
  EXPECTED_OUTPUT_SCHEMA,
  expectedInputMessage,
  INPUT_MESSAGE_SET,
  INPUT_MESSAGES,
  INVALID_INPUT_VECTORS,
  MAX_DESCRIPTION_FIRST_LINE,
  MAX_ITEMS,
  MAX_RENDERED_UTF16_UNITS,
  SEARCH_FAILED_TEXT,
  TOOL_ANNOTATIONS,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  TOOL_TITLE,
  UNKNOWN_TOOL_ERROR,
  VALID_INPUT_VECTORS,
} from './profile-expectations.ts';
import { quoteServerValue } from './quote-server-value.ts';
import { isPlainObject } from '../util/plain-object.ts';

/** The tools/list pages followed at most. */
const MAX_TOOL_PAGES = 100;
/** Tool names listed at most in the `tools-list` warning. */
const MAX_LISTED_NAMES = 20;
/** The arguments of `extra-argument` (docs/design/remote.md §2.2). */
const EXTRA_ARGUMENT = { query: 'deployment policy', limit: 5 } as const;
/** The arguments of `search-result` and of the call to `no_such_tool`. */
const SEARCH_ARGUMENTS = { query: 'deployment policy' } as const;
const NO_RESULT_TO_EXAMINE = 'no successful result to examine';
const DEFINITION_CHECKS = ['tool-identity', 'annotations', 'input-schema', 'output-schema'] as const;
const RESULT_CHECKS = ['output-valid', 'text-equals-structured', 'escaped-text', 'bounds', 'inert-items'] as const;

type Json = Readonly<Record<string, unknown>>;

/**
 * Runs every check after `connect`.
 *
 * @param session The initialized connection.
 * @returns The results from `tools-list` to `inert-items`, in the order of docs/design/remote.md §2.2.
 * @see docs/design/remote.md §2.2
 */
export async function runChecks(session: ConformanceSession): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const add = (name: string, status: CheckStatus, reason: string = PASS_REASON): void => {
    results.push({ name, status, reason });
  };

  const definition = await checkToolsList(session, add);
  if (definition === undefined) {
    for (const name of DEFINITION_CHECKS) add(name, 'FAIL', `no ${TOOL_NAME} definition to examine`);
  } else {
    checkDefinition(definition, add);
  }

  if (definition === undefined) {
    // Every call would answer "unknown tool", which a valid-vector check cannot tell from a
    // pass: the checks that call context_search are skipped, never reported as passed.
    for (const vector of [...VALID_INPUT_VECTORS, ...INVALID_INPUT_VECTORS]) add(`input-vector: ${vector.name}`, 'SKIP', NO_TOOL_TO_CALL);
    add('extra-argument', 'SKIP', NO_TOOL_TO_CALL);
    const unknownOnly = unknownToolReason(await session.request('tools/call', { name: 'no_such_tool', arguments: SEARCH_ARGUMENTS }));
    add('unknown-tool', unknownOnly === undefined ? 'PASS' : 'FAIL', unknownOnly);
    for (const name of ['search-result', ...RESULT_CHECKS]) add(name, 'SKIP', NO_TOOL_TO_CALL);
    return results;
  }
  const call = (args: unknown): Promise<RequestOutcome> => session.request('tools/call', { name: TOOL_NAME, arguments: args });
  for (const vector of VALID_INPUT_VECTORS) {
    const reason = acceptedReason(await call(vector.value));
    add(`input-vector: ${vector.name}`, reason === undefined ? 'PASS' : 'FAIL', reason);
  }
  for (const vector of INVALID_INPUT_VECTORS) {
    const reason = rejectionReason(await call(vector.value), expectedInputMessage(vector.value) ?? INPUT_MESSAGES.notString);
    add(`input-vector: ${vector.name}`, reason === undefined ? 'PASS' : 'FAIL', reason);
  }
  const extra = rejectionReason(await call(EXTRA_ARGUMENT), INPUT_MESSAGES.onlyQuery);
  add('extra-argument', extra === undefined ? 'PASS' : 'FAIL', extra);
  const unknown = unknownToolReason(await session.request('tools/call', { name: 'no_such_tool', arguments: SEARCH_ARGUMENTS }));
  add('unknown-tool', unknown === undefined ? 'PASS' : 'FAIL', unknown);

  const search = classifySearchResult(await call(SEARCH_ARGUMENTS));
  if (search.kind !== 'success') {
    if (search.kind === 'stable-error') add('search-result', 'WARN', `the provider behind the server failed: ${quoteServerValue(SEARCH_FAILED_TEXT)}`);
    else add('search-result', 'FAIL', search.reason);
    for (const name of RESULT_CHECKS) add(name, 'WARN', NO_RESULT_TO_EXAMINE);
    return results;
  }
  add('search-result', 'PASS');
  await checkResult(search.text, search.structured, add);
  return results;
}

type Add = (name: string, status: CheckStatus, reason?: string) => void;

// `tools-list`: every page; exactly one context_search; other tools are a warning.
async function checkToolsList(session: ConformanceSession, add: Add): Promise<Json | undefined> {
  const listing = await listAllTools(session);
  if (listing.kind === 'fail') {
    add('tools-list', 'FAIL', listing.reason);
    return undefined;
  }
  const named = listing.tools.filter((tool) => isPlainObject(tool) && tool['name'] === TOOL_NAME) as Json[];
  const others = listing.tools.filter((tool) => !(isPlainObject(tool) && tool['name'] === TOOL_NAME));
  if (named.length === 0) add('tools-list', 'FAIL', `no tool named ${quoteServerValue(TOOL_NAME)}`);
  else if (named.length > 1) add('tools-list', 'FAIL', `${TOOL_NAME} is listed ${named.length} times`);
  else if (others.length > 0) add('tools-list', 'WARN', `other tools are present: ${listNames(others)}`);
  else add('tools-list', 'PASS');
  return named[0];
}

async function listAllTools(session: ConformanceSession): Promise<{ kind: 'ok'; tools: unknown[] } | { kind: 'fail'; reason: string }> {
  const tools: unknown[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const outcome = await session.request('tools/list', cursor === undefined ? {} : { cursor });
    if (outcome.kind !== 'result') return { kind: 'fail', reason: requestFailureReason('tools/list', outcome) };
    const list = outcome.result['tools'];
    if (!Array.isArray(list)) return { kind: 'fail', reason: 'tools/list answered without a tools array' };
    tools.push(...list);
    const next = outcome.result['nextCursor'];
    if (typeof next !== 'string') return { kind: 'ok', tools };
    if (seen.has(next)) return { kind: 'fail', reason: 'tools/list pagination repeats a cursor' };
    seen.add(next);
    cursor = next;
  }
  return { kind: 'fail', reason: `tools/list pagination did not end within ${MAX_TOOL_PAGES} pages` };
}

function listNames(tools: readonly unknown[]): string {
  const names = tools.slice(0, MAX_LISTED_NAMES).map((tool) => quoteServerValue(isPlainObject(tool) ? tool['name'] : tool));
  const more = tools.length > MAX_LISTED_NAMES ? ` and ${tools.length - MAX_LISTED_NAMES} more` : '';
  return `${names.join(', ')}${more}`;
}

// `tool-identity`, `annotations`, `input-schema`, `output-schema`.
function checkDefinition(definition: Json, add: Add): void {
  const title = definition['title'];
  const description = definition['description'];
  const firstLine = typeof description === 'string' ? (description.split(/\r\n|\r|\n/)[0] ?? '') : '';
  // Counted here, not with util/code-points.ts: the runner is an oracle for servers, ours included.
  const firstLineLength = [...firstLine].length;
  if (title !== TOOL_TITLE) add('tool-identity', 'FAIL', `title is ${quoteServerValue(title)}, expected ${quoteServerValue(TOOL_TITLE)}`);
  else if (description !== TOOL_DESCRIPTION) add('tool-identity', 'FAIL', `description is ${quoteServerValue(description)}, not the text of profile-v1.md §1`);
  else if (firstLineLength > MAX_DESCRIPTION_FIRST_LINE) {
    add('tool-identity', 'FAIL', `the description's first line has ${firstLineLength} characters, more than ${MAX_DESCRIPTION_FIRST_LINE}`);
  } else add('tool-identity', 'PASS');

  const annotations = definition['annotations'];
  if (firstDifference(annotations, TOOL_ANNOTATIONS) === undefined) add('annotations', 'PASS');
  else add('annotations', 'FAIL', `annotations are ${quoteServerValue(annotations)}, expected ${JSON.stringify(TOOL_ANNOTATIONS)}`);

  for (const [name, key, expected, file] of [
    ['input-schema', 'inputSchema', EXPECTED_INPUT_SCHEMA, 'context-search-input.schema.json'],
    ['output-schema', 'outputSchema', EXPECTED_OUTPUT_SCHEMA, 'context-search-output.schema.json'],
  ] as const) {
    const difference = firstDifference(definition[key], expected);
    if (difference === undefined) add(name, 'PASS');
    else if (definition[key] === undefined) add(name, 'FAIL', `${key} is missing`);
    else add(name, 'FAIL', `${key} differs from contracts/v1/${file} at ${quoteServerValue(difference)}`);
  }
}

// A valid vector must not be refused with a §3.1 message; a success or the stable error passes.
function acceptedReason(outcome: RequestOutcome): string | undefined {
  if (outcome.kind !== 'result') return requestFailureReason('the call', outcome);
  const texts = textBlocks(outcome.result);
  const refusal = texts.find((text) => INPUT_MESSAGE_SET.has(text));
  return refusal === undefined ? undefined : `a valid input was rejected with ${quoteServerValue(refusal)}`;
}

// An invalid vector (and extra-argument): isError, exactly one text block with the message,
// no structuredContent.
function rejectionReason(outcome: RequestOutcome, expected: string): string | undefined {
  if (outcome.kind !== 'result') return requestFailureReason('the call', outcome);
  const result = outcome.result;
  if (result['isError'] !== true) return `the input was not rejected with isError: true, expected ${quoteServerValue(expected)}`;
  const content = result['content'];
  const blocks = Array.isArray(content) ? content : [];
  const block = blocks[0];
  if (blocks.length !== 1 || !isPlainObject(block) || block['type'] !== 'text' || typeof block['text'] !== 'string') {
    return `the error result has ${blocks.length} content blocks, expected exactly one text block`;
  }
  if (block['text'] !== expected) return `the error text is ${quoteServerValue(block['text'])}, expected ${quoteServerValue(expected)}`;
  if (Object.hasOwn(result, 'structuredContent')) return 'the error result carries structuredContent';
  return undefined;
}

function unknownToolReason(outcome: RequestOutcome): string | undefined {
  if (outcome.kind === 'result') return 'a call to an unknown tool got a tool result instead of a JSON-RPC error';
  if (outcome.kind !== 'error') return requestFailureReason('the call', outcome);
  if (outcome.code === UNKNOWN_TOOL_ERROR.code && outcome.message === UNKNOWN_TOOL_ERROR.message) return undefined;
  return `JSON-RPC error ${outcome.code} ${quoteServerValue(outcome.message)}, expected ${UNKNOWN_TOOL_ERROR.code} ${quoteServerValue(UNKNOWN_TOOL_ERROR.message)}`;
}

type SearchClass = { readonly kind: 'success'; readonly text: string; readonly structured: Json } | { readonly kind: 'stable-error' } | { readonly kind: 'fail'; readonly reason: string };

function classifySearchResult(outcome: RequestOutcome): SearchClass {
  if (outcome.kind !== 'result') return { kind: 'fail', reason: requestFailureReason('the call', outcome) };
  const result = outcome.result;
  const content = result['content'];
  const blocks = Array.isArray(content) ? content : [];
  const block = blocks[0];
  const text = blocks.length === 1 && isPlainObject(block) && block['type'] === 'text' && typeof block['text'] === 'string' ? block['text'] : undefined;
  const structured = result['structuredContent'];
  const hasStructured = Object.hasOwn(result, 'structuredContent');
  if (text === undefined) return { kind: 'fail', reason: `the result has ${blocks.length} content blocks, expected exactly one text block` };
  if (result['isError'] === true) {
    if (text === SEARCH_FAILED_TEXT && !hasStructured) return { kind: 'stable-error' };
    if (text !== SEARCH_FAILED_TEXT) return { kind: 'fail', reason: `the error text is ${quoteServerValue(text)}, expected ${quoteServerValue(SEARCH_FAILED_TEXT)}` };
    return { kind: 'fail', reason: 'the error result carries structuredContent' };
  }
  if (Object.hasOwn(result, 'isError')) return { kind: 'fail', reason: `the success result carries isError: ${quoteServerValue(result['isError'])}` };
  if (!isPlainObject(structured)) return { kind: 'fail', reason: 'the success result has no structuredContent object' };
  return { kind: 'success', text, structured };
}

// `output-valid`, `text-equals-structured`, `escaped-text`, `bounds`, `inert-items` on a successful result.
async function checkResult(text: string, structured: Json, add: Add): Promise<void> {
  const violation = await validateOutputContract(structured);
  if (violation === undefined) add('output-valid', 'PASS');
  else {
    const where = violation.instancePath === '' ? 'the root' : quoteServerValue(violation.instancePath);
    add('output-valid', 'FAIL', `structuredContent breaks the output contract at ${where} (${violation.keyword})`);
  }

  let parsed: unknown;
  let parses = true;
  try {
    parsed = JSON.parse(text);
  } catch {
    parses = false;
  }
  const difference = parses ? firstDifference(parsed, structured) : undefined;
  if (!parses) add('text-equals-structured', 'FAIL', 'the text is not valid JSON');
  else if (difference !== undefined) add('text-equals-structured', 'FAIL', `JSON.parse(text) differs from structuredContent at ${quoteServerValue(difference)}`);
  else add('text-equals-structured', 'PASS');

  if (/[<>]/.test(text)) add('escaped-text', 'FAIL', 'the text contains a raw "<" or ">"');
  else if (text !== escapeJsonText(JSON.stringify(structured))) {
    add('escaped-text', 'FAIL', 'the text differs from the escaped compact serialization of structuredContent');
  } else add('escaped-text', 'PASS');

  const envelope = structured['untrusted_external_context'];
  const items = isPlainObject(envelope) ? envelope['items'] : undefined;
  if (text.length > MAX_RENDERED_UTF16_UNITS) add('bounds', 'FAIL', `the text has ${text.length} UTF-16 units, more than ${MAX_RENDERED_UTF16_UNITS}`);
  else if (!Array.isArray(items)) add('bounds', 'FAIL', 'structuredContent has no untrusted_external_context.items array');
  else if (items.length > MAX_ITEMS) add('bounds', 'FAIL', `the envelope has ${items.length} items, more than ${MAX_ITEMS}`);
  else add('bounds', 'PASS');

  const inert = inertItemsReason(text, structured);
  add('inert-items', inert === undefined ? 'PASS' : 'FAIL', inert);
}

function requestFailureReason(what: string, outcome: Exclude<RequestOutcome, { kind: 'result' }>): string {
  switch (outcome.kind) {
    case 'error':
      return `${what} failed with JSON-RPC error ${outcome.code} ${quoteServerValue(outcome.message)}`;
    case 'timeout':
      return `${what} got no answer within ${REQUEST_TIMEOUT_MS} ms`;
    case 'failed':
      return outcome.cause === undefined ? `${what} failed because the connection broke` : `${what} failed because the connection broke (${outcome.cause})`;
    case 'over-budget':
      return `${what} got no answer before the overall --timeout ran out`;
  }
}

function textBlocks(result: Json): string[] {
  const content = result['content'];
  if (!Array.isArray(content)) return [];
  return content.filter((block): block is Json => isPlainObject(block) && typeof block['text'] === 'string').map((block) => block['text'] as string);
}
