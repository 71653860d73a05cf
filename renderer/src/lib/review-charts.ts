/** ECharts options for the reflection-retry review: yield per arm (with its interval) and steps per success. */
import type { CollectionRunInfo } from '../../../preload/api.ts';
import { bottomLegend, categoryAxis, chartTitle, rateText, valueAxis } from './chart-style.ts';

type Summary = CollectionRunInfo['summary'];
const armName = (arm: string) => (arm === 'reflect' ? 'reflection retries' : 'blind retries');

export function yieldOption(summary: Summary | null) {
  const arms = summary?.arms ?? [];
  return {
    title: chartTitle(`Yield at ${summary?.attemptBudget ?? 0} attempts per task (95% Wilson intervals)`),
    tooltip: { trigger: 'item', formatter: (p: { dataIndex: number }) => { const a = arms[p.dataIndex]; return a ? `${armName(a.arm)}: ${a.successes}/${a.tasks} tasks, ${rateText(a.yield, a.yieldCi95)}` : ''; } },
    grid: { left: 56, right: 12, top: 64, bottom: 40 },
    xAxis: categoryAxis('arm', arms.map((a) => armName(a.arm))),
    yAxis: valueAxis('yield', { min: 0, max: 1, percent: true }),
    series: [
      {
        name: 'yield', type: 'bar', barWidth: '40%',
        data: arms.map((a) => ({ value: a.yield, itemStyle: { color: a.arm === 'reflect' ? '#2f6fdb' : '#9aa5b8' } })),
        label: { show: true, position: 'top', fontSize: 11, lineHeight: 14, formatter: (p: { dataIndex: number }) => { const a = arms[p.dataIndex]; return `${a.successes}/${a.tasks} solved, ${rateText(a.yield, a.yieldCi95)}\n${a.attemptsPerSuccess ?? '–'} attempts per success`; } },
      },
    ],
  };
}

export function stepsOption(summary: Summary | null) {
  const arms = (summary?.arms ?? []).filter((a) => a.stepsPerSuccess !== null);
  const sh = summary?.shortening;
  const cats = [...arms.map((a) => armName(a.arm)), ...(sh && sh.stepsBefore !== null ? ['all shortened'] : [])];
  const before = [...arms.map((a) => a.stepsPerSuccess), ...(sh && sh.stepsBefore !== null ? [sh.stepsBefore] : [])];
  const after = [...arms.map((a) => a.stepsPerSuccessShortened), ...(sh && sh.stepsAfter !== null ? [sh.stepsAfter] : [])];
  return {
    title: chartTitle('Steps per successful trajectory'),
    tooltip: { trigger: 'axis' },
    legend: bottomLegend,
    grid: { left: 56, right: 12, top: 40, bottom: 64 },
    xAxis: categoryAxis('arm', cats),
    yAxis: valueAxis('steps', { min: 0 }),
    series: [
      { name: 'before shortening', type: 'bar', data: before, itemStyle: { color: '#c9a227' }, label: { show: true, position: 'top' } },
      { name: 'after shortening', type: 'bar', data: after, itemStyle: { color: '#2e8b57' }, label: { show: true, position: 'top' } },
    ],
  };
}
