// Resolving the option table (./options.ts) from its three sources: `serve` flags, environment variables and the
// config file's `serve` section, in that precedence, each value turned from text where needed and validated by its
// option's schema. Reads only what it is given; throws CONFIG_INVALID naming the source (and the value, unless secret).
import type * as z from 'zod';
import { AppError } from '../errors.js';
import { SERVE_OPTIONS, flagKey, type OptionSpec, type ResolvedOptions, type ServeFlags } from './options.js';
import { fromConfigFolder, type ConfigFile } from './file.js';

/** Where a value came from, for error messages: `--port`, `API_CATALOG_PORT`, `config file x.json: serve.http.port`. */
export type Source = { name: string; raw: unknown };

function envValue(o: OptionSpec, raw: string): unknown {
  switch (o.type) {
    case 'integer':
      return /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw;
    case 'boolean': {
      // Only the usual spellings count: anything else is a mistake, refused, not read as off (READ_ONLY=enabled
      // must never start a server that writes).
      const v = raw.trim().toLowerCase();
      const on = ['1', 'true', 'yes', 'on'].includes(v);
      if (!on && !['0', 'false', 'no', 'off'].includes(v)) {
        throw new AppError('CONFIG_INVALID', `config: ${o.env} must be 1, true, yes or on (or 0, false, no, off), got ${JSON.stringify(raw.slice(0, 200))}`);
      }
      return o.envNegate ? !on : on;
    }
    case 'list':
      return raw.split(o.separator ?? ',').map((v) => v.trim()).filter(Boolean);
    default:
      return raw;
  }
}

function flagValue(o: OptionSpec, raw: unknown): unknown {
  if (o.type === 'integer' && typeof raw === 'string') return /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw;
  if (o.type === 'list' && typeof raw === 'string') return [raw];
  if (o.type === 'boolean' && o.negate) return raw === false ? false : raw;
  return raw;
}

/** Reads `a.b.c` from a nested object (own properties only). */
function atPath(obj: Record<string, unknown> | undefined, path: string): unknown {
  let cur: unknown = obj;
  for (const p of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, p)) return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

/** Validates one value against its option's schema; CONFIG_INVALID names the source and (unless secret) the value. */
export function validated(o: OptionSpec, value: unknown, source: Source): unknown {
  const r = (o.schema as z.ZodType).safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const item = issue && typeof issue.path[0] === 'number' && Array.isArray(value) ? (value[issue.path[0]] as unknown) : undefined;
  const why = issue?.message ?? 'is invalid';
  if (o.secret) throw new AppError('CONFIG_INVALID', `config: ${source.name} ${why}`);
  const shown = (v: unknown): string => JSON.stringify(typeof v === 'string' ? v.slice(0, 200) : v);
  if (item !== undefined) throw new AppError('CONFIG_INVALID', `config: ${source.name} value ${shown(item)} ${why}`);
  throw new AppError('CONFIG_INVALID', `config: ${source.name} ${why}, got ${shown(source.raw)}`);
}

/**
 * Every option of SERVE_OPTIONS from flags, env and the file's `serve` section (first set source wins; `concat`
 * lists join all sources), validated by the option's schema, else its default. HTTP-only options are resolved
 * only with `--http`. A relative path (options marked `path`) from the file is made absolute against the file's
 * folder; from a flag or env var it stays as given (relative to the current directory).
 */
export function resolveOptions(flags: ServeFlags, env: Record<string, string | undefined>, file?: ConfigFile): ResolvedOptions {
  const out: Record<string, unknown> = {};
  const f = flags as Record<string, unknown>;
  for (const o of SERVE_OPTIONS as readonly OptionSpec[]) {
    if (o.http && f.http !== true) continue;
    const sources: Source[] = [];
    if (o.flag !== undefined && f[flagKey(o.flag)] !== undefined) sources.push({ name: o.flag, raw: f[flagKey(o.flag)] });
    if (o.env !== undefined && env[o.env] !== undefined && env[o.env] !== '') sources.push({ name: o.env, raw: env[o.env] });
    const fromFile = o.file !== undefined && file !== undefined ? atPath(file.serve, o.file.replace(/^serve\./, '')) : undefined;
    if (fromFile !== undefined) sources.push({ name: `config file ${file!.file}: ${o.file}`, raw: fromFile });
    const value = (s: Source): unknown => {
      if (s.name === o.flag) return validated(o, flagValue(o, s.raw), s);
      if (s.name === o.env) return validated(o, envValue(o, s.raw as string), s);
      // a path in the file is relative to the file's folder (a desktop client starts the server anywhere)
      const v = validated(o, s.raw, s);
      return o.path !== undefined ? fromConfigFolder(file as ConfigFile, v, o.path.keep) : v;
    };
    if (o.concat && o.type === 'list') out[o.name] = sources.flatMap((s) => value(s) as unknown[]);
    else if (sources[0] !== undefined) out[o.name] = value(sources[0]);
    else if (o.default !== undefined) out[o.name] = Array.isArray(o.default) ? [...(o.default as unknown[])] : o.default;
  }
  return out as ResolvedOptions;
}
