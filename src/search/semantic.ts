// Which learned ranking build searches rank with. The built-in one is compiled in (weights.ts, written by `npm run
// learn`); `npm run learn -- --exclude <ids> --out <dir>` writes another as <dir>/weights.json, and
// API_CATALOG_SEMANTIC_DIR=<dir> makes every command (import, serve, search, eval) rank with it instead: set once
// at start by the CLI (cli/main.ts), read by SearchIndex when it is built or restored. That is how an API is kept
// out of training and then measured with weights that never saw it. Reads one small file; prints nothing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../errors.js';
import { suggestNames } from '../registry/suggest.js';
import { COVERAGE_POWER, SIGNALS } from './signals.js';
import { LEARNED_WEIGHTS } from './weights.js';

/** The file a learned build folder holds. */
export const WEIGHTS_FILE = 'weights.json';
/** Its `format` field. */
export const WEIGHTS_FORMAT = 'api-catalog-weights/1';
/** The environment variable naming a learned build folder. */
export const SEMANTIC_DIR_ENV = 'API_CATALOG_SEMANTIC_DIR';

/** Learned ranking weights and where they came from. */
export interface RankingWeights {
  /** By signal name, plus `retrieval` and `coverage-power` (SearchTuning.signalWeights). */
  weights: Readonly<Record<string, number>>;
  /** The folder they were read from; absent for the built-in weights. */
  dir?: string;
}

const BUILT_IN: RankingWeights = { weights: LEARNED_WEIGHTS };
let active: RankingWeights = BUILT_IN;

/** The weights searches rank with now. */
export function rankingWeights(): RankingWeights {
  return active;
}

/** Weight names a build may set: the retrieval score's power, the coverage curve's power and each signal's. */
export function weightNames(): string[] {
  return ['retrieval', COVERAGE_POWER, ...SIGNALS.map((s) => s.name)];
}

/**
 * Reads and checks `<dir>/weights.json`. Throws CONFIG_INVALID naming the folder and what is wrong: no such file
 * (with the command that writes one), not JSON, not this format, an unknown weight or one that is not a number >= 0.
 */
export function readWeightsDir(dir: string): RankingWeights {
  const file = join(dir, WEIGHTS_FILE);
  const where = `${SEMANTIC_DIR_ENV}=${dir}`;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new AppError('CONFIG_INVALID', `${where}: no ${WEIGHTS_FILE} there; write one with \`npm run learn -- --out ${dir}\``);
    }
    throw new AppError('CONFIG_INVALID', `${where}: cannot read ${file}: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new AppError('CONFIG_INVALID', `${where}: ${file} is not JSON (${(err as Error).message})`);
  }
  const body = data as { format?: unknown; weights?: unknown } | null;
  if (body === null || typeof body !== 'object' || body.format !== WEIGHTS_FORMAT) {
    throw new AppError('CONFIG_INVALID', `${where}: ${file} is not a learned build of \`npm run learn\` (its "format" must be "${WEIGHTS_FORMAT}")`);
  }
  const weights = body.weights;
  if (weights === null || typeof weights !== 'object' || Array.isArray(weights)) {
    throw new AppError('CONFIG_INVALID', `${where}: ${file} has no "weights" object`);
  }
  const known = weightNames();
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(weights as Record<string, unknown>)) {
    if (!known.includes(name)) {
      const close = suggestNames(name, known, 1)[0];
      throw new AppError('CONFIG_INVALID', `${where}: ${file} sets an unknown weight "${name}"${close === undefined ? '' : `; did you mean "${close}"?`} (known: ${known.join(', ')})`);
    }
    const positive = name === COVERAGE_POWER;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (positive && value === 0)) {
      throw new AppError('CONFIG_INVALID', `${where}: ${file} weight "${name}" must be a number ${positive ? '> 0' : '>= 0'}, got ${JSON.stringify(value)}`);
    }
    out[name] = value;
  }
  return { weights: Object.freeze(out), dir };
}

/** Ranks with the build in `dir` from now on (checked first: a bad folder changes nothing); undefined or '': the built-in one. */
export function useSemanticDir(dir: string | undefined): RankingWeights {
  active = dir === undefined || dir === '' ? BUILT_IN : readWeightsDir(dir);
  return active;
}
