// Where a JSON text first breaks the grammar (RFC 8259), as a line and column, so the
// administrator can find a syntax error in their own file (docs/design/config.md §3). The runtimes'
// JSON.parse messages differ (V8 gives a position, JavaScriptCore does not), so the position is
// found here by one linear scan; JSON.parse still decides validity.

/** A 1-based line and column; the column counts code points from the line start. */
export interface JsonPosition {
  readonly line: number;
  readonly column: number;
}

/**
 * The position of the first character that makes `text` invalid JSON, or of the end of the
 * text when it stops too early.
 *
 * @param text The decoded file (byte-order mark already removed).
 * @returns The position; for a valid text, the end of the text.
 */
export function jsonErrorPosition(text: string): JsonPosition {
  return positionOf(text, firstErrorOffset(text));
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

// Over 60 lines: one linear scan with an explicit stack, whose helpers share the cursor `at`;
// split into functions, every step would thread the cursor and the stack through each call.
function firstErrorOffset(text: string): number {
  let at = 0;
  const skip = (): void => {
    while (at < text.length && WHITESPACE.has(text[at]!)) at++;
  };
  // Iterative, with an explicit stack, so deep nesting cannot overflow the call stack.
  const stack: ('object' | 'array')[] = [];
  const literal = (word: string): boolean => {
    for (let index = 0; index < word.length; index++, at++) if (text[at] !== word[index]) return false;
    return true;
  };
  const string = (): boolean => {
    at++; // opening quote
    while (at < text.length) {
      const char = text.charCodeAt(at);
      if (char === 0x22) {
        at++;
        return true;
      }
      if (char < 0x20) return false;
      if (char === 0x5c) {
        at++;
        const escape = text[at];
        if (escape === 'u') {
          for (let digit = 1; digit <= 4; digit++) if (!/[0-9A-Fa-f]/u.test(text[at + digit] ?? '')) return ((at += digit), false);
          at += 5;
        } else if (escape !== undefined && '"\\/bfnrt'.includes(escape)) at++;
        else return false;
      } else at++;
    }
    return false;
  };
  const number = (): boolean => {
    const match = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/u.exec(text.slice(at, at + 512));
    if (match === null) return false;
    at += match[0].length;
    return true;
  };
  const value = (): boolean => {
    const char = text[at];
    if (char === '"') return string();
    if (char === 't') return literal('true');
    if (char === 'f') return literal('false');
    if (char === 'n') return literal('null');
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) return number();
    return false;
  };

  skip();
  for (;;) {
    // Expecting a value (or, right after an opening bracket, its close).
    const char = text[at];
    if (char === '{') {
      at++;
      skip();
      if (text[at] === '}') at++;
      else {
        if (text[at] !== '"' || !string()) return at;
        skip();
        if (text[at] !== ':') return at;
        at++;
        skip();
        stack.push('object');
        continue;
      }
    } else if (char === '[') {
      at++;
      skip();
      if (text[at] === ']') at++;
      else {
        stack.push('array');
        continue;
      }
    } else if (!value()) return Math.min(at, text.length);
    // After a value: a separator, a close, or the end.
    for (;;) {
      skip();
      const top = stack.at(-1);
      if (top === undefined) return at; // trailing content, or the end of a valid text
      const next = text[at];
      if (next === ',') {
        at++;
        skip();
        if (top === 'object') {
          if (text[at] !== '"' || !string()) return at;
          skip();
          if (text[at] !== ':') return at;
          at++;
          skip();
        }
        break;
      }
      if ((top === 'object' && next === '}') || (top === 'array' && next === ']')) {
        stack.pop();
        at++;
        continue;
      }
      return at;
    }
  }
}

function positionOf(text: string, offset: number): JsonPosition {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset && index < text.length; index++) {
    if (text[index] === '\n') {
      line++;
      lineStart = index + 1;
    }
  }
  return { line, column: Array.from(text.slice(lineStart, offset)).length + 1 };
}
