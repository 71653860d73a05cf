/**
 * report.html: one self-contained file (charts rendered to inline SVG on the server with ECharts'
 * SSR renderer, no script and no network), tables beside every chart, verdicts stated in words.
 */
import type { Interval } from '../common/stats.ts';
import type { Difference, ExperimentReport, Verdict } from './report.ts';
import { ci, num, pct } from './report-format.ts';

type Charts = typeof import('echarts');

const esc = (s: unknown) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
const pts = (d: Difference) => (d.value === null ? 'n/a' : `${(100 * d.value).toFixed(1)} pts${ci(d.ci95, (x) => (100 * x).toFixed(1))}`);

function svg(ec: Charts, option: Record<string, unknown>, width = 640, height = 300): string {
  const chart = ec.init(null, null, { renderer: 'svg', ssr: true, width, height });
  chart.setOption({ animation: false, ...option });
  const out = chart.renderToSVGString();
  chart.dispose();
  return `<div class="chart">${out}</div>`;
}

/** Bars with 95% interval whiskers (a custom series draws each whisker). */
function barsWithIntervals(ec: Charts, title: string, categories: string[], series: Array<{ name: string; values: Array<number | null>; intervals: Array<Interval | null> }>, percent: boolean): string {
  const scale = percent ? 100 : 1;
  const n = series.length;
  return svg(ec, {
    title: { text: title, left: 'left', textStyle: { fontSize: 13 } },
    legend: { bottom: 0 },
    grid: { top: 40, bottom: 80, left: 50, right: 20 },
    xAxis: { type: 'category', data: categories, axisLabel: { rotate: categories.length > 4 ? 20 : 0 } },
    yAxis: { type: 'value', name: percent ? '%' : '', ...(percent ? { min: 0, max: 100 } : { min: 0 }) },
    series: series.flatMap((s, si) => [
      { type: 'bar', name: s.name, data: s.values.map((v) => (v === null ? null : v * scale)) },
      {
        type: 'custom', name: s.name, silent: true, z: 10, encode: { x: 0, y: [1, 2] },
        data: s.intervals.map((c, i) => (c ? [i, c.low * scale, c.high * scale] : [i, NaN, NaN])),
        renderItem: (_p: unknown, api: { value(i: number): number; coord(v: number[]): number[]; size(v: number[]): number[] }) => {
          if (Number.isNaN(api.value(1))) return { type: 'group', children: [] };
          const band = api.size([1, 0])[0] * 0.8;
          const x = api.coord([api.value(0), 0])[0] - band / 2 + (band / n) * (si + 0.5);
          const lo = api.coord([api.value(0), api.value(1)])[1];
          const hi = api.coord([api.value(0), api.value(2)])[1];
          const style = { stroke: '#333', lineWidth: 1 };
          return { type: 'group', children: [
            { type: 'line', shape: { x1: x, y1: lo, x2: x, y2: hi }, style },
            { type: 'line', shape: { x1: x - 4, y1: lo, x2: x + 4, y2: lo }, style },
            { type: 'line', shape: { x1: x - 4, y1: hi, x2: x + 4, y2: hi }, style },
          ] };
        },
      },
    ]),
  });
}

function lines(ec: Charts, title: string, series: Array<{ name: string; points: Array<[number, number | null]> }>, xName: string): string {
  return svg(ec, {
    title: { text: title, left: 'left', textStyle: { fontSize: 13 } },
    legend: { bottom: 0, type: 'scroll' },
    grid: { top: 40, bottom: 70, left: 50, right: 30 },
    xAxis: { type: 'value', name: xName },
    yAxis: { type: 'value', scale: true },
    series: series.map((s) => ({ type: 'line', name: s.name, showSymbol: s.points.length < 20, connectNulls: true, data: s.points })),
  });
}

const verdictClass = (v: Verdict) => (v === 'reproduced' ? 'ok' : v === 'not reproduced' ? 'bad' : 'meh');
const table = (head: string[], rows: unknown[][]) =>
  `<table><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>${rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</table>`;

export async function renderReportHtml(r: ExperimentReport): Promise<string> {
  const ec = await import('echarts');
  const c1 = r.claims.fewerSteps;
  const c2 = r.claims.salvageBeatsSft;
  const methods = r.methods.map((m) => m.method);
  const parts: string[] = [];
  const h = (t: string) => parts.push(`<h2>${esc(t)}</h2>`);

  const amendments = r.config.amendments ?? [];
  if (amendments.length) {
    h('Amendments');
    parts.push(`<p class="note">The configuration was changed after the experiment started (config.json holds the new values):</p>`);
    parts.push(table(['when', 'change', 'why', 'stages reopened'], amendments.map((a) => [a.at, a.change, a.why, a.reopened.join(', ') || 'none'])));
  }

  h('Claims');
  parts.push(`<p class="${verdictClass(c1.verdict)}"><b>Claim 1 — ${esc(c1.verdict)}.</b> ${esc(c1.claim)}. Steps on solved test tasks: reflection-trained ${num(c1.reflect.value)}${ci(c1.reflect.ci95, (x) => num(x))} (${c1.reflect.n} solved), plain-trained ${num(c1.plain.value)}${ci(c1.plain.ci95, (x) => num(x))} (${c1.plain.n} solved); difference ${num(c1.difference.value)}${ci(c1.difference.ci95, (x) => num(x))} steps, relative reduction ${pct(c1.relativeReduction)}. On the ${c1.common.tasks} test tasks both solved: ${num(c1.common.reflect)} vs ${num(c1.common.plain)}.</p>`);
  parts.push(`<p class="${verdictClass(c2.verdict)}"><b>Claim 2 — ${esc(c2.verdict)}.</b> ${esc(c2.claim)}. Salvage-DS minus SFT (reflection-trained), pooled over ${r.methods.find((m) => m.method === 'salvage')?.seeds.length ?? 0} training seed(s): test ${pts(c2.test.difference)} (${esc(c2.test.verdict)}), held-out ${pts(c2.heldout.difference)} (${esc(c2.heldout.verdict)}).</p>`);
  const pr = r.precision;
  const hw = (x: number | null, unit: string, target: number) => (x === null ? 'no interval' : `+-${x.toFixed(2)} ${unit} (target +-${target})`);
  parts.push(`<p class="note">Precision (half-width of each 95% interval): claim 1 ${hw(pr.fewerSteps, 'steps', pr.target.steps)}; claim 2 test ${hw(pr.salvageTest, 'points', pr.target.points)}, held-out ${hw(pr.salvageHeldout, 'points', pr.target.points)}: ${pr.met ? 'every target met' : 'not every target met'}.</p>`);
  parts.push(`<p class="note">Verdict rule, fixed in advance: reproduced when the 95% interval of the difference lies on the claimed side of 0; inconclusive when only the point estimate does; not reproduced otherwise. The evaluation is greedy decoding on the preset's seeds, the same for every method.</p>`);

  h('Success per method (95% Wilson intervals)');
  parts.push(barsWithIntervals(ec, 'Success rate', methods, [
    { name: 'test seeds', values: r.methods.map((m) => m.test.success.value), intervals: r.methods.map((m) => m.test.success.ci95) },
    { name: 'held-out families', values: r.methods.map((m) => m.heldout?.success.value ?? null), intervals: r.methods.map((m) => m.heldout?.success.ci95 ?? null) },
  ], true));
  parts.push(table(['method', 'seeds', 'test success', 'test by seed (t)', 'held-out success', 'steps on solved (test)', 'invalid actions (test)'], r.methods.map((m) => [
    m.method, m.seeds.join(','), `${m.test.success.k}/${m.test.success.n} ${pct(m.test.success.value)}${ci(m.test.success.ci95, pct)}`,
    `${pct(m.test.successBySeed.value)}${ci(m.test.successBySeed.ci95, pct)}`,
    m.heldout ? `${m.heldout.success.k}/${m.heldout.success.n} ${pct(m.heldout.success.value)}${ci(m.heldout.success.ci95, pct)}` : 'not evaluated',
    `${num(m.test.stepsOnSolved.value)}${ci(m.test.stepsOnSolved.ci95, (x) => num(x))}`, `${pct(m.test.invalidActions.value)}${ci(m.test.invalidActions.ci95, pct)}`,
  ])));

  h('Steps on solved test tasks: reflection-trained vs plain-trained SFT');
  parts.push(barsWithIntervals(ec, 'Mean steps on solved test tasks', ['sft-reflect', 'sft-plain'], [
    { name: 'steps', values: [c1.reflect.value, c1.plain.value], intervals: [c1.reflect.ci95, c1.plain.ci95] },
  ], false));

  h('SFT vs Salvage-DS vs each ablation (success points)');
  parts.push(table(['variant', 'test vs SFT', 'test vs Salvage-DS', 'held-out vs SFT', 'held-out vs Salvage-DS'], [
    ['salvage', pts(c2.test.difference), '-', pts(c2.heldout.difference), '-'],
    ...r.ablations.map((a) => [a.variant, pts(a.test.vsSft), pts(a.test.vsSalvage), pts(a.heldout.vsSft), pts(a.heldout.vsSalvage)]),
  ]));
  const at = r.config.salvage.ablationSeeds;
  parts.push(`<p>Each ablation is compared with Salvage-DS at the same training seeds${at ? `: the ablations train at seed${at.length > 1 ? 's' : ''} ${esc(at.join(', '))} only (<code>ablationSeeds</code>), Salvage-DS at every seed` : ''}.</p>`);

  h('Failure modes of the SFT policy on training instances');
  const modes = Object.keys(r.failureModes.byMode);
  parts.push(svg(ec, {
    title: { text: `${r.failureModes.failures} failures mined of ${r.failureModes.failed} failed rollouts${r.failureModes.distinctStates !== undefined ? `, ${r.failureModes.distinctStates} distinct states` : ''}`, textStyle: { fontSize: 13 } },
    grid: { top: 40, bottom: 60, left: 50, right: 20 },
    xAxis: { type: 'category', data: modes, axisLabel: { rotate: 20 } }, yAxis: { type: 'value', minInterval: 1 },
    series: [{ type: 'bar', data: modes.map((k) => r.failureModes.byMode[k]) }],
  }));
  parts.push(table(['family', ...modes], Object.entries(r.failureModes.byFamily).map(([f, c]) => [f, ...modes.map((k) => c[k] ?? 0)])));
  const conf = r.failureModes.confirmation;
  if (conf) {
    // Branching: the reference action and the policy's, each followed by the oracle, from the critical state.
    parts.push(table(['confirmed by branching', ...Object.keys(conf)], [['states', ...Object.values(conf)]]));
    const byMode = r.failureModes.confirmationByMode;
    if (byMode) parts.push(table(['branched states by mode', ...Object.keys(conf)], Object.entries(byMode).map(([m, c]) => [m, ...Object.keys(conf).map((k) => c[k] ?? 0)])));
  }

  const sm = r.salvageByMode;
  if (sm) {
    h('Salvage rate per failure mode');
    parts.push(`<p>Test instances the reflection-trained SFT policy failed, by mined failure mode, and the share of Salvage-DS's episodes on those instances that succeed (pooled over its seeds): ${sm.allFailed.k}/${sm.allFailed.n} of SFT's failures solved; ${sm.lostOfSolved.k}/${sm.lostOfSolved.n} of its episodes on instances SFT solved lost.</p>`);
    parts.push(table(['mode', 'SFT failed', 'Salvage-DS solved', '95% interval'], Object.entries(sm.byMode).map(([m, c]) => [m, c.sftFailed, `${c.salvage.k}/${c.salvage.n}`, c.salvage.ci95 ? `${(100 * c.salvage.ci95.low).toFixed(1)}-${(100 * c.salvage.ci95.high).toFixed(1)}%` : '-'])));
  }

  h('Training curves');
  parts.push(lines(ec, 'SFT loss (loss tokens only)', [
    { name: 'reflect: train', points: r.sft.reflect.curve.map((p) => [p.step, p.loss]) },
    { name: 'plain: train', points: r.sft.plain.curve.map((p) => [p.step, p.loss]) },
    { name: 'reflect: validation', points: r.sft.reflect.curve.filter((p) => p.valLoss !== null).map((p) => [p.step, p.valLoss]) },
    { name: 'plain: validation', points: r.sft.plain.curve.filter((p) => p.valLoss !== null).map((p) => [p.step, p.valLoss]) },
  ], 'step'));
  const sc = r.salvageCurves;
  parts.push(lines(ec, 'Salvage-DS mean reward per iteration', sc.map((c) => ({ name: `${c.variant} s${c.seed}`, points: c.iterations.map((s) => [s.iteration + 1, s.meanReward]) })), 'iteration'));
  parts.push(lines(ec, 'Groups kept by the gates (share)', sc.map((c) => ({ name: `${c.variant} s${c.seed}`, points: c.iterations.map((s) => [s.iteration + 1, s.groups ? s.kept / s.groups : null]) })), 'iteration'));
  parts.push(table(['run', 'states (critical)', 'mean reward', 'kept', 'rejected: contrast', 'rejected: competence', 'anchored', 'dropped', 'mean KL'], sc.map((c) => {
    const sum = (k: string) => c.iterations.reduce((n, s) => n + (s[k] ?? 0), 0);
    const mean = (k: string) => (c.iterations.length ? sum(k) / c.iterations.length : null);
    return [`${c.variant} s${c.seed}`, `${c.states} (${c.critical})`, num(mean('meanReward'), 3), `${sum('kept')}/${sum('groups')}`, sum('rejectedByContrast'), sum('rejectedByCompetence'), sum('anchored'), sum('dropped'), num(mean('kl'), 4)];
  })));

  h('Collection (training families)');
  const arms = [...r.collection.reflect.arms.map((a) => ({ run: 'reflection run', ...a })), ...r.collection.plain.arms.map((a) => ({ run: 'plain run', ...a }))];
  parts.push(table(['run', 'arm', 'yield', 'attempts/success', 'steps/success', 'after shortening', 'on tasks every arm solved'], arms.map((a) => [a.run, a.arm, `${a.successes}/${a.tasks}`, num(a.attemptsPerSuccess), num(a.stepsPerSuccess), num(a.stepsPerSuccessShortened), num(a.stepsPerSuccessCommon)])));
  const s = r.collection.reflect.shortening;
  if (s) parts.push(`<p>Shortening: ${s.shortened} of ${s.trajectories} successful trajectories kept shorter (replay checked), mean steps ${num(s.stepsBefore)} → ${num(s.stepsAfter)}.</p>`);
  parts.push(table(['dataset', 'episodes', 'steps'], [[`${r.datasets.reflect.name}@v${r.datasets.reflect.version} (reflection, shortened)`, r.datasets.reflect.episodes, r.datasets.reflect.steps], [`${r.datasets.plain.name}@v${r.datasets.plain.version} (plain)`, r.datasets.plain.episodes, r.datasets.plain.steps]]));

  h('Run');
  const init = r.config.sft.init ? ` SFT fine-tuned the ${esc(r.config.sft.init)} policy (weights SHA-256 ${esc((r.config.sft.initDigest ?? '').slice(0, 12))}…) on each arm's episodes.` : ' SFT trained from random weights.';
  parts.push(`<p>Preset <b>${esc(r.config.preset)}</b>;${init} Browser ${esc(r.backend.browser)}; SFT backend ${esc(r.backend.sft.join(', '))}; Salvage-DS backend ${esc(r.backend.salvage.join(', '))}; stage time ${r.totalS.toFixed(0)} s.</p>`);
  parts.push(table(['stage', 'seconds', 'attempts'], r.timings.map((t) => [t.stage, t.elapsedS.toFixed(1), t.attempts])));
  parts.push(`<details><summary>Configuration</summary><pre>${esc(JSON.stringify(r.config, null, 2))}</pre></details>`);

  return `<!doctype html><html><head><meta charset="utf-8"><title>Experiment ${esc(r.experimentId)}</title><style>
body{font:14px/1.45 system-ui,sans-serif;max-width:980px;margin:24px auto;padding:0 16px;color:#222}
table{border-collapse:collapse;margin:8px 0 16px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}th{background:#f3f3f3}
.ok{border-left:4px solid #2a2;padding-left:8px}.bad{border-left:4px solid #c22;padding-left:8px}.meh{border-left:4px solid #c90;padding-left:8px}.note{color:#666}
.chart svg{max-width:100%;height:auto}</style></head><body>
<h1>RMSWeb experiment ${esc(r.experimentId)}</h1>${parts.join('\n')}</body></html>
`;
}
