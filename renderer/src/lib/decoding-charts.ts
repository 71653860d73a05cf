/** ECharts options for the decoding dashboard: speedup against k, acceptance per draft position, live tokens/s, the size curve. */
import type { BenchEntry, SizeCurveEntry } from '../../../preload/api.ts';
import { bottomLegend, categoryAxis, chartTitle, valueAxis } from './chart-style.ts';

export const MODE_COLORS: Record<string, string> = { ar: '#9aa5b8', sdsat: '#2f6fdb', 'sdsat-one-pass': '#d9822b', lookup: '#3a9d5d', 'sdsat-lookup': '#8e44ad', 'sdsat-tree': '#1b3f80', 'lookup-tree': '#1f6b3b', 'merged-tree': '#b03a48' };

type Rows = BenchEntry['report']['results'];

export function speedupOption(results: Rows) {
  const modes = [...new Set(results.map((r) => r.mode))];
  const ks = [...new Set(results.map((r) => r.k))].sort((a, b) => a - b);
  const series = modes.flatMap((m) => {
    const rows = ks.map((k) => results.find((r) => r.mode === m && r.k === k) ?? null);
    return [
      { name: `${m} speedup`, type: 'line', yAxisIndex: 0, data: rows.map((r) => (r ? +r.speedup.toFixed(3) : null)), itemStyle: { color: MODE_COLORS[m] }, symbolSize: 7 },
      { name: `${m} accept. length`, type: 'line', yAxisIndex: 1, data: rows.map((r) => (r && r.meanAcceptanceLength !== null ? +r.meanAcceptanceLength.toFixed(3) : null)), itemStyle: { color: MODE_COLORS[m] }, lineStyle: { type: 'dashed' }, symbol: 'diamond', symbolSize: 7 },
    ];
  });
  return {
    title: chartTitle('Speedup over AR and mean acceptance length, by k'),
    tooltip: { trigger: 'axis' },
    // Four modes make nine entries: one scrolling row under the plot, never over the k axis.
    legend: bottomLegend,
    grid: { left: 56, right: 60, top: 40, bottom: 64 },
    xAxis: categoryAxis('k (drafts per loop)', ks),
    yAxis: [valueAxis('speedup ×', { min: 0, gap: 36 }), { ...valueAxis('acceptance length', { min: 0, gap: 36 }), splitLine: { show: false } }],
    series: [...series, { name: 'AR = 1×', type: 'line', data: ks.map(() => 1), lineStyle: { type: 'dotted', color: '#999' }, symbol: 'none', tooltip: { show: false } }],
  };
}

export function positionOption(results: Rows, mode: string | undefined) {
  const rows = results.filter((r) => r.mode === mode).sort((a, b) => a.k - b.k);
  const positions = Math.max(0, ...rows.map((r) => r.acceptanceRatePerPosition.length));
  return {
    title: chartTitle(`Acceptance rate per draft position (${mode ?? '–'})`),
    tooltip: { trigger: 'axis' },
    legend: bottomLegend,
    grid: { left: 56, right: 24, top: 40, bottom: 64 },
    xAxis: categoryAxis('draft position', Array.from({ length: positions }, (_, i) => `d${i + 1}`)),
    yAxis: valueAxis('accepted', { min: 0, max: 1, percent: true }),
    series: rows.map((r) => ({ name: `k=${r.k}`, type: 'bar', data: r.acceptanceRatePerPosition.map((x) => +x.toFixed(3)) })),
  };
}

export function liveOption(points: Record<string, Array<[number, number]>>) {
  return {
    title: chartTitle('Tokens/s during the live decode (cumulative)'),
    tooltip: { trigger: 'axis' },
    legend: bottomLegend,
    grid: { left: 56, right: 24, top: 40, bottom: 64 },
    xAxis: valueAxis('ms since the first token', { min: 0, gap: 26 }),
    yAxis: valueAxis('tok/s', { min: 0 }),
    series: Object.entries(points).map(([m, pts]) => ({ name: m, type: 'line', showSymbol: false, data: pts, itemStyle: { color: MODE_COLORS[m] } })),
  };
}

type SizePoints = SizeCurveEntry['report']['points'];

/** "1.09M 128×4": a size on the curve's axis. */
export const sizeLabel = (p: SizePoints[number]) => `${(p.parameters / 1e6).toFixed(2)}M ${p.config.dModel}×${p.config.nLayer}`;

/** Each mode's best speedup over AR against model size, with its interval as the tooltip says; AR at 1×. */
export function sizeSpeedupOption(points: SizePoints) {
  const modes = [...new Set(points.flatMap((p) => Object.keys(p.modes)))];
  const labels = points.map(sizeLabel);
  return {
    title: chartTitle('Best speedup over AR against model size'),
    tooltip: { trigger: 'axis' },
    legend: bottomLegend,
    grid: { left: 56, right: 24, top: 40, bottom: 64 },
    xAxis: categoryAxis('parameters (width × blocks)', labels),
    yAxis: valueAxis('speedup ×', { min: 0, gap: 36 }),
    series: [
      ...modes.map((m) => ({
        name: m, type: 'line', symbolSize: 8, itemStyle: { color: MODE_COLORS[m] },
        data: points.map((p) => (p.modes[m] ? +p.modes[m].speedup.toFixed(3) : null)),
      })),
      { name: 'AR = 1×', type: 'line', data: labels.map(() => 1), lineStyle: { type: 'dotted', color: '#999' }, symbol: 'none', tooltip: { show: false } },
    ],
  };
}

/**
 * The acceptance rate (the same at every position) two-pass `sdsat` needs on a size's pass costs to
 * reach the report's pay target, at the k where it is lowest; null where no k can reach it.
 */
export function neededRate(p: SizePoints[number]): { k: number; rate: number } | null {
  const reachable = p.predicted.flatMap((q) => (q.neededRate === null || q.neededRate === undefined ? [] : [{ k: q.k, rate: q.neededRate }]));
  return reachable.sort((a, b) => a.rate - b.rate)[0] ?? null;
}

/** SAT acceptance at the first two draft positions against model size, one candidate against three, and the rate that would pay. */
export function sizeAcceptanceOption(points: SizePoints, payTarget: number | undefined) {
  const series = [0, 1].flatMap((pos) => [
    { key: 'oneCandidate' as const, label: '1 candidate', color: '#2f6fdb' },
    { key: 'threeCandidates' as const, label: '3 candidates', color: '#1b3f80' },
  ].map((c) => ({
    name: `d${pos + 1}, ${c.label}`, type: 'line', symbolSize: 7, itemStyle: { color: c.color }, lineStyle: pos ? { type: 'dashed' } : undefined,
    data: points.map((p) => { const a = p.acceptance[c.key]?.[pos]; return a === undefined ? null : +a.toFixed(3); }),
  })));
  if (payTarget !== undefined) series.push({
    name: `needed for ${payTarget}×`, type: 'line', symbolSize: 7, itemStyle: { color: '#c0392b' }, lineStyle: { type: 'dotted' },
    data: points.map((p) => { const n = neededRate(p); return n ? +n.rate.toFixed(3) : null; }),
  });
  return {
    title: chartTitle('SAT drafts accepted per position, by model size'),
    tooltip: { trigger: 'axis' },
    legend: bottomLegend,
    grid: { left: 56, right: 24, top: 40, bottom: 64 },
    xAxis: categoryAxis('parameters (width × blocks)', points.map(sizeLabel)),
    yAxis: valueAxis('accepted', { min: 0, max: 1, percent: true }),
    series,
  };
}
