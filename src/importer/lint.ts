// The import lint (reported with the summary and in diagnostics.json): operations without summary or
// description, near-duplicate operations, and text that reads like instructions to an AI (RELIABILITY J1).
// An operation's flags are data on the operation; nothing here changes what the spec says. The catalog's title
// and description and the tags' descriptions are linted too: list_domains shows them to every agent before any
// operation, as plain fields with nothing to flag them, so the importer withholds the ones that read like
// instructions (WITHHELD_TEXT) instead of storing them. Schemas whose own example contradicts their declared type
// are reported (LINT_EXAMPLE_TYPE) by the converter, which widened their type by the example's (example-types.ts).
import { credentialParameters } from '../schema/credential-parameters.js';
import type { ArgBinding, Diagnostic, Operation } from '../types.js';
import { pathItemText } from './operations.js';
import { specPathOf } from './paths.js';
import { escapePointer, isObject, own } from './pointer.js';
import { cleanDescription, domainSlug, instructionMatch } from './text.js';

/** Diagnostic codes produced by the lint (all level `warning`; `--strict` does not fail on them). */
export const LINT_CODES = ['LINT_NO_DESCRIPTION', 'LINT_NEAR_DUPLICATE', 'LINT_INSTRUCTION_LIKE', 'LINT_EXAMPLE_TYPE'] as const;

/**
 * What catalog.json holds in place of a catalog or domain description the lint withheld, so that list_domains, the
 * explorer and `api-catalog domains` say that there was text, and why it is not shown (the spec keeps it; the
 * finding is in diagnostics.json). Neutral words: it must not itself read like an instruction.
 */
export const WITHHELD_TEXT = "Withheld at import: the API's text here reads like instructions to an AI.";

/** The operation in the spec: its path key as the spec wrote it (`/#Action=DeleteVpc`, not the `/` requested). */
function opPointer(op: Operation): string {
  return `#/paths/${specPathOf(op).replace(/~/g, '~0').replace(/\//g, '~1')}/${op.method}`;
}

/** Every description and title string in a converted schema (bounded walk). */
function schemaTexts(node: unknown, out: string[], depth = 0): void {
  if (depth > 20 || out.length > 2000) return;
  if (Array.isArray(node)) {
    for (const n of node) schemaTexts(n, out, depth + 1);
    return;
  }
  if (!isObject(node)) return;
  for (const key of Object.keys(node)) {
    const v = node[key];
    if ((key === 'description' || key === 'title') && typeof v === 'string') out.push(v);
    else if (typeof v === 'object' && v !== null && key !== 'examples' && key !== 'default' && key !== 'enum' && key !== 'const') schemaTexts(v, out, depth + 1);
  }
}

/** The first phrase of `texts` that reads like an instruction to an AI, cut for a message; undefined when none. */
function instructionExcerpt(texts: readonly unknown[]): string | undefined {
  for (const t of texts) {
    const hit = typeof t === 'string' ? instructionMatch(t) : undefined;
    if (hit !== undefined) return hit.length > 80 ? hit.slice(0, 80) + '…' : hit;
  }
  return undefined;
}

/**
 * Lints the catalog's title or description as list_domains would show it: `raw` is the spec's text at `pointer`
 * (markup such as <IMPORTANT> is the signal, and cleaning removes it), `stored` the cleaned text. Returns the
 * finding, or undefined when the text reads as documentation. The caller withholds a flagged one. (The operator's
 * own `import --title` / `--description` are not the spec's text and are not linted.)
 */
export function lintCatalogText(what: 'title' | 'description', pointer: string, raw: unknown, stored: string, name: string): Diagnostic | undefined {
  const hit = instructionExcerpt([stored, typeof raw === 'string' ? raw.slice(0, 20_000) : undefined]);
  if (hit === undefined) return undefined;
  const instead = what === 'title' ? `the catalog name ${JSON.stringify(name)}` : 'a note';
  return { level: 'warning', code: 'LINT_INSTRUCTION_LIKE', pointer, message: `catalog ${what}: text reads like an instruction to an AI (${JSON.stringify(hit)}); withheld from agents, ${instead} is shown instead` };
}

/**
 * Lints a security scheme's description (`raw`, the spec's; `stored`, as cleaned), which list_domains shows beside the
 * scheme's env vars to every agent before any operation, as a plain field: one that reads like instructions to an AI
 * is withheld (the caller stores WITHHELD_TEXT). Returns the finding, or undefined.
 */
export function lintSchemeDescription(pointer: string, raw: unknown, stored: string, scheme: string): Diagnostic | undefined {
  const hit = instructionExcerpt([stored, typeof raw === 'string' ? raw.slice(0, 20_000) : undefined]);
  if (hit === undefined) return undefined;
  return { level: 'warning', code: 'LINT_INSTRUCTION_LIKE', pointer, message: `security scheme ${JSON.stringify(scheme)}: description reads like an instruction to an AI (${JSON.stringify(hit)}); withheld from agents, a note is shown instead` };
}

/**
 * Lints the spec's tag descriptions, which become the domains' descriptions in list_domains. `described` is
 * tagDescriptions' map (tag, as its domain name -> stored description); the description of a flagged tag is replaced there by
 * WITHHELD_TEXT, so that buildDomains never stores it. Returns the findings, one per flagged tag.
 */
export function lintTagDescriptions(doc: Record<string, unknown>, described: Map<string, string>): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!Array.isArray(doc.tags)) return out;
  for (const [i, tag] of doc.tags.entries()) {
    if (!isObject(tag) || typeof tag.name !== 'string' || typeof tag.description !== 'string') continue;
    // the cleaned text too: invisible characters inside a phrase hide it from the raw one
    const hit = instructionExcerpt([cleanDescription(tag.description, 20_000), tag.description.slice(0, 20_000)]);
    if (hit === undefined) continue;
    const key = domainSlug(tag.name);
    if (described.has(key)) described.set(key, WITHHELD_TEXT);
    out.push({
      level: 'warning',
      code: 'LINT_INSTRUCTION_LIKE',
      pointer: `#/tags/${i}/description`,
      message: `tag ${JSON.stringify(key)}: description reads like an instruction to an AI (${JSON.stringify(hit)}); withheld from agents, its domain shows a note instead`,
    });
  }
  return out;
}

/**
 * Runs the lint over all operations: sets `flags: ['instruction-like']` on suspicious operations and returns
 * LINT_* diagnostics. `hadText` says whether the spec gave a summary or description for each operation (its Path
 * Item's, which stand in for its own, count too);
 * `rawText` holds its uncleaned summary/description.
 */
export function lintOperations(ops: Operation[], hadText: Map<Operation, boolean>, rawText: Map<Operation, string[]> = new Map()): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const op of ops) {
    // the Path Item's summary or description stands in for the operation's (operations.ts): it has text then
    const fromPathItem = pathItemText(op);
    if (hadText.get(op) === false && fromPathItem === undefined) {
      out.push({ level: 'warning', code: 'LINT_NO_DESCRIPTION', pointer: opPointer(op), message: `${op.name} has no summary or description; agents will find it by name and path only` });
    }
    // Raw spec text too: markup such as <IMPORTANT> is removed by cleaning but is itself the signal.
    const texts = [op.summary, op.description, ...(rawText.get(op) ?? []), ...(fromPathItem ?? [])];
    schemaTexts(op.inputSchema, texts);
    const excerpt = instructionExcerpt(texts);
    if (excerpt !== undefined) {
      op.flags = [...new Set([...(op.flags ?? []), 'instruction-like'])].sort();
      out.push({ level: 'warning', code: 'LINT_INSTRUCTION_LIKE', pointer: opPointer(op), message: `${op.name}: text reads like an instruction to an AI (${JSON.stringify(excerpt)}); shown to agents as data only` });
    }
  }
  // Near duplicates: same method on the same path shape ({owner} and {user} count as the same slot), the shape of the
  // path key as the spec wrote it: operations the spec keeps apart by a fragment or literal query (`/#Action=DeleteVpc`
  // and `/#Action=DescribeVpcs`, both requesting `POST /`) are told apart by it (execution sends what tells them apart).
  const shapes = new Map<string, Operation[]>();
  for (const op of ops) {
    const key = `${op.method} ${specPathOf(op).replace(/\{[^}]*\}/g, '{}').replace(/\/+$/, '').toLowerCase()}`;
    const list = shapes.get(key) ?? [];
    list.push(op);
    shapes.set(key, list);
  }
  for (const [key, list] of shapes) {
    if (list.length < 2) continue;
    const names = list.map((o) => o.name).sort();
    out.push({ level: 'warning', code: 'LINT_NEAR_DUPLICATE', pointer: opPointer(list[0] as Operation), message: `${names.join(', ')} have the same method and path shape (${key}); a router cannot tell them apart` });
  }
  return out;
}

/** A JSONPath string literal (RFC 9535, single-quoted). */
const literal = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * The overlay that declares credential parameters as apiKey security schemes (one requirement: all of them together,
 * for every operation) and removes the parameters, inline or through a `$ref` to the document's reusable ones.
 */
function credentialOverlay(params: readonly ArgBinding[], doc: Record<string, unknown>, swagger2: boolean): string {
  const found = swagger2 ? own(doc, 'parameters') : own(own(doc, 'components'), 'parameters');
  const reusable = isObject(found) ? found : {};
  const base = swagger2 ? '#/parameters/' : '#/components/parameters/';
  const schemes: Record<string, unknown> = {};
  const requirement: Record<string, string[]> = {};
  const matches: string[] = [];
  for (const p of params) {
    const scheme = params.some((q) => q !== p && q.name === p.name) ? `${p.name}-${p.in}` : p.name;
    schemes[scheme] = { type: 'apiKey', in: p.in, name: p.name };
    requirement[scheme] = [];
    matches.push(`@.in == ${literal(p.in)} && @.name == ${literal(p.name)}`);
    for (const key of Object.keys(reusable)) {
      const r = reusable[key];
      if (isObject(r) && r.name === p.name && r.in === p.in) matches.push(`@['$ref'] == ${literal(base + escapePointer(key))}`);
    }
  }
  const declare = swagger2 ? { securityDefinitions: schemes } : { components: { securitySchemes: schemes } };
  return JSON.stringify({
    overlay: '1.0.0',
    info: { title: `API keys as security schemes: ${params.map((p) => p.name).join(', ')}`, version: '1.0.0' },
    actions: [
      { target: '$', update: { ...declare, security: [requirement] } },
      { target: `$.paths..parameters[?${matches.join(' || ')}]`, remove: true },
    ],
  });
}

/**
 * CREDENTIAL_AS_PARAMETER: required header, query or cookie parameters named like a credential on operations that
 * declare no security (ListenNotes' `X-ListenAPI-Key` on all 24, Autotask's `Secret` on all 2,958): agents must pass
 * the secret in their arguments, and such an operation is not sent the default bearer (credential-parameters.ts).
 * One warning, naming each parameter and how many operations carry it, with the fix: an overlay declaring them as
 * apiKey schemes, ready to save and pass to `import --overlay` when every one is on the same operations and the
 * document has no top-level `security` (which the overlay's would be appended to); else the fix in words.
 */
export function lintCredentialParameters(ops: readonly Operation[], doc: Record<string, unknown>, swagger2: boolean): Diagnostic[] {
  const found = new Map<string, { param: ArgBinding; ops: Operation[] }>();
  for (const op of ops) {
    for (const b of credentialParameters(op)) {
      const key = `${b.in}\0${b.in === 'header' ? b.name.toLowerCase() : b.name}`;
      const entry = found.get(key) ?? { param: b, ops: [] };
      if (!entry.ops.includes(op)) entry.ops.push(op);
      found.set(key, entry);
    }
  }
  if (found.size === 0) return [];
  const groups = [...found.values()];
  const named = groups.map((g) => `${g.param.in} "${g.param.name}" (required by ${g.ops.length} of ${ops.length} operations)`).join(', ');
  // the ready overlay sets the document's security, so every operation would send the key: only when every operation
  // takes it (second read of stop 50: offered for 1 of 2, the other operation then sent the key as a query parameter)
  const sameOps = groups.every((g) => g.ops.length === ops.length);
  const rootSecurity = Array.isArray(doc.security) && doc.security.length > 0;
  const fix = sameOps && !rootSecurity
    ? `fix: save this overlay as credentials.overlay.json and import with --overlay credentials.overlay.json (docs/CURATION.md): ${credentialOverlay(groups.map((g) => g.param), doc, swagger2)}`
    : `fix: an overlay (docs/CURATION.md) that declares each as an apiKey security scheme, requires it in the security of the operations that carry it, and removes the parameter`;
  return [{
    level: 'warning',
    code: 'CREDENTIAL_AS_PARAMETER',
    pointer: opPointer(groups[0]!.ops[0]!),
    message: `parameters named like a credential, with no security scheme declaring them: ${named}; agents must pass the secret in their arguments (into their context and transcript), and these operations are sent no default bearer token; ${fix}`,
  }];
}
