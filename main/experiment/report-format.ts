/** How report.html and the Markdown report write figures: the same digits in both. */
import type { Interval } from '../common/stats.ts';

/** A share as a percentage with one decimal ("53.7%"); "n/a" where there is none. */
export const pct = (x: number | null | undefined): string => (x === null || x === undefined ? 'n/a' : `${(100 * x).toFixed(1)}%`);
/** A number with `d` decimals; "n/a" where there is none. */
export const num = (x: number | null | undefined, d = 2): string => (x === null || x === undefined ? 'n/a' : x.toFixed(d));
/** " [low, high]" with each end written by `f`; nothing where there is no interval. */
export const ci = (c: Interval | null | undefined, f: (x: number) => string): string => (c ? ` [${f(c.low)}, ${f(c.high)}]` : '');
