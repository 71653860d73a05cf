/**
 * The agent x task results grid of one collection run, evaluation or experiment: which agent (arm,
 * policy) solved which task family or instance, how often and in how many steps. Computed from
 * the episode list's rows, so a label that overrides an outcome counts as the person set it.
 */
import { wilson } from '../common/stats.ts';
import { SCOPE_KINDS, type GridCell, type GridColumns, type GridEpisode, type ResultsGrid, type ResultsScope, type ScopeInfo } from '../../preload/views.ts';

/** The runs, evaluations and experiments the rows belong to, each with its episode count, newest id first. */
export function listScopes(rows: readonly GridEpisode[]): ScopeInfo[] {
  const counts = new Map<string, ScopeInfo>();
  for (const r of rows) {
    for (const kind of SCOPE_KINDS) {
      const id = r.provenance[kind];
      if (!id) continue;
      const key = `${kind}\u0000${id}`;
      const info = counts.get(key) ?? { kind, id, episodes: 0 };
      info.episodes++;
      counts.set(key, info);
    }
  }
  return [...counts.values()].sort((a, b) => SCOPE_KINDS.indexOf(a.kind) - SCOPE_KINDS.indexOf(b.kind) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/**
 * The grid of one scope. A collection's shared first attempt counts in both arms' rows (as the run
 * summary counts it), so each arm's row is what that arm spent.
 */
export function resultsGrid(rows: readonly GridEpisode[], scope: ResultsScope, columns: GridColumns = 'family', heldOutFamilies: ReadonlySet<string> = new Set()): ResultsGrid {
  if (!SCOPE_KINDS.includes(scope.kind)) throw new Error(`results grid: scope kind must be ${SCOPE_KINDS.join(', ')}, got "${scope.kind}"`);
  if (columns !== 'family' && columns !== 'instance') throw new Error(`results grid: columns must be family or instance, got "${columns}"`);
  const mine = rows.filter((r) => r.provenance[scope.kind] === scope.id);
  if (!mine.length) throw new Error(`results grid: no episode of ${scope.kind} ${scope.id} in the lab`);
  const arms = new Set(mine.map((r) => r.provenance.arm).filter((a) => a && a !== 'shared'));
  const splitOf = (e: GridEpisode) => (heldOutFamilies.has(e.family) ? 'held out' : e.split === 'train' ? 'training instances' : e.split);
  const splits = new Set(mine.map(splitOf));
  const byCell = new Map<string, Map<string, GridEpisode[]>>();
  const add = (row: string, col: string, e: GridEpisode) => {
    const cols = byCell.get(row) ?? new Map<string, GridEpisode[]>();
    byCell.set(row, cols);
    cols.set(col, [...(cols.get(col) ?? []), e]);
  };
  for (const e of mine) {
    const col = columns === 'family' ? e.family : instanceLabel(e);
    for (const row of rowLabels(e, arms)) add(splits.size > 1 ? `${row} · ${splitOf(e)}` : row, col, e);
  }
  const rowNames = [...byCell.keys()].sort();
  const colNames = [...new Set(mine.map((e) => (columns === 'family' ? e.family : instanceLabel(e))))].sort(byInstance);
  const cells: ResultsGrid['cells'] = {};
  const totals: ResultsGrid['totals'] = {};
  for (const row of rowNames) {
    const cols = byCell.get(row)!;
    cells[row] = Object.fromEntries([...cols].map(([col, es]) => [col, cellOf(es)]));
    totals[row] = cellOf([...cols.values()].flat());
  }
  return { scope, columns, rows: rowNames, cols: colNames, cells, totals };
}

export const instanceLabel = (e: Pick<GridEpisode, 'family' | 'seed' | 'tier'>): string => `${e.family} #${e.seed} t${e.tier}`;

/** The agent, its policy folder (policies differ in an experiment), and its arm where the scope ran two. */
function rowLabels(e: GridEpisode, arms: ReadonlySet<string | null>): string[] {
  const agent = e.provenance.policy ? `${e.agent} ${e.provenance.policy}` : e.agent;
  const arm = e.provenance.arm;
  if (!arm || arms.size < 2) return [agent];
  return arm === 'shared' ? [...arms].map((a) => `${agent} · ${a}`) : [`${agent} · ${arm}`];
}

function cellOf(es: readonly GridEpisode[]): GridCell {
  const unique = [...new Map(es.map((e) => [e.id, e])).values()];
  const finished = unique.filter((e) => e.outcome === 'success' || e.outcome === 'failure');
  const solved = finished.filter((e) => e.outcome === 'success');
  return {
    episodes: finished.length,
    successes: solved.length,
    successRate: finished.length ? solved.length / finished.length : null,
    ci95: wilson(solved.length, finished.length),
    meanSteps: mean(finished.map((e) => e.steps)),
    meanStepsSolved: mean(solved.map((e) => e.steps)),
    unfinished: unique.length - finished.length,
    ids: unique.map((e) => e.id).sort(),
  };
}

function mean(xs: number[]): number | null {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
}

/** Families by name; instances by family, then seed as a number (so #9 comes before #10). */
function byInstance(a: string, b: string): number {
  const [fa, sa] = a.split(' #');
  const [fb, sb] = b.split(' #');
  return fa.localeCompare(fb) || (parseInt(sa ?? '0', 10) - parseInt(sb ?? '0', 10)) || a.localeCompare(b);
}
