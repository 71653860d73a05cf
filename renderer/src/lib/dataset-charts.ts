/** ECharts option for a dataset's composition: episodes by family (bars), by outcome and by split (rings). */
import type { DatasetStats } from '../../../preload/api.ts';
import { categoryAxis, chartTitle, valueAxis } from './chart-style.ts';

/**
 * A ring in a box of its own (a quarter of the width), its parts named in a legend under it with
 * their counts: labels around a ring this small were cut off ("f...") or ran into the next ring.
 */
function ring(name: string, counts: Record<string, number>, left: string) {
  return {
    name, type: 'pie', left, width: '25%', top: 28, bottom: 76,
    radius: ['45%', '75%'], label: { show: false },
    data: Object.entries(counts).map(([n, value]) => ({ name: n, value })),
  };
}

function ringLegend(counts: Record<string, number>, left: string) {
  return {
    data: Object.keys(counts), left, bottom: 4, orient: 'vertical', itemGap: 3, itemWidth: 10, itemHeight: 8,
    textStyle: { fontSize: 11 }, formatter: (n: string) => `${n}: ${counts[n] ?? 0}`,
  };
}

export function compositionOption(stats: DatasetStats) {
  const families = Object.keys(stats.byFamily);
  return {
    tooltip: { trigger: 'item' },
    title: [
      chartTitle('by family'),
      { ...chartTitle('by outcome'), left: '52%' },
      { ...chartTitle('by split'), left: '77%' },
    ],
    legend: [ringLegend(stats.byOutcome, '56%'), ringLegend(stats.bySplit, '81%')],
    grid: { left: 56, right: '52%', top: 40, bottom: 64 },
    xAxis: categoryAxis('family', families, { rotate: families.length > 3 ? 30 : 0 }),
    yAxis: valueAxis('episodes', { counts: true }),
    series: [
      { name: 'episodes', type: 'bar', data: families.map((f) => stats.byFamily[f]), label: { show: true, position: 'top' } },
      ring('outcome', stats.byOutcome, '50%'),
      ring('split', stats.bySplit, '75%'),
    ],
  };
}
