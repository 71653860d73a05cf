/**
 * Confirmation of mined critical states by branching, in real Chromium on the built-in webmail
 * site. The failed rollouts are oracle episodes with known mistakes put in: a premature answer at
 * step 2 (what loses the task: confirmed) and an extra scroll at step 2 followed later by a
 * premature answer (the scroll is harmless: recoverable).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Agent, AgentTurn } from '../../main/tasks/agent.ts';
import type { Observation } from '../../main/environment/types.ts';
import type { TaskSpec } from '../../main/tasks/types.ts';
import { runEpisode } from '../../main/collection/episode.ts';
import type { MinedFailure } from '../../main/policy/mining.ts';
import { mineFailure, type ReferenceCache } from '../../main/evaluation/mine-failure.ts';
import { mineEvaluations } from '../../main/evaluation/mine-run.ts';
import { BrowserEnv } from '../../main/environment/environment.ts';
import { BRANCH_TAG, carryAction, confirmCriticalState, stateDifference } from '../../main/evaluation/branching.ts';
import { readMiningFile, type Confirmation } from '../../main/policy/mining-file.ts';
import { LabelStore } from '../../main/store/labels.ts';
import type { PageElement } from '../../main/environment/types.ts';
import { useTaskEnvironment, type TaskEnvironmentFixture } from '../helpers/environment.ts';
import { runLab } from '../helpers/lab-cli.ts';

let fx: TaskEnvironmentFixture;
useTaskEnvironment('lab-branching-', (f) => (fx = f));

const deps = () => ({ env: fx.env, server: fx.server, store: fx.store, browserKind: fx.host.kind });

/** The oracle, except at the steps given, where it does what the script says (a policy's mistakes). */
class MistakenOracle implements Agent {
  readonly name = 'policy';
  constructor(private readonly oracle: Agent, private readonly mistakes: Record<number, string>) {}
  reset(task: TaskSpec) {
    return this.oracle.reset(task);
  }
  async act(o: Observation, history: readonly AgentTurn[]): Promise<AgentTurn> {
    const own = this.mistakes[history.length];
    return own ? { action: own } : this.oracle.act(o, history);
  }
}

// webmail seed 1, tier 1: "Star the email from Elena Haddad about the newsletter." The oracle
// opens the message and stars it; the episode ends there, its goal state reached (2 steps).
const TASK = { family: 'webmail', seed: 1, tier: 1 as const };
const rollout = (mistakes: Record<number, string>, maxSteps?: number) =>
  runEpisode(deps(), { ...TASK, maxSteps, agent: (i) => new MistakenOracle(i.family.oracle(i.ctx), mistakes), agentConfig: { test: 'rollout' } });

const rollouts: Record<'premature' | 'detour', string> = { premature: '', detour: '' };

test('a premature answer is confirmed critical, a harmless scroll recoverable; a page that does not replay, a reference that fails and a cut-off rollout are told apart', async () => {
  const premature = await rollout({ 1: "send_msg_to_user('Done.')" });
  const detour = await rollout({ 1: 'scroll(0, 300)', 2: "send_msg_to_user('Done.')" });
  const cut = await rollout({}, 1); // the oracle's first step, then out of steps before starring
  assert.deepEqual([premature.success, detour.success, cut.success], [false, false, false]);
  rollouts.premature = premature.id;
  rollouts.detour = detour.id;

  // The three rollouts share one instance, so one oracle reference serves them all.
  const references: ReferenceCache = new Map();
  const mined: MinedFailure[] = [];
  for (const id of [premature.id, detour.id, cut.id]) mined.push((await mineFailure(deps(), id, references))!);
  assert.deepEqual(mined.map((m) => [m.step, m.mode]), [[1, 'premature_answer'], [1, 'wrong_action_type'], [1, 'timeout']]);
  assert.equal(new Set(mined.map((m) => m.referenceId)).size, 1);

  // A copy of the premature rollout whose recorded first page lists one element under another name.
  const orig = fx.store.readEpisode(premature.id);
  const w = fx.store.createEpisode({ task: orig.header.task, agent: orig.header.agent, env: orig.header.env, links: {} });
  orig.steps.forEach((s, i) => {
    const elements = i === 0 ? s.observation.elements.map((e, j) => (j === 2 ? { ...e, name: 'Renamed' } : e)) : s.observation.elements;
    w.step({ observation: { ...s.observation, elements }, action: s.action, error: s.error, timing: s.timing });
  });
  w.end({ ...orig.end!, keyPoints: orig.end!.keyPoints, messages: orig.end!.messages });
  const tampered = { ...mined[0], episodeId: w.id };
  // The failed rollout standing in as its own reference: its action at the state does not lead to success.
  const failingReference = { ...mined[0], referenceId: premature.id, referenceAction: "send_msg_to_user('Done.')" };

  const confirmations: Confirmation[] = [];
  for (const f of [mined[0], mined[1], tampered, failingReference, mined[2]]) confirmations.push((await confirmCriticalState(deps(), f))!);
  assert.deepEqual(confirmations.map((c) => c.status), ['confirmed', 'recoverable', 'unreproducible', 'unreachable', 'not_branchable']);
  const [c, rec, un, unreachable, notBranchable] = confirmations;
  assert.deepEqual([unreachable.reference?.success, unreachable.policy?.success], [false, false]);
  assert.deepEqual([notBranchable.reference, notBranchable.policy, notBranchable.detail], [null, null, 'no action to branch on: the rollout ended before this step']);

  // Confirmed: open + star (goal reached) with the reference action; open + answer with the policy's.
  assert.equal(c.reference?.action, mined[0].referenceAction);
  assert.equal(c.policy?.action, "send_msg_to_user('Done.')");
  assert.deepEqual(c.reference?.runs.map((x) => [x.success, x.steps]), [[true, 2]]);
  assert.deepEqual(c.policy?.runs.map((x) => [x.success, x.steps]), [[false, 2]]);
  // Recoverable: after the scroll the oracle still stars the message (one step more).
  assert.deepEqual(rec.policy?.runs.map((x) => [x.success, x.steps]), [[true, 3]]);
  assert.equal(rec.reference?.success, true);
  assert.equal(un.status, 'unreproducible');
  assert.match(un.detail ?? '', /step 1: element 3 of \d+ is .* where the rollout recorded \S+ "Renamed"/);

  // Branch episodes are in the lab, named as branches of the rollout and tagged for the viewer.
  const labels = new LabelStore(fx.store.dir);
  for (const run of [...c.reference!.runs, ...c.policy!.runs]) {
    const e = fx.store.readEpisode(run.episodeId);
    assert.equal(e.header.agent.name, 'branch');
    assert.equal(e.header.agent.config?.of, premature.id);
    assert.equal(e.header.agent.config?.step, 1);
    assert.deepEqual(labels.read(run.episodeId).tags, [BRANCH_TAG]);
    // The replayed prefix is the rollout's own first step.
    assert.equal(e.steps[0].action, orig.steps[0].action);
  }
  assert.equal(fx.store.readEpisode(c.policy!.runs[0].episodeId).steps[1].action, "send_msg_to_user('Done.')");
});

test('lab mine --confirm writes counts per mode and family; Ctrl-C keeps a whole mining.json and the same command goes on', async () => {
  assert.ok(rollouts.premature && rollouts.detour, 'needs the rollouts of the test above');
  const dir = join(fx.store.dir, 'evals', 'E1');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'report.json'), JSON.stringify({ request: { split: 'train' }, episodes: [
    { episodeId: rollouts.premature, success: false }, { episodeId: 'solved-one', success: true }, { episodeId: rollouts.detour, success: false },
  ] }));
  const cli = join(import.meta.dirname, '..', '..', 'main', 'cli', 'index.ts');
  const mine = (extra: string[], onStderr?: (text: string, kill: () => void) => void) => new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', cli, '--lab', fx.store.dir, 'mine', '--eval', 'E1', ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => {
      stderr += d;
      onStderr?.(stderr, () => p.kill('SIGINT'));
    });
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });

  let sent = false;
  const first = await mine(['--confirm'], (text, kill) => {
    if (!sent && text.includes('confirmed 1/2')) {
      sent = true;
      kill();
    }
  });
  assert.ok(sent, first.stderr);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /cancelled/);
  const partial = readMiningFile(join(dir, 'mining.json'));
  // States are branched in an order fixed by a hash of their rollout's id: which one went first depends on the ids.
  const expected = new Map([[rollouts.premature, 'confirmed'], [rollouts.detour, 'recoverable']]);
  const branchedFirst = partial.filter((f) => f.confirmation);
  assert.equal(branchedFirst.length, 1, 'one state branched before the interruption, the other not');
  assert.equal(branchedFirst[0].confirmation!.status, expected.get(branchedFirst[0].episodeId));

  // The same command again, in this process (only the interruption above needs one of its own).
  const second = await runLab('--lab', fx.store.dir, 'mine', '--eval', 'E1', '--confirm');
  const other = partial.find((f) => !f.confirmation)!;
  assert.match(second.stderr, new RegExp(`confirmed 2/2 \\(webmail seed 1 step 2, ${other.mode}: ${expected.get(other.episodeId)}\\)`));
  assert.doesNotMatch(second.stderr, /mined \d/); // the states mined before were kept, not mined again
  const report = JSON.parse(readFileSync(join(dir, 'mining.json'), 'utf8'));
  assert.deepEqual(report.all.map((f: { referenceId: string }) => f.referenceId), partial.map((f) => f.referenceId));
  assert.deepEqual(report.confirmation.byStatus, { confirmed: 1, recoverable: 1, unreachable: 0, unreproducible: 0, not_branchable: 0 });
  assert.deepEqual(report.confirmation.byMode.premature_answer.confirmed, 1);
  assert.deepEqual(report.confirmation.byFamily.webmail, { confirmed: 1, recoverable: 1, unreachable: 0, unreproducible: 0, not_branchable: 0 });
  assert.match(second.stdout, /premature_answer\s+1\s+1\s+0\s+0\s+0\s+0/);
  assert.match(second.stdout, /webmail\s+2\s+1\s+1\s+0/);

  // A usage error needs no process of its own.
  await assert.rejects(runLab('--lab', fx.store.dir, 'mine', '--eval', 'E1', '--branches', '2'), /--branches needs --confirm/);
});

test('mining several evaluations on two browsers runs one reference per instance, counts a shared state once, and a second call mines nothing again', async () => {
  assert.ok(rollouts.premature && rollouts.detour, 'needs the rollouts of the first test');
  // Two evaluations, each failing on the same instance (webmail seed 1, tier 1), plus one more rollout of it.
  const third = await rollout({ 1: "send_msg_to_user('Finished.')" });
  const evals = { A: [rollouts.premature, third.id], B: [rollouts.detour] };
  for (const [id, eps] of Object.entries(evals)) {
    mkdirSync(join(fx.store.dir, 'evals', id), { recursive: true });
    writeFileSync(join(fx.store.dir, 'evals', id, 'report.json'), JSON.stringify({ request: { split: 'train' }, episodes: eps.map((episodeId) => ({ episodeId, success: false })) }));
  }
  const references = () => fx.store.listEpisodes().episodes.filter((e) => e.agent.startsWith('oracle')).length;
  const before = references();
  const second = new BrowserEnv(fx.host);
  const path = join(fx.store.dir, 'evals', 'A', 'mining.json');
  const progress: string[] = [];
  try {
    const r = await mineEvaluations({ envs: [fx.env, second], server: fx.server, store: fx.store, browserKind: fx.host.kind }, ['A', 'B'], path, {
      confirm: true, confirmMax: 1, onProgress: (phase, done, total) => progress.push(`${phase} ${done}/${total}`),
    });
    assert.equal(references() - before, 1, 'one oracle reference for the instance all three rollouts share');
    assert.deepEqual([r.failed, r.report.failures, r.report.distinctStates], [3, 3, 1], 'three failures at one critical state (step 2 of the same instance)');
    assert.deepEqual(r.report.evalIds, ['A', 'B']);
    assert.equal(r.report.confirmation?.branched, 1, '--confirm-max 1 branches one state');
    assert.deepEqual(progress.filter((p) => p.startsWith('branching')), ['branching 1/1']);
    assert.deepEqual(readMiningFile(path).map((f) => f.episodeId), [rollouts.premature, third.id, rollouts.detour]);
    // Again: everything is in the file, nothing is mined or branched anew.
    const episodes = fx.store.listEpisodes().episodes.length;
    const again = await mineEvaluations({ envs: [fx.env], server: fx.server, store: fx.store, browserKind: fx.host.kind }, ['A', 'B'], path, { confirm: true, confirmMax: 1 });
    assert.equal(fx.store.listEpisodes().episodes.length, episodes);
    assert.deepEqual(again.report.all, r.report.all);
  } finally {
    await second.close();
  }
  await assert.rejects(mineEvaluations({ envs: [fx.env], server: fx.server, store: fx.store, browserKind: fx.host.kind }, ['nope'], path, { confirm: false }), /no finished evaluation nope/);
});

test('pages are compared by meaning and actions carried over by meaning, not by id', () => {
  const el = (id: string, role: string, name: string, value?: string): PageElement => ({ id, role, name, tag: 'a', ...(value !== undefined ? { value } : {}), box: { x: 0, y: 0, width: 9, height: 9 }, visible: true, inViewport: true });
  const a = [el('1', 'link', 'Inbox'), el('2', 'button', 'Star'), el('3', 'button', 'Star')];
  const b = [el('11', 'link', 'Inbox'), el('12', 'button', 'Star'), el('13', 'button', 'Star')];
  assert.equal(stateDifference({ url: 'http://h:1/i/abc123/m/5', elements: a }, { url: 'http://h:2/i/def456/m/5', elements: b }), null);
  assert.match(stateDifference({ url: 'http://h/i/ab/m/5', elements: a }, { url: 'http://h/i/cd/m/6', elements: b }) ?? '', /URL \{task\}\/m\/6 where the rollout recorded \{task\}\/m\/5/);
  assert.match(stateDifference({ url: 'u', elements: a }, { url: 'u', elements: b.slice(0, 2) }) ?? '', /element 3 of 2 is nothing/);
  assert.match(stateDifference({ url: 'u', elements: [el('7', 'textbox', 'To')] }, { url: 'u', elements: [el('7', 'textbox', 'To', 'x')] }) ?? '', /= "x"/);
  assert.equal(carryAction("click('3')", a, b), "click('13')"); // the second "Star", by rank
  assert.equal(carryAction("fill('1', 'it\\'s')", a, b), "fill('11', 'it\\'s')");
  assert.equal(carryAction('scroll(0, 300)', a, b), 'scroll(0, 300)');
  assert.equal(carryAction("click('99')", a, b), "click('99')");
});
