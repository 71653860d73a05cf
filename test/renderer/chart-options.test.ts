/**
 * The app's chart options (renderer/src/lib/*-charts.ts) laid out so nothing overlaps: axis names
 * along their axes' middle (an axis name at the end sits on the title), count axes with whole-number
 * ticks, legends in one scrolling row under the plot, rates labelled with their intervals, and a
 * chart of all-zero rates still showing its bars' values. The options are plain data built by plain
 * functions, checked here; test/e2e draws them in Chromium.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compositionOption } from '../../renderer/src/lib/dataset-charts.ts';
import { liveOption, positionOption, speedupOption } from '../../renderer/src/lib/decoding-charts.ts';
import { stepsOption, yieldOption } from '../../renderer/src/lib/review-charts.ts';
import { failureModesOption, gatesOption, lossesOption, rewardOption, salvageOverlayOption, sftLossOption, sftOverlayOption, successOption } from '../../renderer/src/lib/training-charts.ts';
import { rateText } from '../../renderer/src/lib/chart-style.ts';

type Option = Record<string, unknown>;
type Axis = { type: string; name?: string; nameLocation?: string; minInterval?: number };
const axes = (o: Option): Axis[] => [o.xAxis, o.yAxis].flatMap((a) => (Array.isArray(a) ? a : a ? [a] : [])) as Axis[];

const bench = ['ar', 'sdsat', 'lookup-tree'].flatMap((mode) => [1, 2, 3].map((k) => ({ mode, k, speedup: 1 + k / 10, meanAcceptanceLength: 1 + k / 4, acceptanceRatePerPosition: Array.from({ length: k }, (_, i) => 0.6 - i / 10) })));
const arms = [
  { arm: 'reflect', tasks: 45, successes: 38, yield: 0.844, yieldCi95: { low: 0.712, high: 0.922 }, firstAttemptSuccesses: 30, attempts: 60, attemptsPerSuccess: 1.4, stepsPerSuccess: 6.2, stepsPerSuccessShortened: 5.1, stepsPerSuccessCommon: 6 },
  { arm: 'blind', tasks: 45, successes: 30, yield: 0.667, yieldCi95: { low: 0.52, high: 0.79 }, firstAttemptSuccesses: 30, attempts: 80, attemptsPerSuccess: 1.9, stepsPerSuccess: 7.1, stepsPerSuccessShortened: 5.9, stepsPerSuccessCommon: 7 },
];
const summary = { attemptBudget: 3, arms, shortening: { stepsBefore: 6.6, stepsAfter: 5.4 } } as unknown as Parameters<typeof yieldOption>[0];
const salvage = Array.from({ length: 4 }, (_, i) => ({ iteration: i, groups: 4, kept: 1, rejectedByContrast: 2, rejectedByCompetence: 1, rejected: 3, anchored: 3, dropped: 0, meanReward: 0, meanSpread: 1, meanCompetence: 0.3, pgLoss: 0.1, kl: 0.01, anchorLoss: 1, clipFraction: 0.1 }));
const stats = { episodes: 40, steps: 300, byFamily: { shop: 12, webmail: 8, calendar: 7, flights: 5, hotels: 8 }, byOutcome: { success: 25, failure: 15 }, bySplit: { train: 30, test: 10 } } as unknown as Parameters<typeof compositionOption>[0];

const every: Array<[string, Option]> = [
  ['composition', compositionOption(stats)],
  ['speedup', speedupOption(bench as never)],
  ['position', positionOption(bench as never, 'sdsat')],
  ['live', liveOption({ sdsat: [[10, 100], [20, 200]] })],
  ['yield', yieldOption(summary)],
  ['steps', stepsOption(summary)],
  ['sft loss', sftLossOption([{ step: 1, loss: 2, valLoss: 2.1 }] as never)],
  ['reward', rewardOption(salvage as never)],
  ['gates', gatesOption(salvage as never)],
  ['losses', lossesOption(salvage as never)],
  ['success', successOption([{ label: 'eval A', byFamily: { shop: { success: { value: 0.5, ci95: { low: 0.3, high: 0.7 } } } } }])],
  ['failure modes', failureModesOption({ shop: { loop: 2 } }, ['loop', 'wrong element'])],
  ['sft overlay', sftOverlayOption([{ label: 'a', points: [{ step: 1, loss: 2, valLoss: 2.1 }] as never }, { label: 'b', points: [{ step: 1, loss: 2.2 }] as never }])],
  ['salvage overlay', salvageOverlayOption([{ label: 'a', points: salvage as never }, { label: 'b', points: salvage as never }], 'keptShare')],
];

test('every named axis of every chart is named along its middle, never at its end where the title is', () => {
  for (const [name, o] of every) {
    for (const a of axes(o).filter((a) => a.name)) assert.equal(a.nameLocation, 'middle', `${name}: axis "${a.name}"`);
  }
});

test('axes that count things get whole-number ticks', () => {
  const counts: Array<[string, Option, string]> = [['composition', every[0][1], 'episodes'], ['gates', every[8][1], 'groups'], ['failure modes', every[11][1], 'failures']];
  for (const [name, o, axis] of counts) assert.equal(axes(o).find((a) => a.name === axis)?.minInterval, 1, `${name}: ${axis}`);
});

test('legends sit in one scrolling row under the plot, not over an axis', () => {
  for (const [name, o] of every) {
    const legends = (Array.isArray(o.legend) ? o.legend : o.legend ? [o.legend] : []) as Array<{ type?: string; bottom?: unknown; top?: unknown }>;
    for (const l of legends) {
      assert.equal(l.top, undefined, `${name}: legend at the top would cover the title`);
      assert.notEqual(l.bottom, undefined, `${name}: legend under the plot`);
      if (name !== 'composition') assert.equal(l.type, 'scroll', `${name}: one scrolling row, never wrapped up into the axis`);
    }
  }
});

test('a success chart whose rates are all 0% still shows a labelled bar per family, and its tooltip gives each interval', () => {
  const o = successOption([{ label: 'policy <b>', byFamily: { restaurants: { success: { value: 0, ci95: { low: 0, high: 0.06 } } }, wiki: { success: { value: 0, ci95: { low: 0, high: 0.06 } } } } }]);
  const s = (o.series as Array<{ label: { show: boolean; formatter: (p: { value: number | null }) => string }; data: Array<{ value: number; text: string }> }>)[0];
  assert.equal(s.label.show, true);
  assert.deepEqual(s.data.map((d) => s.label.formatter({ value: d.value })), ['0%', '0%']);
  assert.deepEqual(s.data.map((d) => d.text), ['0% [0, 6]', '0% [0, 6]']);
  const tip = (o.tooltip as { formatter: (ps: unknown[]) => string }).formatter([{ axisValue: 'wiki', seriesName: 'policy <b>', data: s.data[1] }]);
  assert.equal(tip, 'wiki<br>policy &lt;b&gt;: 0% [0, 6]', 'names are escaped: the tooltip is HTML');
});

test('the dataset rings name their parts with counts in a legend of their own, not in labels cut at the edge', () => {
  const o = compositionOption(stats);
  const rings = (o.series as Array<{ type: string; label?: { show: boolean } }>).filter((s) => s.type === 'pie');
  assert.equal(rings.length, 2);
  for (const r of rings) assert.equal(r.label?.show, false);
  const legends = o.legend as Array<{ data: string[]; formatter: (n: string) => string }>;
  assert.deepEqual(legends.map((l) => l.data.map(l.formatter)), [['success: 25', 'failure: 15'], ['train: 30', 'test: 10']]);
});

test('the yield of each retry arm is labelled with what it was measured on and its 95% interval', () => {
  const o = yieldOption(summary);
  const s = (o.series as Array<{ label: { formatter: (p: { dataIndex: number }) => string } }>)[0];
  assert.equal(s.label.formatter({ dataIndex: 0 }), '38/45 solved, 84% [71, 92]\n1.4 attempts per success');
  assert.equal(rateText(null, null), 'none');
});

test('overlays draw one line per run (SFT: validation where measured, and train), named by the run', () => {
  const sftSeries = (every.find(([n]) => n === 'sft overlay')![1].series as Array<{ name: string }>).map((x) => x.name);
  assert.deepEqual(sftSeries, ['a validation', 'a train', 'b train'], 'b has no validation loss: its train loss only');
  const o = every.find(([n]) => n === 'salvage overlay')![1];
  const series = o.series as Array<{ name: string; data: number[][] }>;
  assert.deepEqual(series.map((x) => x.name), ['a', 'b']);
  assert.deepEqual(series[0].data.map(([, y]) => y), [0.25, 0.25, 0.25, 0.25], 'kept share: 1 kept of 4 groups');
});
