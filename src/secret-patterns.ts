// Credential-shaped strings found by pattern, for text that people or agents typed (log lines, search-log
// queries, the explorer's view of them): well-known token formats, JWTs, private keys, secrets in URLs and long
// high-entropy strings. Complements redaction by value (the server's own secrets); imports nothing of ours.

/** One rule: a name (for tests and docs) and a global regex. `keep` is the number of leading characters shown. */
interface Rule {
  name: string;
  re: RegExp;
  /** Characters of the match kept in clear (a token's documented prefix tells what kind was pasted). */
  keep?: number;
  /** Capture group whose text is the secret (the rest of the match stays). */
  group?: number;
  /** For rules keyed by a word (`token x`): the captured value must also look like a credential. */
  value?: (v: string) => boolean;
}

/** A value after a keyword looks like a credential, not a word: it mixes letters and digits, or is long. */
const credentialLike = (v: string): boolean => (/[0-9]/.test(v) && /[A-Za-z]/.test(v)) || v.length >= 24;

/**
 * The formats, from the providers' own documentation of their token formats (GitHub, Stripe, Slack, AWS,
 * Google, OpenAI, Anthropic, SendGrid, GitLab, npm, PyPI, Hugging Face, Twilio, Shopify, DigitalOcean, Mailgun)
 * as also collected by gitleaks' default rule set. Prefix rules need the token body's length, so ordinary words
 * that merely start like a prefix (`sk_live_mode`) stay.
 */
const RULES: readonly Rule[] = [
  { name: 'private-key', re: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g },
  { name: 'github', re: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}\b/g, keep: 4 },
  { name: 'github-fine-grained', re: /\bgithub_pat_[A-Za-z0-9_]{30,}/g, keep: 11 },
  { name: 'stripe', re: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g, keep: 8 },
  { name: 'stripe-webhook', re: /\bwhsec_[A-Za-z0-9+/]{20,}/g, keep: 6 },
  { name: 'slack', re: /\bxox[abeoprs]-[A-Za-z0-9-]{10,}/g, keep: 5 },
  { name: 'slack-app', re: /\bxapp-\d-[A-Za-z0-9-]{10,}/g, keep: 5 },
  { name: 'slack-webhook', re: /hooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9/_-]{20,}/g, keep: 16 },
  { name: 'aws-access-key-id', re: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|APKA)[A-Z0-9]{16}\b/g, keep: 4 },
  { name: 'aws-secret-access-key', re: /\baws_?secret_?access_?key["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})/gi, group: 1 },
  { name: 'google-api-key', re: /\bAIza[0-9A-Za-z_-]{35}/g, keep: 4 },
  { name: 'google-oauth', re: /\bya29\.[0-9A-Za-z_-]{20,}/g, keep: 5 },
  { name: 'anthropic', re: /\bsk-ant-[A-Za-z0-9_-]{20,}/g, keep: 7 },
  { name: 'openai', re: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}/g, keep: 3 },
  { name: 'sendgrid', re: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g, keep: 3 },
  { name: 'gitlab', re: /\bgl(?:pat|dt|ptt|rt|oas)-[A-Za-z0-9_-]{20,}/g, keep: 6 },
  { name: 'npm', re: /\bnpm_[A-Za-z0-9]{36}\b/g, keep: 4 },
  { name: 'pypi', re: /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{20,}/g, keep: 5 },
  { name: 'huggingface', re: /\bhf_[A-Za-z0-9]{30,}\b/g, keep: 3 },
  { name: 'twilio-api-key', re: /\bSK[0-9a-f]{32}\b/g, keep: 2 },
  { name: 'shopify', re: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g, keep: 6 },
  { name: 'digitalocean', re: /\bdo[opr]_v1_[a-f0-9]{64}\b/g, keep: 7 },
  { name: 'mailgun', re: /\bkey-[0-9a-zA-Z]{32}\b/g, keep: 4 },
  { name: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  // `Authorization: Bearer x`, `Basic x`, `token x` written inline (`Bearer` capitalized: any value; lower-case
  // words only before a value that looks like a credential, so "basic authentication" stays).
  { name: 'auth-scheme', re: /\bBearer\s+([A-Za-z0-9._~+/=-]{8,})/g, group: 1 },
  { name: 'auth-scheme', re: /\b(?:Bearer|Basic|token)\s+([A-Za-z0-9._~+/=-]{8,})/gi, group: 1, value: credentialLike },
  // A password in a URL's userinfo: scheme://user:secret@host.
  { name: 'url-userinfo', re: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:([^\s/@]+)@/gi, group: 1 },
  // A credential-named query or form parameter: ?api_key=..., &access_token=..., password=...
  {
    name: 'credential-parameter',
    re: /\b(?:api[_-]?key|apikey|access[_-]?token|refresh[_-]?token|auth[_-]?token|client[_-]?secret|secret|password|passwd|token|sig|signature)=([^&\s"'#]{6,})/gi,
    group: 1,
  },
];

/** Long random-looking words: at least this long, mixing cases and digits, and this many bits per character. */
const ENTROPY = { minLength: 32, minBitsPerChar: 4 } as const;
const WORD = /[A-Za-z0-9+/_=.-]{32,}/g;

function bitsPerChar(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/**
 * A high-entropy word that is not an ordinary identifier: hex strings (content hashes, ids) and UUIDs are
 * left alone, and so are paths and dotted names whose parts are short.
 */
function looksRandom(word: string): boolean {
  const core = word.replace(/^[=._-]+|[=._-]+$/g, '');
  if (core.length < ENTROPY.minLength) return false;
  if (/^[0-9a-f-]+$/i.test(core)) return false; // hex: hashes, UUIDs, request ids
  if (core.split(/[/.]/).every((part) => part.length < ENTROPY.minLength)) return false; // paths, dotted names
  if (!/[a-z]/.test(core) || !/[A-Z]/.test(core) || !/[0-9]/.test(core)) return false;
  return bitsPerChar(core) >= ENTROPY.minBitsPerChar;
}

/** The names of the rules that match `text` (for tests and diagnostics), `high-entropy` included. */
export function secretRulesIn(text: string): string[] {
  const out = new Set<string>();
  for (const rule of RULES) {
    for (const m of text.matchAll(rule.re)) {
      const v = rule.group !== undefined ? m[rule.group] : undefined;
      if (rule.value === undefined || (v !== undefined && rule.value(v))) out.add(rule.name);
    }
  }
  for (const w of text.match(WORD) ?? []) if (looksRandom(w)) out.add('high-entropy');
  return [...out];
}

/**
 * `text` with every credential-shaped part replaced by `mask`. A token's documented prefix stays in clear
 * (`ghp_[REDACTED]`), so a reader still sees what kind of credential was pasted. Ordinary text comes back
 * unchanged (the same string).
 */
export function redactSecretPatterns(text: string, mask = '[REDACTED]'): string {
  if (text.length < 8) return text;
  let out = text;
  for (const rule of RULES) {
    out = out.replace(rule.re, (match: string, ...rest: unknown[]) => {
      if (rule.group !== undefined) {
        const secret = rest[rule.group - 1];
        if (typeof secret !== 'string' || secret === '' || (rule.value !== undefined && !rule.value(secret))) return match;
        const at = match.lastIndexOf(secret);
        return match.slice(0, at) + mask + match.slice(at + secret.length);
      }
      return match.slice(0, rule.keep ?? 0) + mask;
    });
  }
  return out.replace(WORD, (w) => (looksRandom(w) ? mask : w));
}
