// Mines words that name the same thing in different APIs (branch/ref, folder/prefix, ticket/issue) from a corpus
// of OpenAPI documents: two resource words are alternatives when the operations on them are described alike
// (the words around them in summaries, operationIds and parameter names, each API voting once) and they are seldom
// both resources of one API (an API names the thing one way). Pure functions over parsed documents; the script
// (scripts/learn-mappings.mjs) reads the pinned corpus and writes src/search/words/mined.json.
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Lower-case words of an identifier or text: camelCase, snake_case, kebab-case, dotted, spaced. */
export function words(text) {
  return String(text ?? '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length >= 3);
}

/** Plural stripping (the search's own light stemmer, text.ts stripPlural). */
export function singular(word) {
  if (word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(?:ches|shes|sses|xes|zes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('ss') || word.endsWith('us') || word.endsWith('is')) return word;
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/** A local `$ref` (`#/components/schemas/Branch`) resolved in `doc`, a few levels deep; else the value. */
function deref(doc, value, depth = 0) {
  if (depth > 4 || value === null || typeof value !== 'object' || typeof value.$ref !== 'string' || !value.$ref.startsWith('#/')) return value;
  let at = doc;
  for (const part of value.$ref.slice(2).split('/')) at = at?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return deref(doc, at, depth + 1);
}

/** Top-level property names of a schema (an array's items'), after local refs and allOf. */
function propertyNames(doc, schema, depth = 0) {
  const s = deref(doc, schema);
  if (s === null || typeof s !== 'object' || depth > 3) return [];
  if (s.type === 'array' || s.items) return propertyNames(doc, s.items, depth + 1);
  const own = Object.keys(s.properties ?? {});
  const all = Array.isArray(s.allOf) ? s.allOf.flatMap((x) => propertyNames(doc, x, depth + 1)) : [];
  return [...own, ...all];
}

/** The success response's schema of an operation (OpenAPI 3 content, or Swagger 2 schema). */
function responseSchema(op) {
  for (const [status, r] of Object.entries(op.responses ?? {})) {
    if (!/^2/.test(status) || r === null || typeof r !== 'object') continue;
    const content = r.content ?? {};
    const json = content['application/json'] ?? Object.values(content)[0];
    return json?.schema ?? r.schema;
  }
  return undefined;
}

/**
 * One API's resources and what surrounds each: for every operation, the words of its path's literal segments (the
 * resources, singular) get as context, marked by kind, the resources next to them in the path (`p:` before,
 * `c:` after), the operation's parameter names (`a:`) and the top-level fields of its success response (`f:`).
 * Returns Map<resource, Set<context feature>>.
 */
export function apiContexts(doc, ignore) {
  const out = new Map();
  const clean = (list) => [...new Set(list.flatMap(words).map(singular))].filter((w) => !ignore.has(w));
  for (const [path, item] of Object.entries(doc?.paths ?? {})) {
    if (item === null || typeof item !== 'object') continue;
    const segments = path.split('/').filter((s) => s !== '' && !s.includes('{') && !/^v\d/i.test(s));
    const bySegment = segments.map((s) => clean([s]));
    const resources = [...new Set(bySegment.flat())];
    if (resources.length === 0) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const op = item[method];
      if (op === null || typeof op !== 'object') continue;
      const params = clean([...shared, ...(Array.isArray(op.parameters) ? op.parameters : [])].map((p) => deref(doc, p)?.name ?? ''));
      const fields = clean(propertyNames(doc, responseSchema(op)));
      bySegment.forEach((ws, k) => {
        for (const r of ws) {
          const set = out.get(r) ?? new Set();
          for (const p of bySegment[k - 1] ?? []) if (p !== r) set.add(`p:${p}`);
          for (const c of bySegment[k + 1] ?? []) if (c !== r) set.add(`c:${c}`);
          // the fields and parameters say what the resource is when it is the last one in the path
          if (k === bySegment.length - 1) {
            for (const a of params) if (a !== r) set.add(`a:${a}`);
            for (const f of fields) if (f !== r) set.add(`f:${f}`);
          }
          out.set(r, set);
        }
      });
    }
  }
  return out;
}

/**
 * The mappings: for each resource word used by at least `minApis` APIs, the others whose context vectors (positive
 * PMI over API votes) have cosine >= `minSimilarity` and that share at most `maxTogether` of their APIs with it;
 * best first, at most `perWord`. `apis` is an array of apiContexts() results.
 */
export function mineMappings(apis, { minApis = 8, minSimilarity = 0.35, maxTogether = 0.3, perWord = 3, exclude = () => false } = {}) {
  const apisOf = new Map();
  const ctx = new Map();
  const colSum = new Map();
  apis.forEach((api, k) => {
    for (const [r, cs] of api) {
      (apisOf.get(r) ?? apisOf.set(r, new Set()).get(r)).add(k);
      const row = ctx.get(r) ?? ctx.set(r, new Map()).get(r);
      for (const c of cs) row.set(c, (row.get(c) ?? 0) + 1);
    }
  });
  const kept = [...apisOf.keys()].filter((r) => (apisOf.get(r)?.size ?? 0) >= minApis).sort();
  let total = 0;
  for (const r of kept) for (const [c, n] of ctx.get(r)) { colSum.set(c, (colSum.get(c) ?? 0) + n); total += n; }
  // positive PMI vectors, normalized
  const vec = new Map();
  for (const r of kept) {
    const row = ctx.get(r);
    let rowSum = 0;
    for (const n of row.values()) rowSum += n;
    const v = new Map();
    let norm = 0;
    for (const [c, n] of row) {
      if (n < 2) continue;
      const pmi = Math.log((n * total) / (rowSum * (colSum.get(c) ?? 1)));
      if (pmi <= 0) continue;
      v.set(c, pmi);
      norm += pmi * pmi;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [c, x] of v) v.set(c, x / norm);
    vec.set(r, v);
  }
  // cosine through an inverted index of context words
  const byContext = new Map();
  for (const r of kept) for (const [c, x] of vec.get(r)) (byContext.get(c) ?? byContext.set(c, []).get(c)).push([r, x]);
  const out = {};
  for (const a of kept) {
    const dots = new Map();
    for (const [c, x] of vec.get(a)) for (const [b, y] of byContext.get(c)) if (b !== a) dots.set(b, (dots.get(b) ?? 0) + x * y);
    const A = apisOf.get(a);
    const picks = [];
    for (const [b, sim] of dots) {
      if (sim < minSimilarity || exclude(a, b)) continue;
      const B = apisOf.get(b);
      let both = 0;
      for (const k of A) if (B.has(k)) both++;
      const together = both / Math.min(A.size, B.size);
      if (together > maxTogether) continue;
      picks.push([b, Math.round(sim * 1000) / 1000, A.size, B.size, both]);
    }
    picks.sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
    if (picks.length > 0) out[a] = picks.slice(0, perWord).map(([b, sim]) => [b, sim]);
  }
  return { mappings: out, resources: kept.length };
}

/**
 * One API's alignments of the words its operations are described with to the names its paths use: for each
 * operation, every content word of its summary, operationId and description (`text`, the first `textWords`) that is
 * not a word of its own path, paired with its path's resource (the last literal segment's head); and every content
 * word of a query or path parameter's description paired with the parameter's name, when that name is no word of the
 * path (`prefix`: "only objects in this folder"). `ignore` holds what never names a thing. Returns
 * { pairs: Set<"word\tname">, words: Set<word>, names: Set<name> }, each counted once per API by alignMappings.
 */
export function apiAlignments(doc, ignore, { textWords = 80, paramWords = 30 } = {}) {
  const pairs = new Set();
  const said = new Set();
  const named = new Set();
  const content = (text, max) => [...new Set(words(text).slice(0, max).map(singular))].filter((w) => !ignore.has(w));
  for (const [path, item] of Object.entries(doc?.paths ?? {})) {
    if (item === null || typeof item !== 'object') continue;
    const literals = path.split('/').filter((s) => s !== '' && !s.includes('{') && !/^v\d/i.test(s));
    const pathWords = new Set(literals.flatMap((s) => words(s).map(singular)));
    const last = literals.length > 0 ? words(literals[literals.length - 1]).map(singular).filter((w) => !ignore.has(w)) : [];
    const head = last[last.length - 1];
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const op = item[method];
      if (op === null || typeof op !== 'object') continue;
      if (head !== undefined) {
        named.add(head);
        const text = `${op.summary ?? ''} ${op.operationId ?? ''} ${String(op.description ?? '').slice(0, textWords * 12)}`;
        for (const w of content(text, textWords)) {
          if (pathWords.has(w) || w === head) continue;
          pairs.add(`${w}\t${head}`);
          said.add(w);
        }
      }
      for (const raw of [...shared, ...(Array.isArray(op.parameters) ? op.parameters : [])]) {
        const p = deref(doc, raw);
        if (p === null || typeof p !== 'object' || (p.in !== 'path' && p.in !== 'query')) continue;
        const nameWords = words(p.name ?? '').map(singular).filter((w) => !ignore.has(w));
        const name = nameWords[nameWords.length - 1];
        if (name === undefined || pathWords.has(name)) continue;
        named.add(name);
        for (const w of content(String(p.description ?? '').slice(0, paramWords * 12), paramWords)) {
          if (w === name || nameWords.includes(w) || pathWords.has(w)) continue;
          pairs.add(`${w}\t${name}`);
          said.add(w);
        }
      }
    }
  }
  return { pairs, words: said, names: named };
}

/**
 * The aligned mappings: a word people use (`folder`) to the names APIs give the thing (`path`, `parent`), where the
 * pair is seen in at least `minApis` APIs and `lift` = pair APIs x all APIs / (APIs describing with the word x APIs
 * naming with the name) is at least `minLift` (far above chance, so not a word every description has); best first
 * by lift x ln(pair APIs), at most `perWord`. `apis` is an array of apiAlignments() results.
 */
export function alignMappings(apis, { minApis = 5, minLift = 4, perWord = 3, exclude = () => false } = {}) {
  const pairCount = new Map();
  const wordCount = new Map();
  const nameCount = new Map();
  for (const api of apis) {
    for (const p of api.pairs) pairCount.set(p, (pairCount.get(p) ?? 0) + 1);
    for (const w of api.words) wordCount.set(w, (wordCount.get(w) ?? 0) + 1);
    for (const n of api.names) nameCount.set(n, (nameCount.get(n) ?? 0) + 1);
  }
  const byWord = new Map();
  for (const [p, n] of pairCount) {
    if (n < minApis) continue;
    const [w, name] = p.split('\t');
    if (w === name || w.startsWith(name) || name.startsWith(w) || exclude(w, name)) continue;
    const lift = (n * apis.length) / ((wordCount.get(w) ?? 1) * (nameCount.get(name) ?? 1));
    if (lift < minLift) continue;
    (byWord.get(w) ?? byWord.set(w, []).get(w)).push({ name, lift, n });
  }
  const out = {};
  for (const w of [...byWord.keys()].sort()) {
    const list = byWord.get(w).sort((a, b) => b.lift * Math.log(b.n) - a.lift * Math.log(a.n) || (a.name < b.name ? -1 : 1));
    out[w] = list.slice(0, perWord).map((x) => [x.name, Math.round(x.lift * 100) / 100]);
  }
  return out;
}
