/** ECharts options for the training view: plain functions of the curve points, so a live series just grows. */
import type { SalvagePoint, SftPoint } from '../../../main/server/training.ts';

const title = (text: string) => ({ text, textStyle: { fontSize: 12 } });
const grid = { left: 56, right: 56, top: 48, bottom: 36 };
const round = (x: number | null | undefined, d = 4) => (x === null || x === undefined || !Number.isFinite(x) ? null : +x.toFixed(d));

export const GATE_SERIES = [
  { key: 'kept', name: 'kept', color: '#2e8b57' },
  { key: 'rejectedByContrast', name: 'rejected by contrast', color: '#d9822b' },
  { key: 'rejectedByCompetence', name: 'rejected by competence', color: '#c23b3b' },
  { key: 'anchored', name: 'anchored', color: '#2f6fdb' },
  { key: 'dropped', name: 'dropped', color: '#9aa5b8' },
] as const;

export function sftLossOption(points: readonly SftPoint[]) {
  return {
    title: title('SFT loss (train, and validation where measured)'),
    tooltip: { trigger: 'axis' },
    legend: { top: 22 },
    grid,
    xAxis: { type: 'value', name: 'step', min: 1 },
    yAxis: { type: 'value', name: 'loss', scale: true },
    series: [
      { name: 'train loss', type: 'line', showSymbol: false, data: points.map((p) => [p.step, round(p.loss)]), itemStyle: { color: '#2f6fdb' } },
      { name: 'validation loss', type: 'line', symbolSize: 7, data: points.filter((p) => typeof p.valLoss === 'number').map((p) => [p.step, round(p.valLoss)]), itemStyle: { color: '#d9822b' } },
    ],
  };
}

export function rewardOption(points: readonly SalvagePoint[]) {
  return {
    title: title('Mean reward and reward spread (max - min within a group), per iteration'),
    tooltip: { trigger: 'axis' },
    legend: { top: 22 },
    grid,
    xAxis: { type: 'category', name: 'iteration', data: points.map((p) => p.iteration) },
    yAxis: { type: 'value', name: 'reward', scale: true },
    series: [
      { name: 'mean reward', type: 'line', data: points.map((p) => round(p.meanReward)), itemStyle: { color: '#2f6fdb' } },
      { name: 'reward spread', type: 'line', data: points.map((p) => round(p.meanSpread)), itemStyle: { color: '#d9822b' }, lineStyle: { type: 'dashed' } },
      { name: 'competence', type: 'line', data: points.map((p) => round(p.meanCompetence)), itemStyle: { color: '#2e8b57' }, lineStyle: { type: 'dotted' } },
    ],
  };
}

export function gatesOption(points: readonly SalvagePoint[]) {
  return {
    title: title('Groups per iteration: kept, rejected by each gate, anchored, dropped'),
    tooltip: { trigger: 'axis' },
    legend: { top: 22 },
    grid,
    xAxis: { type: 'category', name: 'iteration', data: points.map((p) => p.iteration) },
    yAxis: { type: 'value', name: 'groups', minInterval: 1 },
    // Kept and rejected-by-gate stack into the groups drawn; anchored and dropped (what happened to
    // the rejected ones) stack beside them.
    series: GATE_SERIES.map((g) => ({
      name: g.name, type: 'bar', stack: g.key === 'anchored' || g.key === 'dropped' ? 'fate' : 'gates',
      data: points.map((p) => p[g.key]), itemStyle: { color: g.color },
    })),
  };
}

export function lossesOption(points: readonly SalvagePoint[]) {
  return {
    title: title('Policy-gradient loss, KL to the SFT policy, anchor loss and clip fraction'),
    tooltip: { trigger: 'axis' },
    legend: { top: 22 },
    grid,
    xAxis: { type: 'category', name: 'iteration', data: points.map((p) => p.iteration) },
    yAxis: [{ type: 'value', name: 'loss', scale: true }, { type: 'value', name: 'clip fraction', min: 0, max: 1 }],
    series: [
      { name: 'PG loss', type: 'line', data: points.map((p) => round(p.pgLoss)), itemStyle: { color: '#2f6fdb' } },
      { name: 'KL', type: 'line', data: points.map((p) => round(p.kl)), itemStyle: { color: '#c23b3b' } },
      { name: 'anchor loss', type: 'line', data: points.map((p) => round(p.anchorLoss)), itemStyle: { color: '#2e8b57' } },
      { name: 'clip fraction', type: 'line', yAxisIndex: 1, data: points.map((p) => round(p.clipFraction)), itemStyle: { color: '#9aa5b8' }, lineStyle: { type: 'dashed' } },
    ],
  };
}

const EVAL_COLORS = ['#2f6fdb', '#d9822b', '#2e8b57', '#c23b3b', '#7b4fc9', '#9aa5b8'];

/** Success per family, one bar per evaluation, with the Wilson interval in the tooltip. */
export function successOption(evals: ReadonlyArray<{ label: string; byFamily: Record<string, { success: { value: number | null; ci95: { low: number; high: number } | null } }> }>) {
  const families = [...new Set(evals.flatMap((e) => Object.keys(e.byFamily)))].sort();
  return {
    title: title('Success rate per family (95% Wilson interval in the tooltip)'),
    tooltip: { trigger: 'axis' },
    legend: { top: 22 },
    grid,
    xAxis: { type: 'category', data: families },
    yAxis: { type: 'value', name: 'success', min: 0, max: 1 },
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
    legend: { top: 22 },
    grid: { ...grid, bottom: 60 },
    xAxis: { type: 'category', data: [...modes], axisLabel: { rotate: 20 } },
    yAxis: { type: 'value', name: 'failures', minInterval: 1 },
    series: families.map((f, i) => ({ name: f, type: 'bar', stack: 'modes', itemStyle: { color: EVAL_COLORS[i % EVAL_COLORS.length] }, data: modes.map((m) => byFamily[f][m] ?? 0) })),
  };
}
