// `api-catalog import <spec> [options]`: runs the importer library, writes (or checks) the registry, and prints
// progress (stderr), a summary and the per-domain change report. Bad input ends in one clear line and exit 1.
import { existsSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { AppError, isAppError } from '../errors.js';
import { catalogNameFor, checkRegistry, importDeadline, importedCounts, importSpec, IMPORT_TIMEOUT_MS } from '../importer/index.js';
import { previousOperations, removedOperations, stageRegistry, sweepInterruptedWrites, type StagedRegistry, type WriteReport } from '../importer/write.js';
import { MANIFEST_FILE, VECTORS_FILE } from '../embeddings/store.js';
import { searchSnapshotProblem, writeSearchSnapshot } from '../server/core/catalogs.js';
import { checkEmbeddingsFlags, isUsageError, parseCommand, UsageError } from './args.js';
import { prepareOutDir } from './out-dir.js';
import { selfCommand } from './self-command.js';
import { shellWord } from './shell.js';
import { displayLines, overlayLines, overlaysOf, readMeta, recordedDisplay, recordedOverlays } from './import-recorded.js';
import { inServerEnvNamespace, serverNamespaceMessage } from '../execution/auth.js';
import { shownPointer } from '../importer/overlay.js';
import {
  changeLine, counts, fixCommand, keepEmbeddings, list, MASS_REMOVAL_MIN, MASS_REMOVAL_SHARE, nextTurn, npmInvokedFrom, onInterrupt,
  plainHttpWarning, SIGNAL_EXIT, staleEmbeddings,
} from './import-support.js';

export { plainHttpWarning } from './import-support.js';

const USAGE = `usage: api-catalog import <spec file or http(s) URL> [options]

Imports a Swagger 2.0 / OpenAPI 3.0 / 3.1 spec (JSON or YAML) into <out>/<catalog>/.

options:
  --name <catalog>  catalog name [a-z0-9_-]+ (default: the spec's file name, e.g. github.json -> github)
  --out <dir>       registry folder (default: registry)
  --overlay <file>  apply an OpenAPI Overlay 1.0 document (YAML or JSON) to the spec first; repeatable,
                    applied in order. Recorded in catalog.json (path relative to the catalog folder, sha256)
  --title <text>    the catalog's display name for agents and people (list_domains, the start banner, the
                    explorer), over the spec's info.x-api-catalog-title and info.title; recorded in catalog.json
  --description <text>  the catalog's one-paragraph description, over info.x-api-catalog-description and
                    info.description; recorded in catalog.json
  --check           write nothing; exit 1 when <out>/<catalog>/ differs from a fresh import or its
                    search.snapshot is missing or stale. Without --overlay it re-applies the overlays
                    catalog.json records; with --overlay, exactly those. Likewise --title and --description
  --no-snapshot     do not write <out>/<catalog>/search.snapshot (the server then builds the search
                    index in memory at start-up, with a warning)
  --strict          fail on any import warning, including an overlay target that matches nothing
                    (lint findings are reported, not fatal)
  --allow-removals  let a re-import remove more than half of the catalog's operations (at least 5);
                    without it such an import is refused and the registry kept, as a spec cut short
                    or the wrong file would otherwise replace most of the catalog
  --timeout <s>     give up after this many seconds (default 300), checked while importing and between
                    the steps that write the registry and its search snapshot; the registry is then kept
  --embeddings-url <url>       also embed every operation with this OpenAI-compatible endpoint
                               (or env API_CATALOG_EMBEDDINGS_URL; key from API_CATALOG_EMBEDDINGS_KEY only)
  --embeddings-model <m>       the embedding model (or env API_CATALOG_EMBEDDINGS_MODEL)
  --embeddings-dimensions <n>  requested vector size, for models that take one
                               Vectors of unchanged operations are reused; without an endpoint, existing
                               vectors are kept and --check reports them when the operations changed.
  --verbose         list every warning; show stack traces on errors
  --quiet           print only errors
  --help            show this help`;

export async function run(argv: string[]): Promise<number> {
  let values: {
    name?: string; out?: string; overlay?: string[]; title?: string; description?: string; check?: boolean; 'no-snapshot'?: boolean; strict?: boolean; 'allow-removals'?: boolean; timeout?: string; verbose?: boolean; quiet?: boolean; help?: boolean;
    'embeddings-url'?: string; 'embeddings-model'?: string; 'embeddings-dimensions'?: string;
  };
  let positionals: string[];
  ({ values, positionals } = parseCommand('import', argv, {
    name: { type: 'string' },
    out: { type: 'string' },
    overlay: { type: 'string', multiple: true },
    title: { type: 'string' },
    description: { type: 'string' },
    check: { type: 'boolean' },
    'no-snapshot': { type: 'boolean' },
    strict: { type: 'boolean' },
    'allow-removals': { type: 'boolean' },
    timeout: { type: 'string' },
    'embeddings-url': { type: 'string' },
    'embeddings-model': { type: 'string' },
    'embeddings-dimensions': { type: 'string' },
    verbose: { type: 'boolean' },
    quiet: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  }));
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  const spec = positionals[0];
  // an empty name (`import ""`, `import "$SPEC"` with SPEC unset) is no spec at all, not a file called ""
  if (spec === undefined || spec.trim() === '' || positionals.length > 1) {
    throw new UsageError(
      `import: ${spec === undefined || (spec.trim() === '' && positionals.length === 1) ? 'give the spec file or http(s) URL, e.g. api-catalog import openapi/github.json' : `one spec at a time (got ${positionals.length}: ${positionals.map((p) => JSON.stringify(p)).join(' ')})`}`,
    );
  }
  const timeoutS = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeoutS !== undefined && !(Number.isFinite(timeoutS) && timeoutS > 0)) {
    throw new UsageError(`import: --timeout must be a number of seconds > 0, got ${JSON.stringify(values.timeout)}`);
  }
  for (const [flag, value] of [['--title', values.title], ['--description', values.description]] as const) {
    if (value !== undefined && value.trim() === '') {
      throw new UsageError(`import: ${flag} needs a non-empty value, e.g. ${flag === '--title' ? '--title "SendGrid v3"' : '--description "Send email and manage contacts."'}`);
    }
  }
  if (values.name !== undefined) {
    try {
      catalogNameFor(spec, values.name);
    } catch (err) {
      if (!isAppError(err)) throw err;
      throw new UsageError(`import: --name: ${err.message.replace(/^import: /, '')}`);
    }
  }
  // a name in the server's own env namespace would take its credentials from the server's secrets
  const named = catalogNameFor(spec, values.name);
  if (inServerEnvNamespace(named)) throw new UsageError(`import: ${serverNamespaceMessage(named)}`);
  checkEmbeddingsFlags('import', values);
  // `npm run import -- <paths>` from a subfolder: the paths are the user's, relative to where they typed them, so
  // the import runs from there (every path it reads, writes and prints). The default registry stays the
  // package's own registry/ (as from the root), named by a path that works from there.
  const npmFrom = npmInvokedFrom();
  const defaultOut = npmFrom !== undefined ? relative(npmFrom, resolve('registry')) : 'registry';
  if (npmFrom !== undefined) process.chdir(npmFrom);
  const out = values.out ?? defaultOut;
  // --out for the commands printed: as given; the default when it is not `registry` from here
  const outShown = values.out ?? (defaultOut !== 'registry' ? defaultOut : undefined);
  const quiet = values.quiet === true;
  const verbose = values.verbose === true;
  const started = performance.now();
  let overlays: Array<{ file: string; label: string }> = [];
  // removes the signal listeners the write installs (below); called however run() ends
  let releaseSignals = (): void => {};
  // Progress only for imports slow enough to need it (large specs, URLs): nothing in the first 500 ms. The
  // importer's last step says "imported N operations"; nothing is written yet then, so it is said as found.
  const progress = (msg: string): void => {
    if (!quiet && (verbose || performance.now() - started > 500)) process.stderr.write(`import: ${msg.replace(/^imported /, 'found ')}\n`);
  };
  try {
    // --out is checked (and made) before the import runs: a file, or a place no folder can be written, fails now.
    const makeOutDir = prepareOutDir(out, { check: values.check === true });
    // What imports into this folder left when they were killed mid-write: gone before this one starts (--check writes nothing).
    if (!values.check) for (const line of sweepInterruptedWrites(out)) if (!quiet) process.stderr.write(`import: ${line}\n`);
    // Recorded overlay paths are relative to the catalog folder, so a registry and its overlays can move together.
    const catalogDir = resolve(out, catalogNameFor(spec, values.name));
    const given = values.overlay ?? [];
    // `file` is how messages name an overlay: as given, or a recorded one as it resolves from here
    overlays =
      given.length > 0 || !values.check
        ? given.map((file) => ({ file, label: relative(catalogDir, resolve(file)).split(sep).join('/') }))
        : recordedOverlays(catalogDir).map((o) => ({ ...o, file: relative(process.cwd(), o.file) || o.file }));
    if (values.check && given.length === 0 && overlays.length > 0 && !quiet) {
      process.stderr.write(`import: re-applying the overlays catalog.json records: ${overlays.map((o) => o.file).join(', ')}\n`);
    }
    // --title / --description as given; --check without them re-applies what catalog.json records, like overlays.
    const recorded = values.check ? recordedDisplay(resolve(catalogDir, 'catalog.json')) : {};
    const title = values.title ?? recorded.title;
    const description = values.description ?? recorded.description;
    if (values.check && !quiet) {
      const reapplied = [values.title === undefined && recorded.title !== undefined ? '--title' : '', values.description === undefined && recorded.description !== undefined ? '--description' : ''].filter(Boolean);
      if (reapplied.length > 0) process.stderr.write(`import: re-applying the ${reapplied.join(' and ')} catalog.json records\n`);
    }
    // Resolved before the import so that a bad embeddings setting fails fast; loaded only when configured.
    const embeddingsWanted = values['embeddings-url'] !== undefined || values['embeddings-model'] !== undefined || !!process.env.API_CATALOG_EMBEDDINGS_URL;
    const embeddings = embeddingsWanted ? await import('../embeddings/index.js') : undefined;
    const embeddingsConfig = embeddings?.resolveEmbeddingsConfig(
      {
        ...(values['embeddings-url'] !== undefined ? { url: values['embeddings-url'] } : {}),
        ...(values['embeddings-model'] !== undefined ? { model: values['embeddings-model'] } : {}),
        ...(values['embeddings-dimensions'] !== undefined ? { dimensions: values['embeddings-dimensions'] } : {}),
      },
      process.env,
    );
    // --timeout bounds the whole command up to the registry swap: importSpec checks it while it builds, and the
    // steps below (staging, the search snapshot) check the same deadline between them (overrun).
    const checkDeadline = importDeadline(timeoutS !== undefined ? timeoutS * 1000 : IMPORT_TIMEOUT_MS, spec);
    const result = await importSpec(spec, {
      ...(values.name !== undefined ? { name: values.name } : {}),
      ...(overlays.length > 0 ? { overlays } : {}),
      ...(title !== undefined ? { title } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(timeoutS !== undefined ? { timeoutMs: timeoutS * 1000 } : {}),
      strict: values.strict === true,
      onProgress: progress,
    });
    const dir = relative(process.cwd(), `${out}/${result.meta.name}`) || '.';
    // past the deadline: the staged folder (if any) goes, the registry stays as it was, and the message says so
    let staged: StagedRegistry | undefined;
    const overrun = (stage: string): void => {
      try {
        checkDeadline(stage);
      } catch (err) {
        staged?.abort();
        if (!isAppError(err)) throw err;
        throw new AppError(err.code, `${err.message}. Nothing was written: ${dir} is as it was`);
      }
    };
    if (values.check) {
      const checked = checkRegistry(result, out);
      // The vectors are not part of the rendered registry: checked on their own below.
      const extra = checked.extra.filter((f) => f !== MANIFEST_FILE && f !== VECTORS_FILE);
      const report = { ...checked, extra, upToDate: checked.upToDate || (checked.missing.length === 0 && checked.changed.length === 0 && extra.length === 0) };
      const staleVectors = report.upToDate ? await staleEmbeddings(join(out, result.meta.name), result, embeddingsConfig?.model, embeddingsConfig?.dimensions) : undefined;
      if (staleVectors !== undefined) {
        process.stderr.write(`api-catalog import: ${dir}: ${staleVectors}; run \`api-catalog embed --registry ${dir} --embeddings-url <url> --embeddings-model <model>\`\n`);
        return 1;
      }
      if (report.upToDate && values['no-snapshot'] !== true) overrun('checking the search index snapshot');
      const snapshotProblem = report.upToDate && values['no-snapshot'] !== true ? searchSnapshotProblem(`${out}/${result.meta.name}`) : undefined;
      if (report.upToDate && snapshotProblem === undefined) {
        if (!quiet) process.stdout.write(`${dir} is up to date with ${spec} (${result.operations.length} operations)\n`);
        return 0;
      }
      const used = overlays.map((o) => relative(process.cwd(), o.file).split(sep).join('/') || o.file);
      if (snapshotProblem !== undefined) {
        process.stderr.write(`api-catalog import: ${dir}: ${snapshotProblem}; run \`${fixCommand(spec, values.name, outShown, used, result.meta.importArgs)}\` and commit the result\n`);
        return 1;
      }
      const what = [
        report.changed.length > 0 ? `changed: ${list(report.changed)}` : '',
        report.missing.length > 0 ? `missing: ${list(report.missing)}` : '',
        report.extra.length > 0 ? `extra: ${list(report.extra)}` : '',
      ].filter(Boolean).join('; ');
      process.stderr.write(`api-catalog import: ${dir} is stale (${what}); run \`${fixCommand(spec, values.name, outShown, used, result.meta.importArgs)}\` and commit the result\n`);
      return 1;
    }
    // read once: the mass-removal guard here and the change report (stageRegistry) compare against the same operations
    const previous = previousOperations(out, result.meta.name);
    const removal = values['allow-removals'] === true ? undefined : removedOperations(result, previous);
    if (removal !== undefined && removal.removed.length >= MASS_REMOVAL_MIN && removal.removed.length > removal.before * MASS_REMOVAL_SHARE) {
      process.stderr.write(
        `api-catalog import: refusing to replace ${dir}: this import would remove ${removal.removed.length} of its ${removal.before} operations ` +
          `(${list(removal.removed)}), more than half of them. If the API really dropped them, run it again with --allow-removals; ` +
          `if not, check that ${spec} is the whole spec of this API (not cut short, not another API's). ${dir} is unchanged\n`,
      );
      return 1;
    }
    makeOutDir();
    // The swap replaces the whole folder: keep the stored vectors across it (embedRegistry reuses unchanged rows).
    const kept = keepEmbeddings(join(out, result.meta.name));
    const previousOverlays = overlaysOf(resolve(catalogDir, 'catalog.json'));
    const previousMeta = readMeta(resolve(catalogDir, 'catalog.json'));
    // Ctrl-C or SIGTERM from here on: before the swap, the temporary folder goes and the registry stays as it was;
    // after it, the registry is whole and only what follows (vectors, the report) is skipped. Installed before the
    // temporary folder exists, so none is ever left behind by a signal. The write runs in steps with a turn of
    // the event loop between them (nextTurn), where a signal that came during a step is acted on.
    let report: WriteReport | undefined;
    releaseSignals = onInterrupt((signal) => {
      staged?.abort();
      process.stderr.write(
        `api-catalog import: interrupted (${signal}); ${report === undefined ? `${dir} is unchanged` : `${dir} was already written${embeddings !== undefined ? ', its vectors may not be' : ''}`}\n`,
      );
      process.exit(SIGNAL_EXIT[signal]);
    });
    overrun('writing the registry');
    staged = stageRegistry(result, out, previous);
    await nextTurn();
    overrun('writing the registry');
    // The search index snapshot next to the registry: the server restores it instead of building the index. Written
    // into the new folder before it is swapped in, so a running server that reloads sees both together.
    let snap: ReturnType<typeof writeSearchSnapshot> | undefined;
    const withSnapshot = values['no-snapshot'] !== true;
    if (withSnapshot && staged.tmp !== undefined) {
      try {
        snap = writeSearchSnapshot(staged.tmp, 'api-catalog import');
      } catch (err) {
        staged.abort();
        throw err;
      }
      await nextTurn();
      // the snapshot is built in one synchronous step (SearchIndex.build): checked before and after, not inside
      overrun('building the search index snapshot');
    }
    report = staged.commit();
    kept();
    let embedLine: string | undefined;
    if (embeddings !== undefined && embeddingsConfig !== undefined) {
      const client = new embeddings.EmbeddingsClient(embeddingsConfig);
      let e: Awaited<ReturnType<typeof embeddings.embedRegistry>>;
      try {
        e = await embeddings.embedRegistry(join(out, result.meta.name), result.operations, client, progress);
      } catch (err) {
        // The registry itself is written and usable (search stays lexical until the vectors exist).
        const why = isAppError(err) ? err.message.replace(/^embeddings: /, '') : String(err);
        process.stderr.write(
          `api-catalog import: ${dir} is written (${result.operations.length} operations), but its vectors are not: ${why}. ` +
            `Search stays lexical; when the endpoint works, run \`api-catalog embed --registry ${dir}\` with the same settings\n`,
        );
        return 1;
      }
      embedLine = e.unchanged
        ? `embeddings: the ${e.reused} operation vectors from ${embeddingsConfig.model} are up to date`
        : `embeddings: embedded ${e.embedded} operation(s), reused ${e.reused}, with ${embeddingsConfig.model} (${e.manifest.dimensions} dimensions)`;
    }
    // An unchanged registry was not swapped: its snapshot is rewritten in place when it does not verify.
    let snapshotLine: string | undefined;
    if (withSnapshot) {
      const snapDir = `${out}/${result.meta.name}`;
      if (report.unchanged) overrun('checking the search index snapshot');
      if (report.unchanged && searchSnapshotProblem(snapDir) !== undefined) snap = writeSearchSnapshot(snapDir, `api-catalog import`);
      if (snap !== undefined) {
        const path = join(snapDir, basename(snap.path));
        snapshotLine = `search index snapshot: ${relative(process.cwd(), path) || path} (${(snap.bytes / 1024).toFixed(0)} KiB, built in ${(snap.ms / 1000).toFixed(1)} s)`;
      }
    }
    if (quiet) return 0;
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    const c = counts(result);
    const lint = Object.entries(c.lint).map(([k, v]) => `${v} ${k}`).join(', ');
    const lines = [
      `${importedCounts(result.operations.length, result.meta.domains.length)} from ${result.meta.source} into ${dir} in ${secs} s`,
      `${c.warnings} warning(s); lint: ${lint}${result.diagnostics.length > 0 ? ` (details: ${dir}/diagnostics.json)` : ''}`,
    ];
    const shown = verbose ? result.diagnostics : result.diagnostics.filter((d) => !d.code.startsWith('LINT_')).slice(0, 5);
    for (const d of shown) lines.push(`  ${d.code} ${shownPointer(d.pointer, overlays)}: ${d.message}`);
    if (!verbose && c.warnings > shown.length) lines.push(`  ... ${c.warnings - shown.length} more (--verbose lists all)`);
    if (report.hadPrevious) {
      if (report.unchanged) lines.push('no changes: the registry was already up to date');
      else if (report.changes.length === 0) lines.push('changes: catalog metadata or diagnostics only');
      else {
        lines.push('changes per domain (+added -removed ~changed):');
        for (const ch of report.changes) lines.push(changeLine(ch));
      }
      if (!report.unchanged) lines.push(`(this report is kept in ${dir}/changes.json for the explorer page)`);
    }
    if (snapshotLine !== undefined) lines.push(snapshotLine);
    if (report.serversChanged) {
      lines.push(`WARNING: the API's servers changed from ${report.serversChanged.before.join(', ') || '(none)'} to ${report.serversChanged.after.join(', ') || '(none)'}; review before deploying`);
    }
    const plainHttp = plainHttpWarning(result.meta, result.operations);
    if (plainHttp !== undefined) lines.push(plainHttp);
    if (embedLine !== undefined) lines.push(embedLine);
    else {
      const stale = await staleEmbeddings(join(out, result.meta.name), result, undefined);
      if (stale !== undefined && existsSync(join(out, result.meta.name, MANIFEST_FILE))) {
        lines.push(`WARNING: ${stale}; search falls back to lexical until you run \`api-catalog embed --registry ${dir} --embeddings-url <url> --embeddings-model <model>\``);
      }
    }
    const overlaysNow = result.meta.overlays ?? [];
    if (previousOverlays !== undefined && JSON.stringify(previousOverlays) !== JSON.stringify(overlaysNow)) {
      lines.push(...overlayLines(catalogDir, { before: previousOverlays, after: overlaysNow }));
    }
    lines.push(...displayLines(previousMeta, result.meta));
    if (result.meta.renamed) {
      const pairs = Object.entries(result.meta.renamed).map(([from, to]) => `${from} -> ${to}`);
      lines.push(`${pairs.length} operation(s) renamed (x-api-catalog-name): ${list(pairs, 3)}`);
    }
    if (result.meta.hiddenOperations) lines.push(`${result.meta.hiddenOperations} operation(s) hidden (x-api-catalog-hidden): not in the registry`);
    if (!report.hadPrevious) {
      // as a command that runs from here: `api-catalog` once installed, `node dist/cli/index.js` in a clone (self-command.ts)
      const self = selfCommand();
      lines.push(`serve it: ${self} serve --registry ${shellWord(dir)}   (or try: ${self} search "<request>" --registry ${shellWord(dir)})`);
    }
    process.stdout.write(lines.join('\n') + '\n');
    return 0;
  } catch (err) {
    if (isUsageError(err)) throw err;
    if (isAppError(err)) {
      process.stderr.write(`api-catalog import: ${err.message.replace(/^import: /, '')}\n`);
      if (verbose && Array.isArray(err.details)) {
        for (const d of err.details as Array<{ code: string; pointer: string; message: string }>) process.stderr.write(`  ${d.code} ${shownPointer(d.pointer, overlays)}: ${d.message}\n`);
      }
    } else {
      process.stderr.write(`api-catalog import: unexpected error: ${err instanceof Error ? err.message : String(err)}\n`);
    }
    if (verbose && err instanceof Error && err.stack) process.stderr.write(err.stack + '\n');
    return 1;
  } finally {
    releaseSignals();
  }
}
