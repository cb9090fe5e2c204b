// Which values of the environment are secrets, for the logger and the explorer to redact: judged by the variable's
// name (credential-like, unless it names a location) and by the value's shape (a URL's password, user name and
// credential-named query values). Reads only the env it is given; never prints or returns a name with its value.

/** Env var names that say they hold a credential. */
const CREDENTIAL_ENV_NAME = /(TOKEN|SECRET|PASSWORD|API_?KEY|CREDENTIAL|AUTH)/i;
/**
 * Names that say where something is, not what the secret is (API_CATALOG_TOKENS_FILE, API_CATALOG_OAUTH_ISSUER):
 * what an operator must read in a log line to fix it, however credential-like the rest of the name.
 */
const LOCATION_ENV_NAME = /_(FILE|PATH|DIR|URL|URI|ISSUER)$/i;

/** The parts of a URL that can hold a credential besides its password: the user name and credential-named query values. */
function credentialPartsOfUrl(value: string): string[] {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return [];
  }
  const parts = url.username !== '' ? [url.username, decodeURIComponent(url.username)] : [];
  for (const [key, v] of url.searchParams) if (v.length >= 4 && /(token|secret|password|key|auth|credential|sig)/i.test(key)) parts.push(v);
  return parts;
}

/**
 * The environment's secret values, to be registered as log secrets: the value of a variable whose name says it holds
 * a credential, unless the name says it is a location (a file, a folder, a URL, an issuer); and the password of any
 * URL with userinfo (API_CATALOG_STATE=redis://:<password>@host, DATABASE_URL): the password, not the whole URL.
 */
export function secretLookingEnv(env: Record<string, string | undefined>): string[] {
  const out = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value === '') continue;
    if (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(value)) {
      try {
        const password = new URL(value).password;
        if (password !== '') {
          out.add(password);
          out.add(decodeURIComponent(password));
        }
      } catch {
        // not a URL after all (or a bad escape in its password): the name decides below
      }
    }
    if (value.length >= 6 && CREDENTIAL_ENV_NAME.test(name) && !LOCATION_ENV_NAME.test(name)) out.add(value);
    // a location named like a credential (GIT_AUTH_URL) stays readable, but what in it can be one is not: a user
    // name standing for a token (https://<token>@host) and credential-named query values (?access_token=…)
    if (CREDENTIAL_ENV_NAME.test(name) && LOCATION_ENV_NAME.test(name)) for (const part of credentialPartsOfUrl(value)) out.add(part);
  }
  return [...out];
}
