// The operation page's parameters table (name, in, type, required, default, description, example, and `from`). A
// placeholder (the `<owner>` values the importer and the page put where an argument has no example; what counts as
// one is src/server/core/placeholders.ts's, shared with execute_tool) is never shown as an example.
import { typeLabel } from '../core/describe.js';
import type { CatalogEntry } from '../core/catalogs.js';
import { placeholderPaths } from '../core/placeholders.js';
import type { JsonSchema, Operation } from '../../types.js';
import { breakable, href, html, type Html } from './html.js';
import type { PageDeps } from './pages.js';
import { proseLine } from './prose.js';

/** Longest default or example shown in a parameter row. */
const VALUE_CHARS = 60;

/** Every string in the operation's own examples (spec or synthesized): public text the form may be filled with. */
export function exampleStrings(op: Operation): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.add(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
  };
  for (const e of op.examples) walk(e.args);
  for (const s of Object.values(op.inputSchema.properties)) {
    if (s !== null && typeof s === 'object') {
      walk(s.example);
      walk(s.examples);
    }
  }
  return out;
}

function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? '';
  return text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS - 1)}…` : text;
}

export function schemaOf(op: Operation, arg: string): Exclude<JsonSchema, boolean> {
  const s = Object.hasOwn(op.inputSchema.properties, arg) ? op.inputSchema.properties[arg] : undefined;
  return s !== undefined && typeof s === 'object' ? s : {};
}

/**
 * Where the value of each argument comes from: the operations whose responses give it (`paramSources`, computed at
 * import when the registry has it), as public names this server serves.
 */
function sourcesOf(entry: CatalogEntry, deps: PageDeps): Record<string, string[]> {
  const raw = (entry.op as Operation & { paramSources?: Record<string, unknown> }).paramSources;
  if (raw === undefined || raw === null || typeof raw !== 'object') return {};
  const prefix = deps.catalogs.catalogs.length > 1 ? `${entry.catalog.meta.name}.` : '';
  const out: Record<string, string[]> = {};
  for (const [arg, list] of Object.entries(raw)) {
    if (!Array.isArray(list)) continue;
    const served = list.filter((n): n is string => typeof n === 'string').map((n) => prefix + n).filter((n) => deps.catalogs.byName.has(n));
    if (served.length > 0) out[arg] = served;
  }
  return out;
}

/** The first real example of an argument: its schema's, else the operation's examples' (placeholders skipped). */
function sampleOf(op: Operation, arg: string, s: Exclude<JsonSchema, boolean>): unknown {
  const candidates = [...(Array.isArray(s.examples) ? s.examples : []), ...op.examples.map((e) => (Object.hasOwn(e.args, arg) ? e.args[arg] : undefined)), s.example];
  return candidates.find((v) => v !== undefined && placeholderPaths({ [arg]: v }, op.inputSchema).length === 0);
}

/** The parameters table: name, in, type, required, default, description, example, and `from` where known. */
export function parameterTable(entry: CatalogEntry, deps: PageDeps): Html {
  const op = entry.op;
  const args = Object.keys(op.inputSchema.properties);
  if (args.length === 0) return html`<p id="parameters-none" class="muted">No parameters.</p>`;
  const required = new Set(op.inputSchema.required ?? []);
  const sources = sourcesOf(entry, deps);
  const withFrom = Object.keys(sources).length > 0;
  const rows = args.map((arg) => {
    const s = schemaOf(op, arg);
    const binding = op.bindings.find((b) => b.arg === arg);
    const sample = sampleOf(op, arg, s);
    const wire = binding !== undefined && binding.name !== arg && binding.name !== '' ? binding.name : undefined;
    const from = sources[arg] ?? [];
    return html`<tr><td class="param" data-label="Name"><code>${breakable(arg)}</code>${wire !== undefined ? html` <span class="muted">(sent as <code>${wire}</code>)</span>` : ''}</td>
<td class="in" data-label="In">${binding?.in ?? '—'}</td><td class="type" data-label="Type"><code>${typeLabel(s, op.inputSchema.$defs)}</code></td>
<td class="req" data-label="Required">${required.has(arg) ? html`<span class="badge">required</span>` : ''}</td>
<td class="default" data-label="Default">${s.default !== undefined ? html`<code>${shortJson(s.default)}</code>` : ''}</td>
<td class="desc" data-label="Description">${typeof s.description === 'string' ? proseLine(s.description) : ''}</td>
<td class="example" data-label="Example">${sample !== undefined ? html`<code>${shortJson(sample)}</code>` : ''}</td>${
      withFrom ? html`<td class="from" data-label="From">${from.map((n, i) => html`${i > 0 ? ', ' : ''}<a href="${href({ tool: n })}">${breakable(n)}</a>`)}</td>` : ''
    }</tr>`;
  });
  return html`<div class="table-wrap"><table class="stack params" id="parameters-table">
<thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Default</th><th scope="col">Description</th><th scope="col">Example</th>${
    withFrom ? html`<th scope="col" title="Operations whose responses give this value">From</th>` : ''
  }</tr></thead>
<tbody>${rows}</tbody></table></div>`;
}
