// Where `api-catalog eval` (and the scripts that measure search: learn, eval:sets) finds each catalog of a query
// set: --registry dirs, registry/<c>, .cache/registry/<c> when the spec and the importer build that made it still
// match, else an import of the catalog's spec into .cache/registry/<c>.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../errors.js';
import { importSpec, writeRegistry } from '../importer/index.js';
import { loadCatalog, packageRoot, type Catalog } from '../registry/catalog.js';

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** Where a catalog's spec may ship with the package or a checkout of it: openapi/, then the test fixtures. */
const SPEC_FOLDERS = [['openapi'], ['test', 'fixtures', 'real-specs']];

/** The spec for a catalog: --spec, else <catalog>.{json,yaml,yml} in one of SPEC_FOLDERS of the package. */
function specFor(catalog: string, specs: Map<string, string>): string | undefined {
  const given = specs.get(catalog);
  if (given !== undefined) return resolve(given);
  const root = packageRoot();
  for (const folder of SPEC_FOLDERS) {
    for (const ext of ['json', 'yaml', 'yml']) {
      const candidate = join(root, ...folder, `${catalog}.${ext}`);
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

/** Beside a catalog eval imported into .cache/registry: the importer build that made it (`{"importer": ...}`). */
const IMPORTED_BY = 'imported-by.json';
let importerBuildMemo: string | undefined;

/**
 * The importer build that runs here: the package version and a hash of the importer's code, src/importer/*.ts when
 * run from the sources (the tests), else dist/importer/*.js (what `npm run build` compiled beside the bundle). The
 * spec's hash alone would keep an import that an older importer made after a contributor changed src/importer.
 */
export function importerBuild(): string {
  if (importerBuildMemo !== undefined) return importerBuildMemo;
  const root = packageRoot();
  const ext = fileURLToPath(import.meta.url).endsWith('.ts') ? '.ts' : '.js';
  const dir = join(root, ext === '.ts' ? 'src' : 'dist', 'importer');
  const files = existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith(ext) && !f.endsWith('.d.ts')).sort() : [];
  const hash = createHash('sha256');
  for (const f of files) hash.update(`${f}\0`).update(readFileSync(join(dir, f))).update('\0');
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  return (importerBuildMemo = `${version}+${hash.digest('hex').slice(0, 16)}`);
}

/** The importer build recorded beside a cached import, or undefined (none recorded, or unreadable). */
function importedBy(dir: string): string | undefined {
  try {
    const v = (JSON.parse(readFileSync(join(dir, IMPORTED_BY), 'utf8')) as { importer?: unknown }).importer;
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Why a cached import is not what importing `spec` with this build gives, or undefined when it is. */
function staleBecause(c: Catalog, spec: string | undefined): string | undefined {
  if (spec !== undefined && c.meta.sourceSha256 !== sha256(spec)) return 'its spec changed';
  const made = importedBy(c.dir);
  if (made === undefined) return 'it records no importer build (an older eval imported it)';
  return made === importerBuild() ? undefined : `another importer build made it (${made}; this one is ${importerBuild()})`;
}

/** The catalog for a name (see the usage text for the order); exported for the experiment scripts. */
export async function openCatalog(catalog: string, registries: Catalog[], specs: Map<string, string>): Promise<Catalog> {
  const given = registries.find((c) => c.meta.name === catalog || basename(c.dir) === catalog);
  if (given) return given;
  const root = packageRoot();
  const committed = join(root, 'registry', catalog);
  if (existsSync(join(committed, 'catalog.json')) && !specs.has(catalog)) return loadCatalog(committed);
  const cacheRoot = join(root, '.cache', 'registry');
  const cached = join(cacheRoot, catalog);
  const spec = specFor(catalog, specs);
  let stale: string | undefined;
  if (existsSync(join(cached, 'catalog.json'))) {
    const c = loadCatalog(cached);
    stale = staleBecause(c, spec);
    if (stale === undefined) return c;
    if (spec === undefined) {
      process.stderr.write(`eval: warning: ${cached} may be stale: ${stale}, and no spec is found to import it again (pass --spec ${catalog}=<file>); measuring it as it is\n`);
      return c;
    }
  }
  if (spec === undefined) {
    throw new AppError(
      'REGISTRY_NOT_FOUND',
      `eval: no registry for catalog ${JSON.stringify(catalog)} (looked in registry/${catalog}, .cache/registry/${catalog}) ` +
        `and no spec at openapi/${catalog}.json or test/fixtures/real-specs/${catalog}.json; pass --registry <dir> or --spec ${catalog}=<file>`,
    );
  }
  process.stderr.write(`eval: ${stale === undefined ? 'importing' : 're-importing'} ${catalog} from ${spec} into ${cached}${stale === undefined ? '' : `: ${stale}`}\n`);
  const result = await importSpec(spec, { name: catalog });
  writeRegistry(result, cacheRoot);
  writeFileSync(join(cached, IMPORTED_BY), JSON.stringify({ importer: importerBuild() }) + '\n');
  return loadCatalog(cached);
}
