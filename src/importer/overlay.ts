// OpenAPI Overlay 1.0 (https://spec.openapis.org/overlay/v1.0.0.html): reads and validates overlay documents and
// applies their actions, in order, to a parsed spec before it is normalized. Targets are RFC 9535 JSONPath
// (json-p3, never hand-parsed). This module neither reads the spec nor writes anything.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { JSONPathError, jsonpath, type JSONPathQuery, type JSONValue } from 'json-p3';
import { AppError } from '../errors.js';
import type { Diagnostic } from '../types.js';
import { emptyDocument, parseSpecText } from './spec-text.js';
import { isObject, setOwn } from './pointer.js';

/** Largest overlay file accepted, in bytes (checked before parsing). */
export const MAX_OVERLAY_BYTES = 16 * 1024 * 1024;

/** One validated Action Object. */
export interface OverlayAction {
  /** 0-based position in `actions`, for messages. */
  index: number;
  target: string;
  query: JSONPathQuery;
  description?: string;
  /** Present for update actions (any JSON value; checked against each selected node when applied). */
  update?: unknown;
  remove: boolean;
}

/** A validated overlay document. */
export interface Overlay {
  /** The file as the user named it (for messages). */
  file: string;
  /** The path recorded in catalog.json (relative to the catalog folder). */
  label: string;
  /** sha256 (hex) of the file's bytes. */
  sha256: string;
  version: string;
  title: string;
  extends?: string;
  actions: OverlayAction[];
}

const TOP_KEYS = ['overlay', 'info', 'extends', 'actions'];
const INFO_KEYS = ['title', 'version'];
const ACTION_KEYS = ['target', 'description', 'update', 'remove'];

function invalid(file: string, what: string): AppError {
  return new AppError('CONFIG_INVALID', `import: overlay ${file}: ${what}`, { details: { file } });
}

/** Unknown fixed fields are errors (the 1.0 schema's unevaluatedProperties: false); `x-` extensions pass. */
function checkKeys(file: string, where: string, obj: Record<string, unknown>, allowed: readonly string[]): void {
  for (const k of Object.keys(obj)) {
    if (allowed.includes(k) || k.startsWith('x-')) continue;
    throw invalid(file, `${where}has an unknown field ${JSON.stringify(k.slice(0, 80))} (allowed: ${allowed.join(', ')}, and x- extensions)`);
  }
}

/** The position-free message of a json-p3 error, plus the character where it went wrong. */
function jsonPathMessage(err: JSONPathError): string {
  const base = err.message.replace(/\s*\(['"].*:\d+\)\s*$/s, '');
  return `${base} at character ${err.token.index}`;
}

/** Compiles one RFC 9535 query; throws CONFIG_INVALID naming the action. */
function compileTarget(file: string, where: string, target: string): JSONPathQuery {
  try {
    return jsonpath.compile(target);
  } catch (err) {
    if (err instanceof JSONPathError) {
      throw invalid(file, `${where}target ${JSON.stringify(target)} is not a valid RFC 9535 JSONPath (${jsonPathMessage(err)}); e.g. $.paths['/pets'].get`);
    }
    throw err;
  }
}

/**
 * Validates an overlay document's structure and compiles its targets. Throws CONFIG_INVALID naming the file and,
 * for an action, its index and target.
 */
export function parseOverlay(text: string, file: string, label: string = file): Overlay {
  let raw: unknown;
  try {
    raw = parseSpecText(text, `overlay ${file}`, file);
  } catch (err) {
    if (err instanceof RangeError) throw invalid(file, 'is nested too deeply to parse');
    // parseSpecText speaks of specs (SPEC_INVALID); a broken overlay is the curator's input, like a config file.
    // Its details keep the line, column and excerpt of a syntax error.
    if (err instanceof AppError) throw new AppError('CONFIG_INVALID', err.message, { details: { ...(isObject(err.details) ? err.details : {}), file }, cause: err });
    throw err;
  }
  if (raw === null || raw === undefined) throw invalid(file, `${emptyDocument(text)}: there is no Overlay document in it; start it with \`overlay: 1.0.0\`, then info and actions`);
  if (!isObject(raw)) throw invalid(file, `is not an Overlay document (its top level is ${Array.isArray(raw) ? 'an array' : typeof raw}, expected an object with overlay, info and actions)`);
  checkKeys(file, '', raw, TOP_KEYS);
  if (typeof raw.overlay !== 'string') {
    throw invalid(file, raw.overlay === undefined ? 'has no `overlay` field; start it with `overlay: 1.0.0`' : `\`overlay\` must be a string such as "1.0.0" (found ${JSON.stringify(raw.overlay)}); quote it`);
  }
  if (!/^1\.0\.\d+$/.test(raw.overlay)) throw invalid(file, `declares Overlay ${JSON.stringify(raw.overlay)}; supported: Overlay 1.0.x`);
  const info = raw.info;
  if (!isObject(info)) throw invalid(file, 'needs an `info` object with `title` and `version`');
  checkKeys(file, 'info ', info, INFO_KEYS);
  for (const k of INFO_KEYS) if (typeof info[k] !== 'string') throw invalid(file, `info.${k} must be a string`);
  if (raw.extends !== undefined && typeof raw.extends !== 'string') throw invalid(file, '`extends` must be a string (the URL or path of the spec it applies to)');
  if (!Array.isArray(raw.actions) || raw.actions.length === 0) throw invalid(file, '`actions` must be a non-empty array of {target, update | remove}');
  const actions = raw.actions.map((a: unknown, index): OverlayAction => {
    const where = `actions[${index}] `;
    if (!isObject(a)) throw invalid(file, `${where}must be an object with a target and an update or remove`);
    checkKeys(file, where, a, ACTION_KEYS);
    if (typeof a.target !== 'string' || a.target.trim() === '') throw invalid(file, `${where}needs a \`target\`: a JSONPath string such as $.paths['/pets'].get`);
    const at = `actions[${index}] (target ${JSON.stringify(a.target.slice(0, 200))}) `;
    if (!a.target.startsWith('$')) throw invalid(file, `${at}target must be a JSONPath query starting with $`);
    if (a.description !== undefined && typeof a.description !== 'string') throw invalid(file, `${at}description must be a string`);
    if (a.remove !== undefined && typeof a.remove !== 'boolean') throw invalid(file, `${at}remove must be true or false`);
    const remove = a.remove === true;
    const hasUpdate = Object.hasOwn(a, 'update');
    if (!remove && !hasUpdate) throw invalid(file, `${at}does nothing: give it an \`update\` or \`remove: true\``);
    if (remove && hasUpdate) throw invalid(file, `${at}has both \`update\` and \`remove: true\`; the update would be ignored — split it into two actions`);
    const query = compileTarget(file, at, a.target);
    return {
      index,
      target: a.target,
      query,
      remove,
      ...(typeof a.description === 'string' ? { description: a.description } : {}),
      ...(hasUpdate ? { update: a.update } : {}),
    };
  });
  return {
    file,
    label,
    sha256: createHash('sha256').update(text).digest('hex'),
    version: raw.overlay,
    title: info.title as string,
    ...(typeof raw.extends === 'string' ? { extends: raw.extends } : {}),
    actions,
  };
}

/** Reads and validates an overlay file (JSON or YAML, at most 16 MiB). Throws CONFIG_INVALID naming it. */
export function readOverlay(file: string, label: string = file): Overlay {
  let text: string;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw invalid(file, 'is not a file');
    if (st.size > MAX_OVERLAY_BYTES) throw invalid(file, `is ${st.size} bytes, over the ${MAX_OVERLAY_BYTES}-byte limit`);
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    if (cause instanceof AppError) throw cause;
    throw invalid(file, `cannot be read (${(cause as NodeJS.ErrnoException).code ?? String(cause)}); check the --overlay path`);
  }
  return parseOverlay(text, file, label);
}

/** Overlay 1.0 merge: objects merge recursively, arrays concatenate, anything else replaces (`update` wins). */
function merge(target: Record<string, unknown>, update: Record<string, unknown>): void {
  for (const key of Object.keys(update)) {
    const from = update[key];
    const to = Object.hasOwn(target, key) ? target[key] : undefined;
    if (isObject(to) && isObject(from)) merge(to, from);
    else if (Array.isArray(to) && Array.isArray(from)) to.push(...from.map((v) => structuredClone(v)));
    else setOwn(target, key, structuredClone(from));
  }
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : isObject(value) ? 'an object' : `the ${typeof value} ${JSON.stringify(value).slice(0, 60)}`;
}

function actionError(overlay: Overlay, action: OverlayAction, what: string): AppError {
  return invalid(overlay.file, `actions[${action.index}] (target ${JSON.stringify(action.target.slice(0, 200))}) ${what}`);
}

/** The value at `location` (keys and indexes from the root), or undefined. */
function at(root: unknown, location: ReadonlyArray<string | number>): unknown {
  let node = root;
  for (const step of location) {
    if (Array.isArray(node) && typeof step === 'number') node = node[step];
    else if (isObject(node) && typeof step === 'string' && Object.hasOwn(node, step)) node = node[step];
    else return undefined;
  }
  return node;
}

/** Removes every selected node from its parent map or array (array items highest index first). */
function removeNodes(root: Record<string, unknown>, overlay: Overlay, action: OverlayAction, locations: Array<Array<string | number>>): void {
  const fromArrays = new Map<unknown[], number[]>();
  const fromObjects: Array<{ parent: Record<string, unknown>; key: string }> = [];
  for (const loc of locations) {
    if (loc.length === 0) throw actionError(overlay, action, 'selects the whole document, which cannot be removed; select the parts to remove');
    const parent = at(root, loc.slice(0, -1));
    const last = loc[loc.length - 1] as string | number;
    if (Array.isArray(parent) && typeof last === 'number') fromArrays.set(parent, [...(fromArrays.get(parent) ?? []), last]);
    else if (isObject(parent) && typeof last === 'string') fromObjects.push({ parent, key: last });
  }
  for (const { parent, key } of fromObjects) delete parent[key];
  for (const [list, indexes] of fromArrays) {
    for (const i of [...new Set(indexes)].sort((a, b) => b - a)) list.splice(i, 1);
  }
}

function updateNodes(overlay: Overlay, action: OverlayAction, values: unknown[]): void {
  const update = action.update;
  for (const value of values) {
    if (isObject(value)) {
      if (!isObject(update)) throw actionError(overlay, action, `selects an object, so \`update\` must be an object of properties to merge (found ${kindOf(update)})`);
      merge(value, update);
    } else if (Array.isArray(value)) {
      if (Array.isArray(update)) value.push(...update.map((v) => structuredClone(v)));
      else value.push(structuredClone(update));
    } else {
      throw actionError(
        overlay,
        action,
        `selects ${kindOf(value)}, which Overlay 1.0 cannot update; select the object that contains it and update the property (e.g. target $.info, update {title: ...})`,
      );
    }
  }
}

/**
 * Applies an overlay's actions in order to `doc` (mutated in place). A target that selects nothing adds an
 * OVERLAY_NO_MATCH warning (the import's --strict makes it fatal); an update that cannot apply throws
 * CONFIG_INVALID naming the action.
 */
export function applyOverlay(doc: Record<string, unknown>, overlay: Overlay, diagnostics: Diagnostic[]): void {
  for (const action of overlay.actions) {
    let nodes;
    try {
      nodes = action.query.query(doc as JSONValue).nodes;
    } catch (err) {
      if (err instanceof RangeError) throw actionError(overlay, action, 'could not be evaluated: the spec is nested too deeply for this query');
      if (err instanceof JSONPathError) throw actionError(overlay, action, `could not be evaluated (${jsonPathMessage(err)})`);
      throw err;
    }
    if (nodes.length === 0) {
      diagnostics.push({
        level: 'warning',
        code: 'OVERLAY_NO_MATCH',
        pointer: `${overlay.label}#/actions/${action.index}`,
        message: `overlay action ${action.index} (target ${action.target}) matches nothing in the spec; it did nothing — check the path and method`,
      });
      continue;
    }
    try {
      if (action.remove) removeNodes(doc, overlay, action, nodes.map((n) => n.location));
      else updateNodes(overlay, action, nodes.map((n) => n.value));
    } catch (err) {
      if (err instanceof RangeError) throw actionError(overlay, action, 'could not be applied: its update is nested too deeply');
      throw err;
    }
  }
}

/**
 * A diagnostic's pointer as a person can open it: an overlay's own pointer (`<label>#/actions/0`) names the overlay
 * by the path catalog.json records, relative to the catalog folder (`../../fix.yaml`), which rarely resolves from
 * where the command ran; messages name it as it was given (`fix.yaml#/actions/0`). diagnostics.json keeps the label.
 */
export function shownPointer(pointer: string, overlays: ReadonlyArray<{ file: string; label: string }>): string {
  for (const o of overlays) if (o.label !== o.file && pointer.startsWith(`${o.label}#`)) return `${o.file}${pointer.slice(o.label.length)}`;
  return pointer;
}

/**
 * A warning when the overlay's `extends` names another spec file than the one imported (compared by file name,
 * since the same spec is often fetched from a URL and imported from a local copy).
 */
export function extendsMismatch(overlay: Overlay, source: string): Diagnostic | undefined {
  if (overlay.extends === undefined) return undefined;
  const fileName = (s: string): string => s.replace(/[?#].*$/, '').split(/[\\/]/).filter(Boolean).pop() ?? s;
  if (fileName(overlay.extends) === fileName(source)) return undefined;
  return {
    level: 'warning',
    code: 'OVERLAY_EXTENDS_MISMATCH',
    pointer: `${overlay.label}#/extends`,
    message: `overlay ${overlay.file} says it extends ${JSON.stringify(overlay.extends)}, but the spec imported is ${source}; check that it is the right overlay`,
  };
}
