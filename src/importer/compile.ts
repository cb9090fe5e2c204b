// Compiling every operation's argument schema in Ajv at import (the validator execution will use), downgrading a
// schema that does not compile (patterns dropped, then untyped arguments) with a warning, and building each
// operation's examples against the compiled validator. Build time only; memory stays bounded on large specs.
import { createHash } from 'node:crypto';
import type { ValidateFunction } from 'ajv';
import { createAjv } from '../schema/ajv.js';
import type { Diagnostic, Operation } from '../types.js';
import { buildExamples, specExampleValues } from './examples.js';
import { specPathOf } from './paths.js';
import { isObject, setOwn } from './pointer.js';

/** Removes every `pattern` / `patternProperties` key (used when a schema's regex cannot compile). */
function withoutPatterns(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutPatterns);
  if (!isObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(node)) {
    if (k === 'pattern') continue;
    setOwn(out, k, k === 'patternProperties' ? {} : withoutPatterns(node[k]));
  }
  return out;
}

/** The outcome of compiling one argument schema: the validator, the schema it validates, and any downgrade. */
interface Compiled {
  validate: ValidateFunction;
  /** The schema that compiled: the input, or a downgraded copy when the input did not compile. */
  schema: Operation['inputSchema'];
  downgrade?: { code: 'SCHEMA_PATTERN_DROPPED' | 'SCHEMA_UNCOMPILABLE'; reason: string };
}

/** Compiles an argument schema; falls back to no patterns, then to untyped arguments. */
function compileInput(input: Operation['inputSchema'], ajv: ReturnType<typeof createAjv>): Compiled {
  try {
    return { validate: ajv.compile(input), schema: input };
  } catch (first) {
    const reason = (first instanceof Error ? first.message.split('\n')[0] : undefined) ?? String(first);
    const stripped = withoutPatterns(input) as Operation['inputSchema'];
    try {
      return { validate: ajv.compile(stripped), schema: stripped, downgrade: { code: 'SCHEMA_PATTERN_DROPPED', reason } };
    } catch {
      const loose: Operation['inputSchema'] = { type: 'object', properties: {}, additionalProperties: false };
      for (const name of Object.keys(input.properties)) setOwn(loose.properties, name, {});
      if (input.required) loose.required = input.required;
      return { validate: ajv.compile(loose), schema: loose, downgrade: { code: 'SCHEMA_UNCOMPILABLE', reason } };
    }
  }
}
/**
 * Compiles every operation's argument schema and builds its examples. Operations whose schemas are identical
 * (common in generated specs: Microsoft Graph has 6,706 distinct schemas in 11,422 operations) share one
 * compilation; validators are dropped as soon as their group is done, so memory stays bounded.
 */
export function checkSchemas(
  operations: Operation[],
  diagnostics: Diagnostic[],
  progress: (message: string) => void,
  checkDeadline: (stage: string, done?: number, total?: number) => void,
): void {
  const groups = new Map<string, Operation[]>();
  for (const op of operations) {
    const key = createHash('sha256').update(JSON.stringify(op.inputSchema)).digest('base64');
    const list = groups.get(key);
    if (list) list.push(op);
    else groups.set(key, [op]);
  }
  // Checks schemas and validates examples only: faster code generation, identical acceptance (see createAjv).
  const ajv = createAjv({ checkOnly: true });
  const values = specExampleValues(operations);
  let done = 0;
  for (const group of groups.values()) {
    checkDeadline('checking argument schemas', done, operations.length);
    const first = group[0] as Operation;
    const compiled = compileInput(first.inputSchema, ajv);
    for (const op of group) {
      if (compiled.downgrade) {
        const { code, reason } = compiled.downgrade;
        const at = `#/paths/${specPathOf(op).replace(/~/g, '~0').replace(/\//g, '~1')}/${op.method}`;
        const what = code === 'SCHEMA_PATTERN_DROPPED' ? 'its patterns were dropped' : 'argument types are not checked';
        diagnostics.push({ level: 'warning', code, pointer: at, message: `${op.name}: argument schema did not compile (${reason}); ${what}` });
      }
      if (compiled.downgrade) op.inputSchema = compiled.schema;
      op.examples = buildExamples(op, compiled.validate, values);
      if (++done % 250 === 0) progress(`checked ${done}/${operations.length} argument schemas`);
    }
    ajv.removeSchema(compiled.schema);
  }
}
