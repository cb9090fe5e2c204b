// Helpers of `api-catalog import` (src/cli/import.ts): signals, the summary's lines, the fix command an error
// suggests, the plain-http warning and keeping a registry's vectors across a re-import.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { DomainChange, ImportResult } from '../importer/index.js';
import { MANIFEST_FILE, VECTORS_FILE } from '../embeddings/store.js';
import type { CatalogMeta, Operation } from '../types.js';
import { isLoopbackHost } from '../net/address-policy.js';
import { selfCommand } from './self-command.js';
import { shellLine } from './shell.js';
import { envPrefix } from '../execution/auth.js';
import { resolveBaseUrl } from '../execution/request.js';
import { packageRoot } from '../registry/catalog.js';

/**
 * A re-import that would remove more than this share of the catalog's operations, and at least MASS_REMOVAL_MIN of
 * them, is refused without --allow-removals: a spec cut at a line boundary parses, and would replace most of a good
 * catalog with what is left of it (the cut-short check in load.ts only sees `$ref`s into missing sections).
 */
export const MASS_REMOVAL_SHARE = 0.5;
export const MASS_REMOVAL_MIN = 5;

/** The exit codes of a process ended by SIGINT / SIGTERM (128 + the signal's number), as shells report them. */
export const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * Runs `handler` on the first SIGINT (Ctrl-C) or SIGTERM until the returned function is called. While a listener is
 * installed Node no longer ends the process itself: the handler must exit.
 */
export function onInterrupt(handler: (signal: keyof typeof SIGNAL_EXIT) => void): () => void {
  const installed = (Object.keys(SIGNAL_EXIT) as Array<keyof typeof SIGNAL_EXIT>).map((signal) => {
    const listener = (): void => handler(signal);
    process.once(signal, listener);
    return { signal, listener };
  });
  return () => {
    for (const { signal, listener } of installed) process.removeListener(signal, listener);
  };
}

/**
 * One turn of the event loop: a signal that came during the synchronous work before it is handled here (Node runs
 * signal listeners between turns, never inside synchronous code), so the write can stop between its steps.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolveTurn) => setImmediate(resolveTurn));
}

/** At most `max` names, then "and N more". */
export function list(names: string[], max = 5): string {
  return names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}

export function changeLine(c: DomainChange): string {
  const parts: string[] = [];
  if (c.added.length > 0) parts.push(`+${c.added.length} (${list(c.added)})`);
  if (c.removed.length > 0) parts.push(`-${c.removed.length} (${list(c.removed)})`);
  if (c.changed.length > 0) parts.push(`~${c.changed.length} (${list(c.changed)})`);
  return `  ${c.domain}: ${parts.join(' ')}`;
}

export function counts(result: ImportResult): { warnings: number; lint: Record<string, number> } {
  const lint: Record<string, number> = { 'instruction-like': 0, 'near-duplicate': 0, 'no description': 0 };
  let warnings = 0;
  for (const d of result.diagnostics) {
    if (d.code === 'LINT_INSTRUCTION_LIKE') lint['instruction-like']! += 1;
    else if (d.code === 'LINT_NEAR_DUPLICATE') lint['near-duplicate']! += 1;
    else if (d.code === 'LINT_NO_DESCRIPTION') lint['no description']! += 1;
    else warnings++;
  }
  return { warnings, lint };
}

/**
 * The command that refreshes this registry, for messages (quoted for the shell): this CLI as it runs from here
 * (self-command.ts; `npm run import` needs a package.json here, and resolves paths against the package root, not
 * here) with the paths as they resolve from here. `out` undefined: the default registry folder.
 */
export function fixCommand(spec: string, name: string | undefined, out: string | undefined, overlays: string[] = [], display: CatalogMeta['importArgs'] = {}): string {
  const opts = [
    ...(name !== undefined ? ['--name', name] : []),
    ...(out !== undefined ? ['--out', out] : []),
    ...overlays.flatMap((o) => ['--overlay', o]),
    ...(display.title !== undefined ? ['--title', display.title] : []),
    ...(display.description !== undefined ? ['--description', display.description] : []),
  ];
  return `${selfCommand()} import ${shellLine([spec, ...opts])}`;
}

/**
 * Where the user typed `npm run import -- ...` when it was from a subfolder of this package: npm runs the script at
 * the package root, so `../spec.yaml` typed in docs/ would be looked for next to the root (a bare ENOENT), and
 * `--out` would land somewhere else than the user sees. Only for this package's own `import` script, whose every
 * path comes from the user after `--`: a script in another package.json (`"x": "api-catalog import specs/a.yaml"`)
 * writes its paths relative to that package's root, which is where npm runs it, so those stay as they are.
 */
export function npmInvokedFrom(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const from = env['INIT_CWD'];
  const pkg = env['npm_package_json'];
  if (env['npm_lifecycle_event'] !== 'import' || from === undefined || from === '' || pkg === undefined) return undefined;
  const cwd = process.cwd();
  if (resolve(from) === cwd || resolve(dirname(pkg)) !== cwd) return undefined;
  try {
    if (resolve(packageRoot()) !== cwd) return undefined;
  } catch {
    return undefined;
  }
  return existsSync(from) ? resolve(from) : undefined;
}

/**
 * The servers execution would call that are plain http to a host other than loopback: a credential sent there
 * would travel unencrypted, so execution refuses it unless the operator allows it. "Would call" is what
 * resolveBaseUrl picks without a base URL setting: for each operation its own (or its path's) first server on
 * the catalog's origin, else the catalog's first server; without `operations`, the catalog's first server. An
 * http server listed after the https one execution uses is never named. One warning line per catalog, or none.
 */
export function plainHttpWarning(meta: Pick<CatalogMeta, 'name' | 'servers'>, operations: ReadonlyArray<Pick<Operation, 'name' | 'servers'>> = []): string | undefined {
  const plain = new Set<string>();
  const used = operations.length > 0 ? operations : [{ name: meta.name, servers: [] }];
  for (const op of used) {
    let url: URL;
    try {
      // only the fields resolveBaseUrl reads without a base URL setting: the catalog's name and servers, the operation's
      url = resolveBaseUrl(op as Operation, { catalog: meta as CatalogMeta });
    } catch {
      continue; // no server, or one execution refuses for another reason (its own message says which)
    }
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) plain.add(url.href.replace(/\/$/, ''));
  }
  if (plain.size === 0) return undefined;
  const shown = [...plain];
  const https = shown[0]!.replace(/^http:/, 'https:');
  return (
    `WARNING: ${meta.name}'s server ${list(shown, 3)} is plain http: a credential sent there would travel unencrypted, so calls that ` +
    `carry one are refused until you point the catalog at https (${envPrefix(meta.name)}_BASE_URL=${https} or --base-url), or allow it ` +
    `with catalogs.${meta.name}.allowHttpCredentials in the config file (or --allow-http-credentials)`
  );
}

/** Reads the registry's vector files now; the returned function writes them back (after the folder swap). */
export function keepEmbeddings(dir: string): () => void {
  const files = [MANIFEST_FILE, VECTORS_FILE].filter((f) => existsSync(join(dir, f))).map((f) => ({ f, bytes: readFileSync(join(dir, f)) }));
  return () => {
    for (const { f, bytes } of files) if (!existsSync(join(dir, f))) writeFileSync(join(dir, f), bytes);
  };
}

/** Why the stored vectors do not fit the imported operations (or the given model); undefined when they do or there are none and none are wanted. */
export async function staleEmbeddings(dir: string, result: ImportResult, model: string | undefined, dimensions?: number): Promise<string | undefined> {
  if (model === undefined && !existsSync(join(dir, MANIFEST_FILE))) return undefined;
  const { mismatch, operationTexts, readManifest } = await import('../embeddings/store.js');
  try {
    const manifest = readManifest(dir);
    return mismatch(manifest, operationTexts(result.operations).fingerprint, model !== undefined ? { model, ...(dimensions !== undefined ? { dimensions } : {}) } : undefined)?.message;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
