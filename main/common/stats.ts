/**
 * 95% confidence intervals for evaluation figures: Wilson score intervals for rates (they stay
 * inside [0, 1] and behave at 0 and n successes, where the normal approximation does not),
 * Student-t intervals for means over a few runs, and seeded percentile bootstrap for means of
 * skewed quantities such as steps.
 */
import { Rng } from './rng.ts';

export interface Interval {
  low: number;
  high: number;
}

export interface Rate {
  k: number;
  n: number;
  /** k / n, or null for n = 0. */
  value: number | null;
  ci95: Interval | null;
}

export interface Mean {
  n: number;
  value: number | null;
  ci95: Interval | null;
}

const Z95 = 1.959963984540054;

/** Wilson score interval for k successes in n trials. */
export function wilson(k: number, n: number, z = Z95): Interval | null {
  if (n <= 0) return null;
  if (k < 0 || k > n) throw new Error(`wilson: k = ${k} is outside 0..${n}`);
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  // At 0 and n the bounds are exactly 0 and 1; the formula gets there only up to rounding.
  return { low: k === 0 ? 0 : Math.max(0, centre - half), high: k === n ? 1 : Math.min(1, centre + half) };
}

export function rate(k: number, n: number): Rate {
  return { k, n, value: n > 0 ? k / n : null, ci95: wilson(k, n) };
}

/** Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom. */
const T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

export function tQuantile975(df: number): number {
  if (df < 1) throw new Error('t quantile needs at least one degree of freedom');
  return df <= 30 ? T975[df - 1] : Z95 + 2.4 / df; // close to the exact value past 30 (2.021 at 40, 1.984 at 100)
}

function average(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** Mean with a Student-t interval (none for fewer than two values). */
export function tMean(xs: readonly number[]): Mean {
  if (!xs.length) return { n: 0, value: null, ci95: null };
  const m = average(xs);
  if (xs.length < 2) return { n: xs.length, value: m, ci95: null };
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
  const half = (tQuantile975(xs.length - 1) * sd) / Math.sqrt(xs.length);
  return { n: xs.length, value: m, ci95: { low: m - half, high: m + half } };
}

/**
 * A 95% interval for a ratio (a speedup) from repeated measurements: Student-t on the logarithms,
 * mapped back, so it stays positive and is symmetric in "x times faster" and "x times slower".
 * Null with fewer than two values. The value is the geometric mean.
 */
export function ratioMean(xs: readonly number[]): Mean {
  const logs = xs.filter((x) => x > 0).map(Math.log);
  const m = tMean(logs);
  return { n: m.n, value: m.value === null ? null : Math.exp(m.value), ci95: m.ci95 && { low: Math.exp(m.ci95.low), high: Math.exp(m.ci95.high) } };
}

/** Mean with a percentile-bootstrap interval from `resamples` seeded resamples. */
export function bootstrapMean(xs: readonly number[], resamples = 2000, seed = 1): Mean {
  if (!xs.length) return { n: 0, value: null, ci95: null };
  const m = average(xs);
  if (xs.length < 2) return { n: xs.length, value: m, ci95: null };
  const rng = new Rng(seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (let i = 0; i < xs.length; i++) s += xs[rng.below(xs.length)];
    means[r] = s / xs.length;
  }
  means.sort();
  const at = (q: number) => means[Math.min(resamples - 1, Math.max(0, Math.floor(q * resamples)))];
  return { n: xs.length, value: m, ci95: { low: at(0.025), high: at(0.975) } };
}
