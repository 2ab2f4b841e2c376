// Test helper: the hand-written contract files compiled by a real JSON Schema validator, Ajv 8
// in draft-07 mode with its defaults (`unicode: true` counts code points in minLength and
// maxLength; `unicodeRegExp: true` compiles `pattern` with the `u` flag), profile-v1.md §8.
import Ajv, { type ValidateFunction } from 'ajv';
import searchInput from '../../contracts/v1/context-search-input.schema.json' with { type: 'json' };
import searchOutput from '../../contracts/v1/context-search-output.schema.json' with { type: 'json' };
import rememberInput from '../../contracts/write/context-remember-input.schema.json' with { type: 'json' };

const ajv = new Ajv();

/** The draft-07 validator of `contracts/v1/context-search-input.schema.json`. */
export const validateSearchInput: ValidateFunction = ajv.compile(searchInput);
/** The draft-07 validator of `contracts/v1/context-search-output.schema.json`. */
export const validateSearchOutput: ValidateFunction = ajv.compile(searchOutput);
/** The draft-07 validator of `contracts/write/context-remember-input.schema.json`. */
export const validateRememberInput: ValidateFunction = ajv.compile(rememberInput);
