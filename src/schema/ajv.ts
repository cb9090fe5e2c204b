// The one Ajv configuration of the product: JSON Schema 2020-12 (the dialect the importer writes),
// all errors, formats (ajv-formats plus OpenAPI's), and a linear-time regex engine (RE2JS) for `pattern`
// so that a hostile or careless pattern like `^(a+)+$` cannot stall validation (ReDoS).
// Used by the importer (every schema must compile, every example must validate) and by execution.
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { RE2JS } from 're2js';

// ajv-formats is CommonJS whose typings do not survive NodeNext's default-import rules: its default import is
// module.exports, which carries the plugin as `.default`. A static import (not createRequire) lets the bundled
// build (scripts/postbuild.mjs) include it beside the same Ajv copy it extends.
type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
const formatsExports = formatsModule as unknown as FormatsPlugin & { default?: FormatsPlugin };
const addFormats: FormatsPlugin = formatsExports.default ?? formatsExports;

/** What Ajv calls on a compiled pattern. */
interface RegExpLike {
  test(input: string): boolean;
  /** Ajv caches compiled patterns by `toString()`: it must be unique per pattern and flags. */
  toString(): string;
}

/**
 * RE2 semantics (linear time). Patterns RE2 cannot express (look-around, back-references) fall back to a
 * native RegExp applied only to inputs of at most FALLBACK_MAX_INPUT characters; longer inputs fail the
 * pattern rather than risk catastrophic backtracking.
 */
export const FALLBACK_MAX_INPUT = 256;

function linearRegExp(pattern: string, flags: string): RegExpLike {
  try {
    const re = RE2JS.compile(pattern, flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0);
    return { test: (input: string) => re.matcher(input).find(), toString: () => `re2:/${pattern}/${flags}` };
  } catch {
    const native = new RegExp(pattern, flags);
    return {
      test: (input: string) => input.length <= FALLBACK_MAX_INPUT && native.test(input),
      toString: () => `native:/${pattern}/${flags}`,
    };
  }
}
linearRegExp.code = 'linearRegExp';

/** OpenAPI formats that ajv-formats does not know; validated loosely (numbers range-checked). */
function addOpenApiFormats(ajv: Ajv2020): void {
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -2147483648 && n <= 2147483647 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat('float', { type: 'number', validate: () => true });
  ajv.addFormat('double', { type: 'number', validate: () => true });
  ajv.addFormat('byte', /^[A-Za-z0-9+/]*={0,2}$/);
  for (const f of ['binary', 'password', 'decimal', 'unix-time', 'html', 'text', 'repo.nwo', 'uri-template']) {
    ajv.addFormat(f, true);
  }
}

export interface CreateAjvOptions {
  /** Collect every error, not just the first (default true). */
  allErrors?: boolean;
  /**
   * For an instance that only checks that schemas compile and validates a few examples (the importer): no
   * optimizer passes and no inlining of referenced definitions, which makes compiling a large schema about 3x
   * faster. Code generation only — which schemas compile and what they accept do not change. Default false.
   */
  checkOnly?: boolean;
}

/**
 * A new Ajv2020 instance configured for api-catalog. Not strict (specs carry OpenAPI keywords such as
 * `example`, `xml`, `discriminator`), no type coercion, no defaults inserted, nothing removed: what is
 * validated is exactly what is sent. Unknown formats are accepted silently (logger off: stdout is protocol).
 */
export function createAjv(options: CreateAjvOptions = {}): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: options.allErrors ?? true,
    validateFormats: true,
    coerceTypes: false,
    useDefaults: false,
    removeAdditional: false,
    addUsedSchema: false,
    logger: false,
    code: { regExp: linearRegExp, ...(options.checkOnly === true ? { optimize: false } : {}) },
    ...(options.checkOnly === true ? { inlineRefs: false } : {}),
  });
  addFormats(ajv);
  addOpenApiFormats(ajv);
  return ajv;
}
