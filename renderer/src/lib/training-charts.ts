/** ECharts options for the training view: plain functions of the curve points, so a live series just grows. */
import type { SalvagePoint, SftPoint } from '../../../preload/api.ts';

const title = (text: string) => ({ text, left: 8, textStyle: { fontSize: 12 } });
// Legends sit under the plot, where they may wrap without covering the title.
const legend = { bottom: 0, itemWidth: 14, itemHeight: 8, textStyle: { fontSize: 11 } };
const grid = { left: 56, right: 56, top: 40, bottom: 64 };
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
    xAxis: { type: 'value', name: 'step', nameLocation: 'middle', nameGap: 24, min: 1 },
    yAxis: { type: 'value', name: 'loss', nameLocation: 'middle', nameGap: 40, scale: true },
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
    xAxis: { type: 'category', name: 'iteration', nameLocation: 'middle', nameGap: 24, data: points.map((p) => p.iteration) },
    yAxis: { type: 'value', name: 'reward', nameLocation: 'middle', nameGap: 40, scale: true },
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
    xAxis: { type: 'category', name: 'iteration', nameLocation: 'middle', nameGap: 24, data: points.map((p) => p.iteration) },
    yAxis: { type: 'value', name: 'groups', nameLocation: 'middle', nameGap: 40, minInterval: 1 },
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
    xAxis: { type: 'category', name: 'iteration', nameLocation: 'middle', nameGap: 24, data: points.map((p) => p.iteration) },
    yAxis: [{ type: 'value', name: 'loss', nameLocation: 'middle', nameGap: 40, scale: true }, { type: 'value', name: 'clip fraction', nameLocation: 'middle', nameGap: 32, min: 0, max: 1 }],
    series: [
      { name: 'PG loss', type: 'line', data: points.map((p) => round(p.pgLoss)), itemStyle: { color: '#2f6fdb' } },
      { name: 'KL', type: 'line', data: points.map((p) => round(p.kl)), itemStyle: { color: '#c23b3b' } },
      { name: 'anchor loss', type: 'line', data: points.map((p) => round(p.anchorLoss)), itemStyle: { color: '#2e8b57' } },
      { name: 'clip fraction', type: 'line', yAxisIndex: 1, data: points.map((p) => round(p.clipFraction)), itemStyle: { color: '#9aa5b8' }, lineStyle: { type: 'dashed' } },
    ],
  };
}

const EVAL_COLORS = ['#2f6fdb', '#d9822b', '#2e8b57', '#c23b3b', '#7b4fc9', '#9aa5b8'];

/** Success per family, one bar per evaluation (the table beside it gives the intervals). */
export function successOption(evals: ReadonlyArray<{ label: string; byFamily: Record<string, { success: { value: number | null; ci95: { low: number; high: number } | null } }> }>) {
  const families = [...new Set(evals.flatMap((e) => Object.keys(e.byFamily)))].sort();
  return {
    title: title('Success rate per family (95% intervals in the table)'),
    tooltip: { trigger: 'axis' },
    legend,
    grid,
    xAxis: { type: 'category', data: families },
    yAxis: { type: 'value', name: 'success', nameLocation: 'middle', nameGap: 40, min: 0, max: 1 },
    series: evals.map((e, i) => ({
      name: e.label, type: 'bar', itemStyle: { color: EVAL_COLORS[i % EVAL_COLORS.length] },
      data: families.map((f) => round(e.byFamily[f]?.success.value ?? null, 4)),
    })),
  };
}

export function failureModesOption(byFamily: Record<string, Record<string, number>>, modes: readonly string[]) {
  const families = Object.keys(byFamily).sort();
  return {
    title: title('Failure modes at the critical state, by family'),
    tooltip: { trigger: 'axis' },
    legend,
    grid: { ...grid, bottom: 84 },
    xAxis: { type: 'category', data: [...modes], axisLabel: { rotate: 20 } },
    yAxis: { type: 'value', name: 'failures', nameLocation: 'middle', nameGap: 40, minInterval: 1 },
    series: families.map((f, i) => ({ name: f, type: 'bar', stack: 'modes', itemStyle: { color: EVAL_COLORS[i % EVAL_COLORS.length] }, data: modes.map((m) => byFamily[f][m] ?? 0) })),
  };
}
