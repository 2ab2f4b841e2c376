// No test catches its own failure (issue 25 §5): a `throw new Error('expected …')` inside a `try`
// whose `catch` then asserts on the error is caught by that same `catch`, so the test passes
// whether or not the call under test threw. thrownBy()/rejectionOf() (./thrown-error.ts) throw
// after the `catch`, where nothing catches it.
import { expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './paths.ts';

const TEST_ROOT = path.join(REPO_ROOT, 'test');
const NOT_TESTS = new Set(['fixtures', 'node_modules']);
/** A `try` block that throws an "expected …" error itself, closed by a `catch` at the same indent. */
const SELF_CAUGHT = /^([ \t]*)try \{\n(?:(?!\1\}).*\n)*?[ \t]*throw new Error\(['"`]expected[^\n]*\n\1\} catch/gmu;

function testFiles(dir: string = TEST_ROOT): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return NOT_TESTS.has(name) ? [] : testFiles(full);
    return /\.ts$/.test(name) ? [full] : [];
  });
}

/** Each self-caught "expected" throw in `text`, as `<line>`. */
function selfCaughtThrows(text: string): number[] {
  return [...text.matchAll(SELF_CAUGHT)].map((match) => text.slice(0, match.index).split('\n').length);
}

test('selfCaughtThrows() finds the shape and leaves a throw after the catch alone', () => {
  const caught = "test('x', () => {\n  try {\n    run();\n    throw new Error('expected an error');\n  } catch (error) {\n    expect(error).toBeDefined();\n  }\n});\n";
  expect(selfCaughtThrows(caught)).toEqual([2]);
  const outside = "function f() {\n  try {\n    run();\n  } catch (error) {\n    return error;\n  }\n  throw new Error('expected an error');\n}\n";
  expect(selfCaughtThrows(outside)).toEqual([]);
});

test('no test file catches its own "expected …" failure', () => {
  const found = testFiles().flatMap((file) => selfCaughtThrows(readFileSync(file, 'utf8')).map((line) => `${path.relative(REPO_ROOT, file)}:${line}`));
  expect(found).toEqual([]);
});
