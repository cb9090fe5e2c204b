// The fitting half of `npm run learn` (scripts/lib/learn-fit.mjs) on hand-made candidates: it ranks by
// retrieval^w x factor^w, finds the weights that put the relevant operations first, and is deterministic.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
// a plain .mjs script: imported by URL so the type checker treats it as an untyped module
let fit: any;
beforeAll(async () => {
  fit = await import(pathToFileURL(join(root, 'scripts', 'lib', 'learn-fit.mjs')).href);
});

type Candidate = { rel: boolean; exact?: boolean; retrieval: number; coverage?: number; signals: Record<string, number> };
const q = (...candidates: Candidate[]): { candidates: Candidate[] } => ({ candidates });

describe('learning signal weights', () => {
  it('ranks by the weighted product; an exact name stays first', () => {
    const query = q(
      { rel: false, retrieval: 40, signals: { method: 0.9 } },
      { rel: true, retrieval: 25, signals: { method: 1.15 } },
    );
    expect(fit.rankUnder(query.candidates, {})).toBe(2); // 36 > 28.75
    expect(fit.rankUnder(query.candidates, { retrieval: 0.5 })).toBe(1); // 5.69 < 5.75
    expect(fit.rankUnder(query.candidates, { method: 4 })).toBe(1);
    expect(fit.rankUnder([{ rel: true, exact: true, retrieval: 1, signals: {} }, ...query.candidates.map((c) => ({ ...c, rel: false }))], {})).toBe(1);
    expect(fit.rankUnder(query.candidates.map((c) => ({ ...c, rel: false })), {})).toBeNull();
  });

  it('finds the weight that puts the relevant operations first, and leaves weights that do not matter at 1', () => {
    // the relevant operation always has the better head noun and a weaker retrieval score
    const queries = [30, 35, 40, 45].map((strong) =>
      q({ rel: false, retrieval: strong, signals: { 'head-noun': 1, scope: 1 } }, { rel: true, retrieval: 25, signals: { 'head-noun': 1.1, scope: 1 } }));
    expect(fit.metricsUnder(queries, {}).mrr).toBe(0.5);
    const log: string[] = [];
    const weights = fit.fitWeights([queries], ['head-noun', 'scope'], { log: (line: string) => log.push(line) });
    expect(weights.scope).toBeUndefined();
    expect(fit.metricsUnder(queries, weights).mrr).toBe(1);
    // the smallest grid weight that does it: 1.1^w must beat 45/25
    expect(weights['head-noun']).toBe(fit.GRID.find((w: number) => 1.1 ** w > 45 / 25));
    expect(log.length).toBeGreaterThan(0);
    // the same data gives the same weights
    expect(fit.fitWeights([queries], ['head-noun', 'scope'])).toEqual(weights);
    // a cap bounds it: the best weight up to 5 puts only the weaker strong candidates below
    const capped = fit.fitWeights([queries], ['head-noun'], { caps: { 'head-noun': 5 } });
    expect(capped['head-noun']).toBeLessThanOrEqual(5);
    expect(fit.metricsUnder(queries, capped).mrr).toBeLessThan(1);
  });

  it('a shape weight recomputes a factor instead of raising it, from its own default', () => {
    // the relevant operation covers half the query but has twice the retrieval score: a flatter coverage
    // curve (a lower power) lets it win
    const queries = [q({ rel: false, retrieval: 10, signals: { coverage: 0.25 + 0.75 * 1 }, coverage: 1 } as Candidate,
      { rel: true, retrieval: 20, signals: { coverage: 0.25 + 0.75 * 0.5 ** 2 }, coverage: 0.5 } as Candidate)];
    const shapes = { 'coverage-power': (c: { coverage: number }, p: number) => ({ coverage: 0.25 + 0.75 * c.coverage ** p }) };
    expect(fit.metricsUnder(queries, {}, shapes).mrr).toBe(0.5);
    const weights = fit.fitWeights([queries], ['coverage-power'], { shapes, defaults: { 'coverage-power': 2 } });
    expect(weights['coverage-power']).toBeLessThan(2);
    expect(fit.metricsUnder(queries, weights, shapes).mrr).toBe(1);
    // at its default the shape is left out of the result
    expect(fit.fitWeights([queries.map((x) => ({ candidates: x.candidates.map((c) => ({ ...c, rel: !c.rel })) }))], ['coverage-power'], { shapes, defaults: { 'coverage-power': 2 } })).toEqual({});
  });

  it('each group counts once: a small group of agent calls is not outvoted by many requests', () => {
    // the words group prefers retrieval (weight 1), the agent group needs method; the sum picks what helps both
    const words = Array.from({ length: 20 }, () => q({ rel: true, retrieval: 30, signals: { method: 1 } }, { rel: false, retrieval: 20, signals: { method: 1 } }));
    const agent = [q({ rel: false, retrieval: 30, signals: { method: 0.9 } }, { rel: true, retrieval: 28, signals: { method: 1.15 } })];
    const weights = fit.fitWeights([words, agent], ['method']);
    expect(fit.metricsUnder(agent, weights).mrr).toBe(1);
    expect(fit.metricsUnder(words, weights).mrr).toBe(1);
  });
});
