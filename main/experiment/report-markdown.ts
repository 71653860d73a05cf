/**
 * An experiment's report as Markdown: the claims with their verdicts and intervals, the precision
 * the run reached, collection, SFT, every method and ablation, the failure modes and the time
 * spent, as tables to paste into a README, a paper's notes or an issue. Every figure is read from
 * report.json (`lab experiment report ID --markdown`), so what the docs quote can be regenerated.
 */
import type { Mean, Rate } from '../common/stats.ts';
import type { Difference, ExperimentReport } from './report.ts';
import { ci, num, pct } from './report-format.ts';
import { formatDuration } from '../../preload/duration.ts';

const signed = (x: number, f: (x: number) => string) => `${x > 0 ? '+' : ''}${f(x)}`;
/** A success-rate difference in points: "+2.4 [-1.0, +5.8]". */
const points = (d: Difference) => (d.value === null ? 'n/a' : `${signed(100 * d.value, (x) => x.toFixed(1))}${ci(d.ci95, (x) => signed(x * 100, (y) => y.toFixed(1)))}`);
/** A steps difference: "-0.11 [-0.24, +0.03]". */
const steps = (d: Difference) => (d.value === null ? 'n/a' : `${signed(d.value, (x) => x.toFixed(2))}${ci(d.ci95, (x) => signed(x, (y) => y.toFixed(2)))}`);
const success = (r: Rate) => `${r.k}/${r.n}, ${pct(r.value)}${ci(r.ci95, (x) => (100 * x).toFixed(1))}`;
const mean = (m: Mean) => (m.value === null ? 'n/a' : `${num(m.value)}${ci(m.ci95, (x) => x.toFixed(2))} (n = ${m.n})`);
const int = (x: number) => x.toLocaleString('en-US');
const sentence = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export function renderReportMarkdown(r: ExperimentReport): string {
  const c1 = r.claims.fewerSteps;
  const c2 = r.claims.salvageBeatsSft;
  const p = r.precision as ExperimentReport['precision'] | undefined;
  const within = (x: number | null, target: number, unit: string) => (x === null ? 'no interval' : `+-${num(x, unit === 'steps' ? 2 : 1)} ${unit} (target +-${target}: ${x <= target ? 'met' : 'not met'})`);
  const out: string[] = [];
  out.push(`# Experiment \`${r.experimentId}\` (preset ${r.config.preset})`);
  out.push(`${formatDuration(r.totalS)}${r.totalS >= 60 ? ` (${int(Math.round(r.totalS))} s)` : ''} of stages; browser ${r.backend.browser}; SFT on ${r.backend.sft.join(', ')}, Salvage-DS on ${r.backend.salvage.join(', ') || 'n/a'}. ${r.partial ? `**Partial report** of an unfinished experiment (${r.partial.stagesDone} of ${r.partial.stages} stages; each Salvage-DS variant over the training seeds evaluated so far), made` : 'Report written'} ${r.createdAt}.`);

  const amendments = r.config.amendments ?? [];
  if (amendments.length) {
    out.push('## Amendments');
    out.push('The configuration was changed after the experiment started (config.json holds the new values):');
    const stop = (t: string) => (/[.!?]$/.test(t) ? t : `${t}.`);
    out.push(amendments.map((a) => `- ${a.at}: ${stop(a.change)} Why: ${stop(a.why)}${a.reopened.length ? ` Reopened: ${a.reopened.join(', ')}.` : ''}`).join('\n'));
  }

  out.push('## Claims');
  out.push(`**Claim 1: ${c1.verdict}.** ${sentence(c1.claim)}. Steps on solved test tasks: ${mean(c1.reflect)} reflection-trained against ${mean(c1.plain)} plain-trained; difference ${steps(c1.difference)} (bootstrap 95% interval), ${c1.relativeReduction === null ? 'no relative figure' : `${pct(c1.relativeReduction)} fewer`}. On the ${c1.common.tasks} test tasks both solved: ${num(c1.common.reflect)} against ${num(c1.common.plain)}, ${steps(c1.common.difference)}.`);
  out.push(`**Claim 2: ${c2.verdict}.** ${sentence(c2.claim)}. Salvage-DS - SFT (reflection-trained), success points: test ${points(c2.test.difference)} (${c2.test.verdict}), held out ${points(c2.heldout.difference)} (${c2.heldout.verdict}).`);
  // Reports written before 2026-12-05 have no precision block.
  out.push(p
    ? `Precision (half-width of each difference's 95% interval): claim 1 ${within(p.fewerSteps, p.target.steps, 'steps')}; claim 2 test ${within(p.salvageTest, p.target.points, 'points')}, held out ${within(p.salvageHeldout, p.target.points, 'points')}. ${p.met ? 'Every target met.' : 'Not every target met.'}`
    : 'Precision: not recorded (a report written before reports stated it).');

  out.push('## Collection');
  const arms = [r.collection.reflect, r.collection.plain].flatMap((s, i) => s.arms.map((a) => [i === 0 ? 'reflection run' : 'plain run', a.arm, `${a.successes}/${a.tasks}`, num(a.attemptsPerSuccess), num(a.stepsPerSuccess)]));
  out.push(table(['run', 'arm', 'solved', 'attempts per success', 'steps per success'], arms));
  const sh = r.collection.reflect.shortening;
  if (sh) out.push(`Shortening (reflection run): ${sh.shortened} of ${sh.trajectories} successful trajectories cut, ${num(sh.stepsBefore)} to ${num(sh.stepsAfter)} steps on average.`);
  out.push(`Datasets: reflection ${int(r.datasets.reflect.episodes)} episodes / ${int(r.datasets.reflect.steps)} steps, plain ${int(r.datasets.plain.episodes)} / ${int(r.datasets.plain.steps)}.`);

  out.push('## SFT');
  out.push(table(['data', 'steps', 'training samples', 'final loss', 'validation loss', 'tokens/s'],
    (['reflect', 'plain'] as const).map((k) => [k === 'reflect' ? 'reflection' : 'plain', String(r.sft[k].steps), int(r.sft[k].trainSamples), num(r.sft[k].finalLoss, 3), `${num(r.sft[k].valLoss, 3)} (${r.sft[k].valOn})`, int(Math.round(r.sft[k].tokensPerSec))])));

  out.push('## Methods');
  out.push(`Tier ${r.config.eval.tier}, greedy${r.config.eval.guided ? ', guided' : ''}; success with Wilson 95% intervals, pooled over training seeds.`);
  out.push(table(['method', 'training seeds', 'test success', 'steps on solved', 'invalid actions', 'held-out success'],
    r.methods.map((m) => [m.method, m.seeds.join(', ') || 'none yet', success(m.test.success), mean(m.test.stepsOnSolved), pct(m.test.invalidActions.value), m.heldout ? success(m.heldout.success) : '-'])));

  if (r.ablations.length) {
    out.push('## Ablations');
    const at = r.config.salvage.ablationSeeds;
    out.push(`Success difference in points, Newcombe 95% intervals; each ablation against Salvage-DS at the same training seeds${at ? ` (the ablations train at seed${at.length > 1 ? 's' : ''} ${at.join(', ')} only, \`ablationSeeds\`; Salvage-DS at every seed)` : ''}.`);
    out.push(table(['variant', 'test vs SFT', 'test vs Salvage-DS', 'held out vs SFT', 'held out vs Salvage-DS'],
      r.ablations.map((a) => [a.variant, points(a.test.vsSft), points(a.test.vsSalvage), points(a.heldout.vsSft), points(a.heldout.vsSalvage)])));
  }

  if (r.gates?.length) {
    out.push('## Gates');
    out.push('Groups of each Salvage-DS run, summed over its iterations: kept for the policy gradient, refused by each gate (a group both refuse counts in both), anchored on the reference action or dropped; the share of samples with the reference\'s meaning.');
    const share = (k: number, n: number) => `${k} (${pct(n ? k / n : null)})`;
    out.push(table(['variant', 'seed', 'groups', 'kept', 'refused: contrast', 'refused: competence', 'anchored', 'dropped', 'updates', 'correct samples'],
      r.gates.map((g) => [g.variant, String(g.seed), String(g.groups), share(g.kept, g.groups), String(g.rejectedByContrast), String(g.rejectedByCompetence), share(g.anchored, g.groups), share(g.dropped, g.groups), String(g.updates), pct(g.meanCorrectShare)])));
  }

  out.push('## Failure modes');
  const f = r.failureModes;
  const rollouts = f.evalIds && f.evalIds.length > 1 ? `${f.evalIds.length} rollout evaluations (${f.evalIds.join(', ')})` : `evaluation ${f.evalId}`;
  out.push(`${f.failures} failures mined from ${f.failed} failed rollouts (${rollouts})${f.distinctStates !== undefined ? `, ${f.distinctStates} distinct critical states` : ''}${f.confirmation ? `; branching: ${Object.entries(f.confirmation).filter(([, n]) => n).map(([k, n]) => `${n} ${k}`).join(', ')}` : ''}.`);
  if (f.confirmationByMode) {
    const statuses = ['confirmed', 'recoverable', 'unreachable', 'unreproducible', 'not_branchable'];
    out.push(table(['mode (branched states)', ...statuses, 'confirmed share'], Object.entries(f.confirmationByMode).map(([m, c]) => {
      const n = statuses.reduce((a, k) => a + (c[k] ?? 0), 0);
      return [m, ...statuses.map((k) => String(c[k] ?? 0)), pct(n ? (c.confirmed ?? 0) / n : null)];
    })));
  }
  const modes = Object.keys(f.byMode).filter((m) => f.byMode[m]);
  const families = Object.keys(f.byFamily).sort();
  out.push(table(['mode', 'all', ...families], modes.map((m) => [m, String(f.byMode[m]), ...families.map((fam) => String(f.byFamily[fam]?.[m] ?? 0))])));

  const sm = r.salvageByMode;
  if (sm) {
    out.push('## Salvage rate per failure mode');
    out.push(`Test instances the reflection-trained SFT policy failed, by the mode its failure was mined as (evaluation ${sm.evalId}), and the share of Salvage-DS's episodes on the same instances that succeed (Wilson 95% intervals, pooled over its seeds). Salvage-DS solves ${success(sm.allFailed)} of SFT's failures and loses ${success(sm.lostOfSolved)} of SFT's successes.`);
    out.push(table(['mode', 'SFT failed', 'Salvage-DS solved'], Object.entries(sm.byMode).sort((a, b) => b[1].sftFailed - a[1].sftFailed).map(([m, c]) => [m, String(c.sftFailed), success(c.salvage)])));
  }

  out.push('## Time');
  const byKind = new Map<string, { s: number; stages: number; ran: number }>();
  for (const t of r.timings) {
    const kind = t.stage.startsWith('collect-') ? 'collection' : t.stage.startsWith('sft-') ? 'SFT' : t.stage.startsWith('salvage-') ? 'Salvage-DS' : t.stage === 'mine' || t.stage.startsWith('rollout-') ? 'rollouts and mining' : t.stage === 'datasets' ? 'datasets' : 'evaluations';
    const acc = byKind.get(kind) ?? { s: 0, stages: 0, ran: 0 };
    acc.s += t.elapsedS;
    acc.stages++;
    if (t.elapsedS > 0) acc.ran++;
    byKind.set(kind, acc);
  }
  // A partial report counts the stages that ran so far (a stage's time covers every attempt).
  out.push(table(['stages', 'count', 'seconds'], [...byKind].map(([k, v]) => [k, r.partial ? `${v.ran} of ${v.stages}` : String(v.stages), int(Math.round(v.s))])));
  return out.join('\n\n') + '\n';
}
