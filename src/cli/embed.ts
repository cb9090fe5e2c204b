// `api-catalog embed --registry <dir>`: computes (or checks) the operation vectors of an existing registry with the
// configured embeddings endpoint. Argument parsing, printing and exit codes only; the work is in src/embeddings.
import { checkEmbeddingsFlags, parseCommand, UsageError } from './args.js';
import { relative } from 'node:path';
import { isAppError } from '../errors.js';
import { loadCatalog } from '../registry/catalog.js';
import { EMBEDDINGS_ENV, EmbeddingsClient, embedRegistry, mismatch, operationTexts, readManifest, resolveEmbeddingsConfig } from '../embeddings/index.js';

const USAGE = `usage: api-catalog embed --registry <dir> [--embeddings-url <url>] [--embeddings-model <m>] [options]

Computes the vectors of every operation of a registry with an OpenAI-compatible embeddings endpoint and writes
<dir>/embeddings.json (model, dimensions, fingerprint of the texts) and <dir>/embeddings.bin (float16). Rows whose
text did not change are reused, so re-running after a re-import only embeds what changed.

  --registry <dir>               the catalog folder (registry/<name>)
  --embeddings-url <url>         e.g. https://api.openai.com/v1, http://localhost:11434/v1 (or ${EMBEDDINGS_ENV.url})
  --embeddings-model <m>         e.g. text-embedding-3-small, nomic-embed-text (or ${EMBEDDINGS_ENV.model})
  --embeddings-dimensions <n>    requested vector size, for models that take one (or ${EMBEDDINGS_ENV.dimensions})
  --check                        write nothing; exit 1 when the vectors are missing or stale (for the model, if given)
  --quiet                        print only errors

The key comes from ${EMBEDDINGS_ENV.key} only (${EMBEDDINGS_ENV.auth}=api-key for Azure OpenAI's api-key header).`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseCommand(
    'embed',
    argv,
    {
      registry: { type: 'string' },
      'embeddings-url': { type: 'string' },
      'embeddings-model': { type: 'string' },
      'embeddings-dimensions': { type: 'string' },
      check: { type: 'boolean' },
      quiet: { type: 'boolean' },
      verbose: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    { positionals: false },
  );
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  const registry = values.registry;
  if (registry === undefined) throw new UsageError('embed: --registry <dir> is required (the catalog folder, e.g. registry/github)');
  checkEmbeddingsFlags('embed', values);
  try {
    const catalog = loadCatalog(registry);
    const dir = relative(process.cwd(), catalog.dir) || '.';
    const config = resolveEmbeddingsConfig(
      {
        ...(typeof values['embeddings-url'] === 'string' ? { url: values['embeddings-url'] } : {}),
        ...(typeof values['embeddings-model'] === 'string' ? { model: values['embeddings-model'] } : {}),
        ...(typeof values['embeddings-dimensions'] === 'string' ? { dimensions: values['embeddings-dimensions'] } : {}),
      },
      process.env,
    );
    if (values.check) {
      const manifest = readManifest(catalog.dir);
      const model = config?.model ?? manifest?.model ?? '';
      const why = mismatch(manifest, operationTexts(catalog.operations).fingerprint, config !== undefined ? { model: config.model, ...(config.dimensions !== undefined ? { dimensions: config.dimensions } : {}) } : undefined);
      if (why) {
        process.stderr.write(`api-catalog embed: ${dir}: ${why.message}; run \`api-catalog embed --registry ${dir} --embeddings-url <url> --embeddings-model ${model || '<model>'}\`\n`);
        return 1;
      }
      if (!values.quiet) process.stdout.write(`${dir}: ${manifest?.operations.length} operation vectors from ${model} (${manifest?.dimensions} dimensions) are up to date\n`);
      return 0;
    }
    if (config === undefined) {
      process.stderr.write(`api-catalog embed: no embeddings endpoint; pass --embeddings-url <url> --embeddings-model <m> (or set ${EMBEDDINGS_ENV.url} and ${EMBEDDINGS_ENV.model})\n`);
      return 2;
    }
    const started = performance.now();
    const client = new EmbeddingsClient(config);
    const report = await embedRegistry(catalog.dir, catalog.operations, client, values.quiet ? undefined : (m) => process.stderr.write(`embed: ${m}\n`));
    if (!values.quiet) {
      const secs = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(
        report.unchanged
          ? `${dir}: the ${report.reused} operation vectors from ${config.model} were already up to date\n`
          : `${dir}: embedded ${report.embedded} operation(s), reused ${report.reused}, with ${config.model} (${report.manifest.dimensions} dimensions) in ${secs} s; wrote embeddings.json and embeddings.bin\n`,
      );
    }
    return 0;
  } catch (err) {
    process.stderr.write(`api-catalog embed: ${isAppError(err) ? err.message.replace(/^embeddings: /, '') : `unexpected error: ${err instanceof Error ? err.message : String(err)}`}\n`);
    return 1;
  }
}
