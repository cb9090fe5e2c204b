// An argument can never send a parameter named like an apiKey credential the request carries in the query (or a
// cookie): an exploded object query argument emits each key as a parameter of its own (`?api_key=agent&api_key=real`),
// and many servers (PHP, Rails, Express, most gateways) read the first one, so the agent's key would replace the
// operator's account. A form or multipart body whose keys the agent chooses (a whole-body object) could do the same
// on servers that merge the body into the query's parameters (PHP's $_REQUEST, Rails' params). Refused, not dropped:
// the agent learns which argument to change, and nothing is sent.
import { AppError } from '../errors.js';

function pointerPart(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

function decodedName(pair: string): string {
  const raw = pair.split('=')[0] ?? '';
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/**
 * Throws INVALID_ARGUMENTS when one of the encoded `pairs` (`name=value`) that argument `arg` (holding `value`) produced
 * is named like a `reserved` credential slot, compared without case (ASP.NET and others read names that way). The
 * error's path is the object key that made the name (`/filter/api_key`), else the argument.
 */
export function refuseCredentialNames(opName: string, where: string, arg: string, value: unknown, pairs: readonly string[], reserved: ReadonlySet<string>): void {
  if (reserved.size === 0) return;
  const lower = new Set([...reserved].map((r) => r.toLowerCase()));
  for (const pair of pairs) {
    const name = decodedName(pair);
    if (!lower.has(name.toLowerCase())) continue;
    const key = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value).find((k) => k.toLowerCase() === name.toLowerCase()) : undefined;
    const path = `/${pointerPart(arg)}${key !== undefined ? `/${pointerPart(key)}` : ''}`;
    const message = `would send a ${where} parameter named ${JSON.stringify(name)}, the name of the API key this request sends in the ${where === 'cookie' ? 'cookie' : 'query'}; an argument cannot set or repeat a credential`;
    throw new AppError('INVALID_ARGUMENTS', `${opName}: argument ${path} ${message}; remove that key (the credential comes from the server's configuration)`, {
      details: { errors: [{ path, message, expected: `a name other than ${[...reserved].map((r) => JSON.stringify(r)).join(', ')}`, suggestion: `remove ${JSON.stringify(key ?? name)}` }] },
    });
  }
}
