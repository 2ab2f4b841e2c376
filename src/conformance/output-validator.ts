// Validating structuredContent against the output contract file with Ajv 8 in draft-07 mode
// (docs/design/remote.md §2.2 `output-valid`). Ajv is imported only when a result is examined.
import { OUTPUT_CONTRACT } from './profile-expectations.ts';

/** Where the first contract violation is. */
export interface ContractViolation {
  /** JSON Pointer into structuredContent (`""` for the root). */
  readonly instancePath: string;
  /** The failing JSON Schema keyword (`maxItems`, `additionalProperties`, …). */
  readonly keyword: string;
}

type Validate = ((value: unknown) => boolean) & { errors?: readonly { instancePath: string; keyword: string }[] | null };

let compiled: Promise<Validate> | undefined;

/**
 * Validates a value against `contracts/v1/context-search-output.schema.json`.
 *
 * Ajv's defaults match the profile: `minLength`/`maxLength` count code points and `pattern`
 * compiles with the `u` flag (docs/design/profile-v1.md §8).
 *
 * @param value structuredContent as received.
 * @returns Undefined when it validates, else the first violation.
 * @see docs/design/remote.md §2.2, docs/design/profile-v1.md §5.4
 */
export async function validateOutputContract(value: unknown): Promise<ContractViolation | undefined> {
  compiled ??= import('ajv').then((module) => {
    // The CommonJS package: the class is both the module object and its `Ajv` export.
    const AjvClass = (module as unknown as { Ajv?: typeof module.default }).Ajv ?? module.default;
    return new AjvClass().compile(OUTPUT_CONTRACT) as unknown as Validate;
  });
  const validate = await compiled;
  if (validate(value)) return undefined;
  const first = validate.errors?.[0];
  return { instancePath: first?.instancePath ?? '', keyword: first?.keyword ?? 'schema' };
}
