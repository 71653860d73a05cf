/** ECharts options for the training view: plain functions of the curve points, so a live series just grows. */
import type { SalvagePoint, SftPoint } from '../../../preload/api.ts';
import { bottomLegend as legend, categoryAxis, chartGrid as grid, chartTitle as title, rateText, valueAxis } from './chart-style.ts';
const round = (x: number | null | undefined, d = 4) => (x === null || x === undefined || !Number.isFinite(x) ? null : +x.toFixed(d));

/**
 * A group both gates refuse counts in both of the file's rejected-by counts; split into exclusive
 * parts, kept + contrast only + competence only + both = the groups of the iteration, and the
 * second bar, anchored + dropped, = the rejected ones.
 */
export function gateParts(p: SalvagePoint) {
  const both = Math.max(0, p.rejectedByContrast + p.rejectedByCompetence - p.rejected);
  return { kept: p.kept, contrastOnly: p.rejectedByContrast - both, competenceOnly: p.rejectedByCompetence - both, both, anchored: p.anchored, dropped: p.dropped };
}

export const GATE_SERIES = [
  { key: 'kept', name: 'kept', color: '#2e8b57', stack: 'gates' },
  { key: 'contrastOnly', name: 'rejected by contrast', color: '#d9822b', stack: 'gates' },
  { key: 'competenceOnly', name: 'rejected by competence', color: '#c23b3b', stack: 'gates' },
  { key: 'both', name: 'rejected by both', color: '#8c2d5a', stack: 'gates' },
  { key: 'anchored', name: 'anchored', color: '#2f6fdb', stack: 'fate' },
  { key: 'dropped', name: 'dropped', color: '#9aa5b8', stack: 'fate' },
] as const;

/** Where the run's held-out loss came from: a dataset without a validation split measures it on training samples. */
export function sftValOn(points: readonly SftPoint[]): 'validation' | 'train' {
  return points.some((p) => p.valOn === 'train') ? 'train' : 'validation';
}

export function sftLossOption(points: readonly SftPoint[]) {
  const onTrain = sftValOn(points) === 'train';
  const heldOut = onTrain ? 'loss on training samples (no validation split)' : 'validation loss';
  return {
    title: title(onTrain ? 'SFT loss: train per step; no validation split, so the periodic loss is on training samples' : 'SFT loss: train per step, validation where measured'),
    tooltip: { trigger: 'axis' },
    legend,
    grid,
    xAxis: { ...valueAxis('step', { gap: 24, min: 1 }), minInterval: 1 },
    yAxis: valueAxis('loss', { scale: true }),
    series: [
      { name: 'train loss', type: 'line', showSymbol: false, data: points.map((p) => [p.step, round(p.loss)]), itemStyle: { color: '#2f6fdb' } },
      { name: heldOut, type: 'line', symbolSize: 7, data: points.filter((p) => typeof p.valLoss === 'number').map((p) => [p.step, round(p.valLoss)]), itemStyle: { color: '#d9822b' } },
    ],
  };
}

export function rewardOption(points: readonly SalvagePoint[]) {
  return {
    title: title('Reward: group mean, spread (max - min), competence'),
    tooltip: { trigger: 'axis' },
    legend,
    grid,
    xAxis: categoryAxis('iteration', points.map((p) => p.iteration)),
    yAxis: valueAxis('reward', { scale: true }),
    series: [
      { name: 'mean reward', type: 'line', data: points.map((p) => round(p.meanReward)), itemStyle: { color: '#2f6fdb' } },
      { name: 'reward spread', type: 'line', data: points.map((p) => round(p.meanSpread)), itemStyle: { color: '#d9822b' }, lineStyle: { type: 'dashed' } },
      { name: 'competence', type: 'line', data: points.map((p) => round(p.meanCompetence)), itemStyle: { color: '#2e8b57' }, lineStyle: { type: 'dotted' } },
    ],
  };
}

export function gatesOption(points: readonly SalvagePoint[]) {
  return {
    title: title('Gates: groups kept and rejected; rejected anchored or dropped'),
    tooltip: { trigger: 'axis' },
    legend,
    grid,
    xAxis: categoryAxis('iteration', points.map((p) => p.iteration)),
    yAxis: valueAxis('groups', { counts: true }),
    // Left bar: what the gates did to the iteration's groups; right bar: what became of the rejected ones.
    series: GATE_SERIES.map((g) => ({
      name: g.name, type: 'bar', stack: g.stack, data: points.map((p) => gateParts(p)[g.key]), itemStyle: { color: g.color },
    })),
  };
}

export function lossesOption(points: readonly SalvagePoint[]) {
  return {
    title: title('PG loss, KL to SFT, anchor loss, clip fraction'),
    tooltip: { trigger: 'axis' },
    legend,
    grid,
    xAxis: categoryAxis('iteration', points.map((p) => p.iteration)),
    yAxis: [valueAxis('loss', { scale: true }), valueAxis('clip fraction', { gap: 32, min: 0, max: 1 })],
    series: [
      { name: 'PG loss', type: 'line', data: points.map((p) => round(p.pgLoss)), itemStyle: { color: '#2f6fdb' } },
      { name: 'KL', type: 'line', data: points.map((p) => round(p.kl)), itemStyle: { color: '#c23b3b' } },
      { name: 'anchor loss', type: 'line', data: points.map((p) => round(p.anchorLoss)), itemStyle: { color: '#2e8b57' } },
      { name: 'clip fraction', type: 'line', yAxisIndex: 1, data: points.map((p) => round(p.clipFraction)), itemStyle: { color: '#9aa5b8' }, lineStyle: { type: 'dashed' } },
    ],
  };
}

const EVAL_COLORS = ['#2f6fdb', '#d9822b', '#2e8b57', '#c23b3b', '#7b4fc9', '#9aa5b8'];

/**
 * Success per family, one bar per evaluation, each labelled with its rate (so a family no policy
 * solves shows "0%" rather than an empty plot) and its 95% interval in the tooltip.
 */
export function successOption(evals: ReadonlyArray<{ label: string; byFamily: Record<string, { success: { value: number | null; ci95: { low: number; high: number } | null } }> }>) {
  const families = [...new Set(evals.flatMap((e) => Object.keys(e.byFamily)))].sort();
  // Labels on every bar only while they fit: a few evaluations side by side.
  const labelled = evals.length <= 3;
  return {
    title: title('Success rate per family (95% intervals in the tooltip and the table)'),
    tooltip: { trigger: 'axis', formatter: rateTooltip },
    legend,
    grid,
    xAxis: categoryAxis('family', families, { rotate: families.length > 8 ? 30 : 0 }),
    yAxis: valueAxis('success', { min: 0, max: 1, percent: true }),
    series: evals.map((e, i) => ({
      name: e.label, type: 'bar', itemStyle: { color: EVAL_COLORS[i % EVAL_COLORS.length] },
      label: { show: labelled, position: 'top', fontSize: 10, formatter: (p: { value: number | null }) => (p.value === null ? '' : `${Math.round(p.value * 100)}%`) },
      data: families.map((f) => {
        const s = e.byFamily[f]?.success;
        return { value: round(s?.value ?? null, 4), text: s ? rateText(s.value, s.ci95) : 'not evaluated' };
      }),
    })),
  };
}

/** The axis tooltip of a rate chart: each series' rate with its interval (the data item's text). */
function rateTooltip(ps: ReadonlyArray<{ axisValue: string; seriesName: string; data: { text?: string } | null }>): string {
  const esc = (t: string) => t.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  return [esc(String(ps[0]?.axisValue ?? '')), ...ps.map((p) => `${esc(p.seriesName)}: ${esc(p.data?.text ?? 'none')}`)].join('<br>');
}

export function failureModesOption(byFamily: Record<string, Record<string, number>>, modes: readonly string[]) {
  const families = Object.keys(byFamily).sort();
  return {
    title: title('Failure modes at the critical state, by family'),
    tooltip: { trigger: 'axis' },
    legend,
    grid: { ...grid, bottom: 84 },
    xAxis: categoryAxis('failure mode', modes, { rotate: 20 }),
    yAxis: valueAxis('failures', { counts: true }),
    series: families.map((f, i) => ({ name: f, type: 'bar', stack: 'modes', itemStyle: { color: EVAL_COLORS[i % EVAL_COLORS.length] }, data: modes.map((m) => byFamily[f][m] ?? 0) })),
  };
}

/** A run drawn beside others (W&B-style overlays): its label and its curve. */
export interface OverlayRun<P> {
  label: string;
  points: readonly P[];
}

const OVERLAY_COLORS = EVAL_COLORS;

/**
 * SFT runs overlaid on one plot: each run's validation loss where it was measured (solid), and its
 * train loss (faint), against step; a run without a validation split shows its train loss only.
 */
export function sftOverlayOption(runs: ReadonlyArray<OverlayRun<SftPoint>>) {
  return {
    title: title(`SFT loss of ${runs.length} runs: validation (solid) and train (faint)`),
    tooltip: { trigger: 'axis' },
    legend,
    grid,
    xAxis: { ...valueAxis('step', { gap: 24, min: 1 }), minInterval: 1 },
    yAxis: valueAxis('loss', { scale: true }),
    series: runs.flatMap((r, i) => {
      const color = OVERLAY_COLORS[i % OVERLAY_COLORS.length];
      const val = r.points.filter((p) => typeof p.valLoss === 'number').map((p) => [p.step, round(p.valLoss)]);
      return [
        ...(val.length ? [{ name: `${r.label} validation`, type: 'line', symbolSize: 5, data: val, itemStyle: { color } }] : []),
        { name: `${r.label} train`, type: 'line', showSymbol: false, data: r.points.map((p) => [p.step, round(p.loss)]), itemStyle: { color }, lineStyle: { opacity: 0.35 } },
      ];
    }),
  };
}

/** What a Salvage-DS overlay can plot, per iteration. */
export const SALVAGE_OVERLAY_METRICS = [
  { key: 'meanReward', label: 'mean reward', of: (p: SalvagePoint) => p.meanReward },
  { key: 'correctShare', label: 'share of samples correct', of: (p: SalvagePoint) => p.correctShare },
  { key: 'keptShare', label: 'share of groups kept', of: (p: SalvagePoint) => (p.groups ? p.kept / p.groups : 0) },
  { key: 'kl', label: 'KL to SFT', of: (p: SalvagePoint) => p.kl },
  { key: 'anchorLoss', label: 'anchor loss', of: (p: SalvagePoint) => p.anchorLoss },
] as const;
export type SalvageOverlayMetric = (typeof SALVAGE_OVERLAY_METRICS)[number]['key'];

/** One statistic of several Salvage-DS runs against iteration, one line per run. */
export function salvageOverlayOption(runs: ReadonlyArray<OverlayRun<SalvagePoint>>, metric: SalvageOverlayMetric) {
  const m = SALVAGE_OVERLAY_METRICS.find((x) => x.key === metric)!;
  return {
    title: title(`${m.label[0].toUpperCase()}${m.label.slice(1)} per iteration, ${runs.length} runs`),
    tooltip: { trigger: 'axis' },
    legend,
    grid,
    xAxis: { ...valueAxis('iteration', { gap: 24, min: 0 }), minInterval: 1 },
    yAxis: valueAxis(m.label, { scale: true }),
    series: runs.map((r, i) => ({
      name: r.label, type: 'line', symbolSize: 4, itemStyle: { color: OVERLAY_COLORS[i % OVERLAY_COLORS.length] },
      data: r.points.map((p) => [p.iteration, round(m.of(p))]),
    })),
  };
}
