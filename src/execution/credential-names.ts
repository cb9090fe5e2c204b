// The environment variable NAMES a catalog's credentials are read from (never values): `<CATALOG>_TOKEN`,
// `_USERNAME`, `_PASSWORD`, and for API keys `<CATALOG>_API_KEY`, or one variable per scheme,
// `<CATALOG>_<SCHEME>_API_KEY`, when an operation names several API-key schemes (APISetu's X-APISETU-APIKEY and
// X-APISETU-CLIENTID are sent together and are two different secrets; Intellifi offers a cookie, a header or a query
// key: which one is sent depends on which variable is set). Each name can be replaced by the config's
// `credentials`: `token`, `apiKey`, `username`, `password`, and `apiKey:<scheme>` for one API-key scheme.
import { closest } from '../did-you-mean.js';
import { AppError } from '../errors.js';
import type { CatalogMeta } from '../types.js';
import type { CredentialEnvNames } from './types.js';

/** The key of a per-scheme API-key name in the config's `credentials`: `apiKey:<scheme>`. */
export const API_KEY_SCHEME_KEY = 'apiKey:';

/** `github` -> `GITHUB`, `my-api.v2` -> `MY_API_V2`. */
export function envPrefix(catalogName: string): string {
  return catalogName.toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

/** What naming needs of a catalog: its name, and (for per-scheme API keys) its schemes and the requirements it uses. */
export type NamedCatalog = Pick<CatalogMeta, 'name'> & Partial<Pick<CatalogMeta, 'securitySchemes' | 'securityRequirements'>>;

/** Every credential env var name of a catalog, as the config resolves them. */
export interface CredentialNames extends Required<Pick<CredentialEnvNames, 'token' | 'apiKey' | 'username' | 'password'>> {
  /** API-key scheme -> its own variable (every scheme where separateApiKeys; else the `apiKey:<scheme>` overrides). */
  apiKeys: ReadonlyMap<string, string>;
}

/** The catalog's apiKey schemes, in the order its description declares them. */
export function apiKeySchemes(catalog: NamedCatalog): string[] {
  return Object.entries(catalog.securitySchemes ?? {})
    .filter(([, s]) => s.type === 'apiKey')
    .map(([name]) => name);
}

/** separateApiKeys by catalog.json (asked for every operation list_domains and describe look at). */
const separateCache = new WeakMap<NamedCatalog, boolean>();

/**
 * Whether each of the catalog's API keys has its own variable: some operation names more than one apiKey scheme in
 * its security, required together (APISetu's key and client id) or as alternatives (a cookie, a header or a query
 * key), per catalog.json's securityRequirements. A catalog whose operations each name one (the same key in a header
 * for some, in the query for others) keeps its one variable, as does a registry imported before securityRequirements
 * were recorded.
 */
export function separateApiKeys(catalog: NamedCatalog): boolean {
  let separate = separateCache.get(catalog);
  if (separate === undefined) {
    const keys = new Set(apiKeySchemes(catalog));
    separate = (catalog.securityRequirements ?? []).some((alternatives) => new Set(alternatives.flatMap((r) => Object.keys(r)).filter((s) => keys.has(s))).size > 1);
    separateCache.set(catalog, separate);
  }
  return separate;
}

/** The config's `apiKey:<scheme>` overrides, scheme -> name. */
function schemeOverrides(credentials: CredentialEnvNames | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, name] of Object.entries(credentials ?? {})) {
    if (key.startsWith(API_KEY_SCHEME_KEY) && typeof name === 'string' && name !== '') out.set(key.slice(API_KEY_SCHEME_KEY.length), name);
  }
  return out;
}

/**
 * The default variable of each API-key scheme of a catalog that uses several: `<CATALOG>_<SCHEME>_API_KEY`, the
 * scheme name upper-cased with other characters as `_` (`clientId` -> `MBSE_CLIENTID_API_KEY`). Two schemes that
 * would share a name (`api-key`, `api_key`) are told apart by a number, the later one in declaration order getting it.
 */
function defaultApiKeyNames(catalog: NamedCatalog): Map<string, string> {
  const prefix = envPrefix(catalog.name);
  const out = new Map<string, string>();
  const taken = new Set<string>();
  for (const scheme of apiKeySchemes(catalog)) {
    const base = `${prefix}_${envPrefix(scheme)}`;
    let name = `${base}_API_KEY`;
    for (let n = 2; taken.has(name); n++) name = `${base}_${n}_API_KEY`;
    taken.add(name);
    out.set(scheme, name);
  }
  return out;
}

/**
 * The credential variable names of a catalog: the defaults `<CATALOG>_TOKEN`, `_API_KEY`, `_USERNAME`, `_PASSWORD`
 * and, where separateApiKeys, `<CATALOG>_<SCHEME>_API_KEY` for each API-key scheme; every one replaced by the name
 * the config gives (`apiKey:<scheme>` for one scheme, which otherwise reads `apiKey`). A name that does not fit the
 * catalog (credentialNamesProblem) is not used.
 */
export function credentialNames(config: { catalog: NamedCatalog; credentials?: CredentialEnvNames }): CredentialNames {
  const prefix = envPrefix(config.catalog.name);
  const o = config.credentials ?? {};
  const overrides = schemeOverrides(o);
  const apiKeys = new Map<string, string>();
  if (separateApiKeys(config.catalog)) {
    for (const [scheme, name] of defaultApiKeyNames(config.catalog)) apiKeys.set(scheme, overrides.get(scheme) ?? name);
  } else {
    const declared = new Set(apiKeySchemes(config.catalog));
    for (const [scheme, name] of overrides) if (declared.has(scheme)) apiKeys.set(scheme, name);
  }
  return {
    token: o.token ?? `${prefix}_TOKEN`,
    apiKey: o.apiKey ?? `${prefix}_API_KEY`,
    username: o.username ?? `${prefix}_USERNAME`,
    password: o.password ?? `${prefix}_PASSWORD`,
    apiKeys,
  };
}

/** The variable an apiKey scheme reads: its own, else the catalog's one API-key variable. */
export function apiKeyVariable(scheme: string, names: CredentialNames): string {
  return names.apiKeys.get(scheme) ?? names.apiKey;
}

/** Every variable name a catalog's credentials may be read from (the redactor masks their values). */
export function allCredentialVariables(names: CredentialNames): string[] {
  return [...new Set([names.token, names.apiKey, names.username, names.password, ...names.apiKeys.values()])];
}

/**
 * The API-key scheme an `apiKey:<scheme>` key that names none meant, ranked as every "did you mean" is (closest): the
 * one spelt alike but for case and separators (`clientid`, `client_id` for `clientId`), else the closest a typo away.
 */
function meantScheme(typed: string, schemes: readonly string[]): string | undefined {
  return closest(typed, schemes, 1)[0];
}

/**
 * Why the config's credential names do not fit the catalog, as CONFIG_INVALID, or undefined: the single `apiKey`
 * name for a catalog whose API keys each have their own variable (which one would it be?), or an `apiKey:<scheme>`
 * naming no API-key scheme of the catalog. The start of `serve` and of every command refuses it (settingsFromConfig,
 * naming the file), and so does each call.
 */
export function credentialNamesProblem(config: { catalog: NamedCatalog; credentials?: CredentialEnvNames }): AppError | undefined {
  const o = config.credentials;
  if (o === undefined) return undefined;
  const catalog = config.catalog;
  const section = `catalogs.${catalog.name}.credentials`;
  const schemes = apiKeySchemes(catalog);
  const where = (s: string): string => {
    const info = catalog.securitySchemes?.[s];
    const name = info?.name ?? 'api_key';
    return info?.in === 'query' ? `query parameter ${name}` : info?.in === 'cookie' ? `cookie ${name}` : `header ${name}`;
  };
  const listed = schemes.map((s) => `${s} (${where(s)})`).join(', ');
  const overrides = schemeOverrides(o);
  const unknown = [...overrides.keys()].find((s) => !schemes.includes(s));
  if (unknown !== undefined) {
    const has = schemes.length > 0 ? `its API-key schemes are ${listed}` : 'it has no API-key scheme';
    // scheme names are case-sensitive, as in the API description
    const meant = meantScheme(unknown, schemes);
    const fix = meant !== undefined ? `did you mean "${API_KEY_SCHEME_KEY}${meant}"?` : 'fix the scheme name (as the API description spells it)';
    return new AppError('CONFIG_INVALID', `${section}."${API_KEY_SCHEME_KEY}${unknown}" names no API-key scheme of catalog ${catalog.name}: ${has}; ${fix}`, {
      details: { key: `${section}.${API_KEY_SCHEME_KEY}${unknown}`, apiKeySchemes: schemes },
    });
  }
  if (o.apiKey === undefined) return undefined;
  if (separateApiKeys(catalog)) {
    const defaults = credentialNames({ catalog });
    const example = schemes.map((s) => `"${API_KEY_SCHEME_KEY}${s}": "${apiKeyVariable(s, defaults)}"`).join(', ');
    return new AppError(
      'CONFIG_INVALID',
      `${section}.apiKey names one variable for the catalog's API key, but catalog ${catalog.name} has ${schemes.length} API-key schemes, which its operations name together or as alternatives, so each is read from its own variable: ${listed}. ` +
        `Name one variable per scheme instead, e.g. "credentials": {${example}} (these are the defaults, used when the config names none), and remove "apiKey"`,
      { details: { key: `${section}.apiKey`, apiKeySchemes: schemes } },
    );
  }
  return undefined;
}
