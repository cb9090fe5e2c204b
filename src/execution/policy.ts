// The agent's next step for a refusal by operator policy. Its own module, free of Ajv, RE2 and JMESPath, so that
// the server's envelope can use it without loading the executor at start-up (it loads on the first execute_tool).
import { isAppError } from '../errors.js';

/**
 * The agent's next step for a refusal by operator policy (F7 origins, F10 private addresses, a credential over
 * plain http) or configuration (a base URL carrying userinfo), which no change of arguments can fix; undefined for
 * any other error.
 */
export function policyInstruction(err: unknown): string | undefined {
  if (isAppError(err) && err.code === 'CONFIG_INVALID') {
    const details = err.details as { reason?: unknown; credentialEnv?: unknown; source?: unknown } | undefined;
    if (details?.reason === 'cookie-credential') {
      // a cookie credential with a character no cookie can carry (request.ts): the value is the operator's to fix
      const source = typeof details.source === 'string' ? details.source : 'the credential';
      return `Tell the user that ${source} holds a character a cookie cannot carry (see the message): it must be the cookie's value exactly as the API sets it. Do not retry until then.`;
    }
    if (details?.reason !== 'userinfo') return undefined;
    // the generic CONFIG_INVALID step speaks of a missing base URL: this one is there, with credentials in it
    const env = Array.isArray(details.credentialEnv) && details.credentialEnv.length > 0 ? ` (${details.credentialEnv.join(', ')})` : '';
    return `Tell the user to remove the user name and password from the base URL; the credential goes in the environment variables${env}. Do not retry until then.`;
  }
  if (!isAppError(err) || err.code !== 'UNSAFE_REQUEST') return undefined;
  const details = err.details as { configKey?: unknown; flag?: unknown } | undefined;
  const key = details?.configKey;
  const flag = typeof details?.flag === 'string' ? ` or the flag ${details.flag}` : '';
  return typeof key === 'string'
    ? `The server's configuration does not allow this destination; tell the user (the operator can allow it with the config key ${key}${flag}) and do not retry with other arguments.`
    : undefined;
}
