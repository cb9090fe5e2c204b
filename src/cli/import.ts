// `api-catalog import <spec> [options]`: runs the importer library, writes (or checks) the registry, and prints
// progress (stderr), a summary and the per-domain change report. Bad input ends in one clear line and exit 1.
import { parseArgs } from 'node:util';
import { relative } from 'node:path';
import { isAppError } from '../errors.js';
import { checkRegistry, importSpec, writeRegistry } from '../importer/index.js';
import type { DomainChange, ImportResult } from '../importer/index.js';
import { searchSnapshotProblem, writeSearchSnapshot } from '../server/core/catalogs.js';

const USAGE = `usage: api-catalog import <spec file or http(s) URL> [options]

Imports a Swagger 2.0 / OpenAPI 3.0 / 3.1 spec (JSON or YAML) into <out>/<catalog>/.

options:
  --name <catalog>  catalog name [a-z0-9_-]+ (default: the spec's file name, e.g. github.json -> github)
  --out <dir>       registry folder (default: registry)
  --check           write nothing; exit 1 when <out>/<catalog>/ differs from a fresh import or its
                    search.snapshot is missing or stale
  --no-snapshot     do not write <out>/<catalog>/search.snapshot (the server then builds the search
                    index in memory at start-up, with a warning)
  --strict          fail on any import warning (lint findings are reported, not fatal)
  --timeout <s>     give up after this many seconds (default 300)
  --verbose         list every warning; show stack traces on errors
  --quiet           print only errors
  --help            show this help`;

/** At most `max` names, then "and N more". */
function list(names: string[], max = 5): string {
  return names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}

function changeLine(c: DomainChange): string {
  const parts: string[] = [];
  if (c.added.length > 0) parts.push(`+${c.added.length} (${list(c.added)})`);
  if (c.removed.length > 0) parts.push(`-${c.removed.length} (${list(c.removed)})`);
  if (c.changed.length > 0) parts.push(`~${c.changed.length} (${list(c.changed)})`);
  return `  ${c.domain}: ${parts.join(' ')}`;
}

function counts(result: ImportResult): { warnings: number; lint: Record<string, number> } {
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

/** The command that refreshes this registry, for messages. */
function fixCommand(spec: string, name: string | undefined, out: string): string {
  const opts = [name !== undefined ? `--name ${name}` : '', out !== 'registry' ? `--out ${out}` : ''].filter(Boolean).join(' ');
  return `npm run import -- ${spec}${opts ? ' ' + opts : ''}`;
}

export async function run(argv: string[]): Promise<number> {
  let values: { name?: string; out?: string; check?: boolean; 'no-snapshot'?: boolean; strict?: boolean; timeout?: string; verbose?: boolean; quiet?: boolean; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        out: { type: 'string' },
        check: { type: 'boolean' },
        'no-snapshot': { type: 'boolean' },
        strict: { type: 'boolean' },
        timeout: { type: 'string' },
        verbose: { type: 'boolean' },
        quiet: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    process.stderr.write(`api-catalog import: ${(err as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  const spec = positionals[0];
  if (spec === undefined || positionals.length > 1) {
    process.stderr.write(`api-catalog import: ${spec === undefined ? 'missing the spec file or URL' : `one spec at a time (got ${positionals.length})`}\n\n${USAGE}\n`);
    return 2;
  }
  const timeoutS = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeoutS !== undefined && !(Number.isFinite(timeoutS) && timeoutS > 0)) {
    process.stderr.write(`api-catalog import: --timeout must be a number of seconds > 0, got ${JSON.stringify(values.timeout)}\n`);
    return 2;
  }
  const out = values.out ?? 'registry';
  const quiet = values.quiet === true;
  const verbose = values.verbose === true;
  const started = performance.now();
  // Progress only for imports slow enough to need it (large specs, URLs): nothing in the first 500 ms.
  const progress = (msg: string): void => {
    if (!quiet && (verbose || performance.now() - started > 500)) process.stderr.write(`import: ${msg}\n`);
  };
  try {
    const result = await importSpec(spec, {
      ...(values.name !== undefined ? { name: values.name } : {}),
      ...(timeoutS !== undefined ? { timeoutMs: timeoutS * 1000 } : {}),
      strict: values.strict === true,
      onProgress: progress,
    });
    const dir = relative(process.cwd(), `${out}/${result.meta.name}`) || '.';
    if (values.check) {
      const report = checkRegistry(result, out);
      const snapshotProblem = report.upToDate && values['no-snapshot'] !== true ? searchSnapshotProblem(`${out}/${result.meta.name}`) : undefined;
      if (report.upToDate && snapshotProblem === undefined) {
        if (!quiet) process.stdout.write(`${dir} is up to date with ${spec} (${result.operations.length} operations)\n`);
        return 0;
      }
      if (snapshotProblem !== undefined) {
        process.stderr.write(`api-catalog import: ${dir}: ${snapshotProblem}; run \`${fixCommand(spec, values.name, out)}\` and commit the result\n`);
        return 1;
      }
      const what = [
        report.changed.length > 0 ? `changed: ${list(report.changed)}` : '',
        report.missing.length > 0 ? `missing: ${list(report.missing)}` : '',
        report.extra.length > 0 ? `extra: ${list(report.extra)}` : '',
      ].filter(Boolean).join('; ');
      process.stderr.write(`api-catalog import: ${dir} is stale (${what}); run \`${fixCommand(spec, values.name, out)}\` and commit the result\n`);
      return 1;
    }
    const report = writeRegistry(result, out);
    // The search index snapshot next to the registry: the server restores it instead of building the index.
    // Rewritten only when the registry changed or the snapshot does not verify for it.
    let snapshotLine: string | undefined;
    if (values['no-snapshot'] !== true) {
      const catalogDir = `${out}/${result.meta.name}`;
      if (!report.unchanged || searchSnapshotProblem(catalogDir) !== undefined) {
        const snap = writeSearchSnapshot(catalogDir, `api-catalog import`);
        snapshotLine = `search index snapshot: ${relative(process.cwd(), snap.path) || snap.path} (${(snap.bytes / 1024).toFixed(0)} KiB, built in ${(snap.ms / 1000).toFixed(1)} s)`;
      }
    }
    if (quiet) return 0;
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    const c = counts(result);
    const lint = Object.entries(c.lint).map(([k, v]) => `${v} ${k}`).join(', ');
    const lines = [
      `imported ${result.operations.length} operations in ${result.meta.domains.length} domains from ${result.meta.source} into ${dir} in ${secs} s`,
      `${c.warnings} warning(s); lint: ${lint}${result.diagnostics.length > 0 ? ` (details: ${dir}/diagnostics.json)` : ''}`,
    ];
    const shown = verbose ? result.diagnostics : result.diagnostics.filter((d) => !d.code.startsWith('LINT_')).slice(0, 5);
    for (const d of shown) lines.push(`  ${d.code} ${d.pointer}: ${d.message}`);
    if (!verbose && c.warnings > shown.length) lines.push(`  ... ${c.warnings - shown.length} more (--verbose lists all)`);
    if (report.hadPrevious) {
      if (report.unchanged) lines.push('no changes: the registry was already up to date');
      else if (report.changes.length === 0) lines.push('changes: catalog metadata or diagnostics only');
      else {
        lines.push('changes per domain (+added -removed ~changed):');
        for (const ch of report.changes) lines.push(changeLine(ch));
      }
    }
    if (snapshotLine !== undefined) lines.push(snapshotLine);
    if (report.serversChanged) {
      lines.push(`WARNING: the API's servers changed from ${report.serversChanged.before.join(', ') || '(none)'} to ${report.serversChanged.after.join(', ') || '(none)'}; review before deploying`);
    }
    process.stdout.write(lines.join('\n') + '\n');
    return 0;
  } catch (err) {
    if (isAppError(err)) {
      process.stderr.write(`api-catalog import: ${err.message.replace(/^import: /, '')}\n`);
      if (verbose && Array.isArray(err.details)) {
        for (const d of err.details as Array<{ code: string; pointer: string; message: string }>) process.stderr.write(`  ${d.code} ${d.pointer}: ${d.message}\n`);
      }
    } else {
      process.stderr.write(`api-catalog import: unexpected error: ${err instanceof Error ? err.message : String(err)}\n`);
    }
    if (verbose && err instanceof Error && err.stack) process.stderr.write(err.stack + '\n');
    return 1;
  }
}
