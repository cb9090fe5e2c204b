// Hand-written SVG line charts (log axes, legend, value labels) for docs/benchmarks-scale.svg — no chart
// dependency. Pure functions from numbers to SVG text.

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmt = (v) => (v >= 1e6 ? `${+(v / 1e6).toFixed(1)}M` : v >= 1e3 ? `${+(v / 1e3).toFixed(1)}k` : v >= 10 ? String(Math.round(v)) : String(+v.toFixed(2)));

/** Decade ticks covering [lo, hi] (log scale). */
function decades(lo, hi) {
  const out = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) out.push(10 ** e);
  return out;
}

/**
 * One panel at (x, y) of size w x h: series = [{ name, color, dash?, points: [[x, y], ...] }], both axes log10.
 * Returns an SVG <g>.
 */
export function panel({ x, y, w, h, title, xLabel, yLabel, series, target }) {
  const pad = { l: 58, r: 12, t: 28, b: 40 };
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1])).concat(target ? [target.value] : []).filter((v) => v > 0);
  const xt = decades(Math.min(...xs), Math.max(...xs));
  const yt = decades(Math.min(...ys), Math.max(...ys));
  const [x0, x1] = [Math.log10(xt[0]), Math.log10(xt[xt.length - 1])];
  const [y0, y1] = [Math.log10(yt[0]), Math.log10(yt[yt.length - 1])];
  const px = (v) => x + pad.l + ((Math.log10(v) - x0) / (x1 - x0 || 1)) * (w - pad.l - pad.r);
  const py = (v) => y + h - pad.b - ((Math.log10(Math.max(v, yt[0])) - y0) / (y1 - y0 || 1)) * (h - pad.t - pad.b);
  const parts = [`<g font-family="sans-serif" font-size="11">`];
  parts.push(`<text x="${x + w / 2}" y="${y + 16}" text-anchor="middle" font-size="13" font-weight="bold">${esc(title)}</text>`);
  for (const t of yt) {
    parts.push(`<line x1="${x + pad.l}" x2="${x + w - pad.r}" y1="${py(t)}" y2="${py(t)}" stroke="#e5e5e5"/>`);
    parts.push(`<text x="${x + pad.l - 6}" y="${py(t) + 4}" text-anchor="end" fill="#555">${fmt(t)}</text>`);
  }
  for (const t of xt) {
    parts.push(`<line x1="${px(t)}" x2="${px(t)}" y1="${y + pad.t}" y2="${y + h - pad.b}" stroke="#f0f0f0"/>`);
    parts.push(`<text x="${px(t)}" y="${y + h - pad.b + 14}" text-anchor="middle" fill="#555">${fmt(t)}</text>`);
  }
  parts.push(`<rect x="${x + pad.l}" y="${y + pad.t}" width="${w - pad.l - pad.r}" height="${h - pad.t - pad.b}" fill="none" stroke="#999"/>`);
  parts.push(`<text x="${x + w / 2}" y="${y + h - 8}" text-anchor="middle" fill="#333">${esc(xLabel)}</text>`);
  parts.push(`<text transform="translate(${x + 14} ${y + h / 2}) rotate(-90)" text-anchor="middle" fill="#333">${esc(yLabel)}</text>`);
  if (target) {
    parts.push(`<line x1="${x + pad.l}" x2="${x + w - pad.r}" y1="${py(target.value)}" y2="${py(target.value)}" stroke="#c00" stroke-dasharray="2 3"/>`);
    parts.push(`<text x="${x + w - pad.r - 4}" y="${py(target.value) - 4}" text-anchor="end" fill="#c00">${esc(target.label)}</text>`);
  }
  series.forEach((s, k) => {
    const d = s.points.map((p, i) => `${i ? 'L' : 'M'}${px(p[0]).toFixed(1)},${py(p[1]).toFixed(1)}`).join(' ');
    parts.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="2"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}/>`);
    for (const p of s.points) {
      parts.push(`<circle cx="${px(p[0]).toFixed(1)}" cy="${py(p[1]).toFixed(1)}" r="3" fill="${s.color}"/>`);
      parts.push(`<text x="${(px(p[0]) + 4).toFixed(1)}" y="${(py(p[1]) - 5).toFixed(1)}" fill="${s.color}" font-size="10">${fmt(p[1])}</text>`);
    }
    parts.push(`<line x1="${x + pad.l + 8}" x2="${x + pad.l + 26}" y1="${y + pad.t + 12 + k * 14}" y2="${y + pad.t + 12 + k * 14}" stroke="${s.color}" stroke-width="2"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}/>`);
    parts.push(`<text x="${x + pad.l + 30}" y="${y + pad.t + 16 + k * 14}" fill="#222">${esc(s.name)}</text>`);
  });
  parts.push('</g>');
  return parts.join('\n');
}

/** The growth chart: tokens, search latency and memory against catalog size (three panels). */
export function scaleChart(rows, { caption = '' } = {}) {
  const W = 330;
  const H = 300;
  const n = (r) => r.operations;
  const panels = [
    panel({
      x: 0, y: 0, w: W, h: H, title: 'tools/list tokens', xLabel: 'operations in the catalog', yLabel: 'tokens (o200k)',
      series: [
        { name: 'one tool per operation', color: '#d62728', points: rows.map((r) => [n(r), r.plainToolsTokens]) },
        { name: 'api-catalog (4 meta-tools)', color: '#1f77b4', points: rows.map((r) => [n(r), r.toolsListTokens]) },
      ],
      target: { value: 1000, label: 'target 1,000' },
    }),
    panel({
      x: W, y: 0, w: W, h: H, title: 'search latency (in-process)', xLabel: 'operations in the catalog', yLabel: 'ms per search',
      series: [
        { name: 'p99', color: '#ff7f0e', points: rows.map((r) => [n(r), Math.max(r.searchP99Ms, 0.01)]) },
        { name: 'p50', color: '#2ca02c', points: rows.map((r) => [n(r), Math.max(r.searchP50Ms, 0.01)]) },
      ],
    }),
    panel({
      x: 2 * W, y: 0, w: W, h: H, title: 'memory', xLabel: 'operations in the catalog', yLabel: 'MB',
      series: [
        { name: 'RSS (process)', color: '#9467bd', points: rows.map((r) => [n(r), r.rssMB]) },
        { name: 'heap: operations + index', color: '#8c564b', points: rows.map((r) => [n(r), Math.max(r.heapTotalMB, 0.1)]) },
        { name: 'heap: search index only', color: '#17becf', dash: '4 3', points: rows.map((r) => [n(r), Math.max(r.heapIndexMB, 0.1)]) },
      ],
    }),
  ];
  const h = H + (caption ? 22 : 0);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${3 * W}" height="${h}" viewBox="0 0 ${3 * W} ${h}">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    ...panels,
    caption ? `<text x="8" y="${H + 16}" font-family="sans-serif" font-size="11" fill="#555">${esc(caption)}</text>` : '',
    '</svg>',
    '',
  ].join('\n');
}
