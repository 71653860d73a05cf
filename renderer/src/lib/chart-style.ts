/**
 * Layout every chart of the app shares, so axis names, titles and legends never sit on each other:
 * the title at the top left, axis names centred along their axis (not at its end, where a y-axis
 * name meets the title), legends in one scrolling row under the plot (a wrapped legend grows up
 * into the axis labels).
 */
export const chartTitle = (text: string) => ({ text, left: 8, textStyle: { fontSize: 12 } });

export const bottomLegend = { type: 'scroll', bottom: 0, itemWidth: 14, itemHeight: 8, textStyle: { fontSize: 11 } };

/** Room for a bottom legend row and the x-axis name above it. */
export const chartGrid = { left: 56, right: 56, top: 40, bottom: 64 };

/** A value axis named along its middle; `counts` for whole numbers (no 2.5 episodes on the ticks). */
export function valueAxis(name: string, o: { counts?: boolean; gap?: number; min?: number; max?: number; scale?: boolean; percent?: boolean } = {}) {
  return {
    type: 'value', name, nameLocation: 'middle', nameGap: o.gap ?? 40,
    ...(o.counts ? { minInterval: 1 } : {}),
    ...(o.min !== undefined ? { min: o.min } : {}),
    ...(o.max !== undefined ? { max: o.max } : {}),
    ...(o.scale ? { scale: true } : {}),
    ...(o.percent ? { axisLabel: { formatter: percentLabel } } : {}),
  };
}

/** A category axis named under its middle. */
export function categoryAxis(name: string, data: readonly (string | number)[], o: { rotate?: number } = {}) {
  return { type: 'category', name, nameLocation: 'middle', nameGap: o.rotate ? 44 : 26, data: [...data], ...(o.rotate ? { axisLabel: { rotate: o.rotate } } : {}) };
}

export const percentLabel = (v: number) => `${Math.round(v * 100)}%`;

/** A rate with its interval, as tooltips and bar labels print it: "40% [25, 57]". */
export function rateText(value: number | null, ci: { low: number; high: number } | null | undefined): string {
  if (value === null) return 'none';
  return `${percentLabel(value)}${ci ? ` [${Math.round(ci.low * 100)}, ${Math.round(ci.high * 100)}]` : ''}`;
}
