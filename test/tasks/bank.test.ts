/**
 * The bank family: its oracle over real HTTP on many seeds of every tier and in real Chromium on a
 * few, near misses that its checker refuses, the variation between instances (and none within
 * one), form validation, a random agent, and the family conventions the other families keep.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { TaskServer, type TaskInstance } from '../../main/tasks/server.ts';
import type { Tier } from '../../main/tasks/types.ts';
import { bankFamily } from '../../main/tasks/families/bank/index.ts';
import { available, sourceAccounts, type BankGoal, type BankState } from '../../main/tasks/families/bank/data.ts';
import { drawVariant } from '../../main/tasks/families/bank/variant.ts';
import { navLabel } from '../../main/tasks/families/bank/chrome.ts';
import { sourceOptionLabel } from '../../main/tasks/families/bank/pages-transfer.ts';
import { formatIban } from '../../main/tasks/families/bank/iban.ts';
import { money } from '../../main/tasks/families/common/html.ts';
import { randomAgent } from '../../main/agents/random.ts';
import { parseAction } from '../../main/environment/actions.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { runAgent, startServer } from './helpers/server.ts';
import { sendJunk } from './helpers/junk-requests.ts';
import { oracleInChromium } from './helpers/env-run.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

const TIERS = [1, 2, 3] as const;
const mean = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2);

function open(seed: number, tier: Tier): { inst: TaskInstance; s: BankState; b: MiniBrowser } {
  const inst = server.createInstance('bank', seed, { tier });
  return { inst, s: inst.ctx.state as BankState, b: new MiniBrowser(inst.ctx.agentMessages) };
}

/** Run the oracle on an instance already open in a browser, to its closing message. */
async function drive(inst: TaskInstance, b: MiniBrowser): Promise<string[]> {
  const oracle = inst.family.oracle(inst.ctx);
  oracle.reset(inst.spec);
  const actions: string[] = [];
  for (let i = 0; i < 45; i++) {
    const t = await oracle.act(b.observe(inst.spec.instruction), []);
    actions.push(t.action);
    if ((await b.step(t.action)).done) break;
  }
  return actions;
}

/** The first seed from `from` whose task at `tier` fits `want`. */
function seedWhere(tier: Tier, want: (s: BankState) => boolean, from = 10000): number {
  for (let seed = from; seed < from + 400; seed++) if (want(bankFamily.generate(seed, tier).state)) return seed;
  throw new Error('no such seed');
}

test('bank: the oracle solves 60 train and 60 test seeds of every tier over real HTTP', async (t) => {
  for (const tier of TIERS) {
    const steps: number[] = [];
    for (const seed of [...Array.from({ length: 60 }, (_, i) => i * 13), ...Array.from({ length: 60 }, (_, i) => 10000 + i)]) {
      const r = await runAgent(server, 'bank', seed, (i) => i.family.oracle(i.ctx), { tier });
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${r.instance.spec.instruction}\n${JSON.stringify(c.keyPoints.filter((k) => !k.met))}\n${r.actions.join('\n')}`);
      assert.deepEqual(r.errors, []);
      steps.push(r.steps);
      server.releaseInstance(r.instance.ctx.id);
    }
    t.diagnostic(`tier ${tier}: mean oracle steps ${mean(steps)} (min ${Math.min(...steps)}, max ${Math.max(...steps)}) over ${steps.length} seeds`);
  }
});

/**
 * A near miss: the oracle works towards a goal that differs from the real one in one respect,
 * then the real goal is judged. Exactly the key points naming that respect fail.
 */
async function nearMiss(seed: number, tier: Tier, change: (g: BankGoal, s: BankState) => BankGoal): Promise<string[]> {
  const { inst, s, b } = open(seed, tier);
  const real = s.goal;
  s.goal = change(structuredClone(real), s);
  await b.goto(inst.spec.startUrl);
  const actions = await drive(inst, b);
  s.goal = real;
  const c = inst.family.check(inst.ctx);
  assert.equal(c.success, false, `seed ${seed}: the near miss passed\n${actions.join('\n')}`);
  return c.keyPoints.filter((k) => !k.met).map((k) => k.name);
}

test('bank: a transfer with the wrong amount, from the wrong account or to the wrong payee fails', async () => {
  const isPayeeTransfer = (s: BankState) => s.goal.kind === 'transfer' && s.goal.to.startsWith('p:');
  const seed = seedWhere(2, isPayeeTransfer);
  const goal = bankFamily.generate(seed, 2).state.goal as Extract<BankGoal, { kind: 'transfer' }>;
  assert.deepEqual(await nearMiss(seed, 2, (g) => ({ ...(g as typeof goal), amount: goal.amount + 100 })), [`amount ${money(goal.amount)}`]);
  // Another source account that also has the money.
  const twoSources = seedWhere(2, (s) => isPayeeTransfer(s) && sourceAccounts(s).filter((a) => available(a) >= (s.goal as { amount: number }).amount).length > 1);
  const wrongFrom = await nearMiss(twoSources, 2, (g, s) => ({ ...(g as Extract<BankGoal, { kind: 'transfer' }>), from: sourceAccounts(s).find((a) => a.id !== (g as { from: string }).from && available(a) >= (g as { amount: number }).amount)!.id }));
  assert.equal(wrongFrom.length, 1);
  assert.match(wrongFrom[0], /^from /);
  const wrongTo = await nearMiss(seed, 2, (g, s) => ({ ...(g as Extract<BankGoal, { kind: 'transfer' }>), to: `p:${s.payees.find((p) => `p:${p.id}` !== (g as { to: string }).to)!.id}` }));
  assert.equal(wrongTo.length, 1);
  assert.match(wrongTo[0], /^to /);
});

test('bank: cancelling the wrong scheduled transfer, paying the wrong total, or a wrong answer fails', async () => {
  const cancelSeed = seedWhere(2, (s) => s.goal.kind === 'cancel');
  const wrongCancel = await nearMiss(cancelSeed, 2, (g, s) => ({ ...(g as Extract<BankGoal, { kind: 'cancel' }>), code: s.transfers.find((t) => t.code !== (g as { code: string }).code)!.code }));
  assert.ok(wrongCancel.some((k) => / cancelled$/.test(k)) && wrongCancel.includes('other scheduled transfers untouched'), wrongCancel.join(', '));
  // Tier 3: the new payee paid a cent too much (the total added up wrongly).
  const wrongTotal = await nearMiss(10001, 3, (g) => ({ ...(g as Extract<BankGoal, { kind: 'payNew' }>), amount: (g as { amount: number }).amount + 1 }));
  assert.equal(wrongTotal.length, 1);
  assert.match(wrongTotal[0], /^amount /);
  // Tier 3: the other accounts cannot pay the total; the bank refuses (see the validation test).
  const s = bankFamily.generate(10001, 3).state;
  const g = s.goal as Extract<BankGoal, { kind: 'payNew' }>;
  assert.ok(sourceAccounts(s).every((a) => a.id === g.from || available(a) < g.amount), 'only one account covers the total');
  // Tier 1: a wrong number in the answer, or the right one.
  const q = open(seedWhere(1, (st) => st.goal.kind === 'balance'), 1);
  q.inst.ctx.agentMessages.push('The available balance is $1.23.');
  assert.equal(q.inst.family.check(q.inst.ctx).success, false);
  q.inst.ctx.agentMessages.push(`It is ${(q.s.goal as { answer: string }).answer}.`);
  assert.equal(q.inst.family.check(q.inst.ctx).success, true);
});

test('bank: instances differ in wording, order, distractors and layout; one seed renders the same twice', async () => {
  const variants = Array.from({ length: 40 }, (_, i) => drawVariant(10000 + i));
  for (const knob of ['navPlacement', 'accountsView', 'amountColumns', 'dateStyle', 'overlay', 'accent'] as const) {
    assert.ok(new Set(variants.map((v) => v[knob])).size >= 2, `${knob} never varies`);
  }
  assert.ok(new Set(variants.map((v) => v.words.navTransfer)).size === 4, 'every synonym of "Transfer" is drawn');
  assert.ok(new Set(variants.map((v) => v.words.continue)).size === 4);
  assert.ok(new Set(variants.map((v) => v.nav.join())).size >= 30, 'navigation orders vary');
  assert.ok(new Set(variants.map((v) => v.sections.join())).size >= 20, 'section orders vary');
  assert.ok(variants.every((v) => v.nav.length + v.sections.length >= 8 && v.nav.length + v.sections.length <= 10), 'one to three distractors each');
  assert.ok(new Set(variants.map((v) => v.transferFields.join())).size >= 3, 'transfer form field orders vary');

  // Two seeds, the same pages: different navigation names or order, different labels on the form.
  const navOf = async (seed: number) => {
    const { inst, s, b } = open(seed, 2);
    await b.goto(`${inst.ctx.baseUrl}/`);
    const names = s.variant.nav.map((k) => navLabel(s.variant.words, k));
    const shown = b.observe().elements.filter((e) => e.role === 'link' && names.includes(e.name)).map((e) => e.name);
    await b.goto(`${inst.ctx.baseUrl}/transfer`);
    const form = b.observe().elements.filter((e) => ['combobox', 'textbox', 'button'].includes(e.role)).map((e) => e.name);
    return { shown, form };
  };
  const a = await navOf(10000);
  const c = await navOf(10001);
  assert.notDeepEqual(a.shown, c.shown);
  assert.notDeepEqual(a.form, c.form);

  // The same seed twice: byte for byte the same pages, but for the instance's own prefix.
  const render = async (seed: number) => {
    const { inst, s, b } = open(seed, 3);
    return b.instancePages(inst.ctx.baseUrl, ['/', '/transfer', '/payees', '/payees/new', '/scheduled', `/account/${s.accounts[0].id}`, `/account/${s.accounts.at(-1)!.id}?period=90&page=2`, `/scheduled/${s.transfers[0].code}/cancel`]);
  };
  assert.deepEqual(await render(10007), await render(10007));
});

test('bank: bad transfer input gets a clear error and changes nothing', async () => {
  const seed = seedWhere(2, (s) => s.goal.kind === 'transfer');
  const { inst, s, b } = open(seed, 2);
  const w = s.variant.words;
  const from = sourceAccounts(s)[0];
  const before = JSON.stringify({ accounts: s.accounts, transfers: s.transfers, transactions: s.transactions });
  await b.goto(`${inst.ctx.baseUrl}/transfer`);
  await b.select(w.from, sourceOptionLabel(from.name, available(from)));
  await b.select(w.to, s.payees[0].name);
  const over = ((available(from) + 1) / 100).toFixed(2);
  await b.fill('textbox', w.amount, over);
  await b.fill('textbox', w.memo, 'x'.repeat(41));
  await b.click('button', w.continue);
  const text = b.text();
  assert.ok(available(from) + 1 > s.dailyLimit ? /Transfers are limited to/.test(text) : text.includes(`more than the available balance of ${from.name}`), text);
  assert.match(text, /Keep it to 40 characters or fewer/);
  assert.equal(b.observe().elements.find((e) => e.name === w.amount)!.invalid, true);
  assert.equal(b.observe().elements.find((e) => e.name === w.amount)!.value, over, 'the form keeps what was typed');
  for (const [amount, date, re] of [
    ['abc', s.today, /Enter the amount as a number/],
    ['0', s.today, /must be more than \$0\.00/],
    ['10', '2020-01-01', /cannot be in the past/],
    ['10', 'soon', /Enter the date as YYYY-MM-DD/],
  ] as const) {
    await b.fill('textbox', w.amount, amount);
    await b.fill('textbox', w.date, date);
    await b.fill('textbox', w.memo, '');
    await b.click('button', w.continue);
    assert.match(b.text(), re);
  }
  // The same account on both sides, and nobody chosen.
  await b.goto(`${inst.ctx.baseUrl}/transfer`);
  await b.fill('textbox', w.amount, '10');
  await b.click('button', w.continue);
  assert.match(b.text(), /Choose the account to send the money from/);
  assert.match(b.text(), /Choose who to send the money to/);
  await b.select(w.from, sourceOptionLabel(from.name, available(from)));
  await b.select(w.to, from.name);
  await b.click('button', w.continue);
  assert.match(b.text(), /cannot transfer money to the account it comes from/);
  assert.equal(s.draft, null);
  assert.equal(JSON.stringify({ accounts: s.accounts, transfers: s.transfers, transactions: s.transactions }), before);
  // Confirming with no reviewed draft sends nothing.
  const r = await fetch(`${inst.ctx.baseUrl}/transfer/confirm`, { method: 'POST', redirect: 'manual' });
  assert.equal(r.status, 303);
  assert.equal(JSON.stringify({ accounts: s.accounts, transfers: s.transfers, transactions: s.transactions }), before);
});

test('bank: a malformed or mistyped account number, or a bad name, is refused and no payee is added', async () => {
  const { inst, s, b } = open(10002, 3);
  const w = s.variant.words;
  const g = s.goal as Extract<BankGoal, { kind: 'payNew' }>;
  const payees = JSON.stringify(s.payees);
  await b.goto(`${inst.ctx.baseUrl}/payees/new`);
  await b.fill('textbox', w.payeeName, '<b>Bob</b>');
  await b.fill('textbox', w.iban, 'GB12 3456');
  await b.fill('textbox', w.reference, 'Thanks!');
  await b.click('button', w.savePayee);
  const t = b.text();
  assert.match(t, /The name may contain letters, digits/);
  assert.match(t, /That is not an account number/);
  assert.match(t, /The reference may have up to 18/);
  assert.ok(b.html.includes('&lt;b&gt;Bob&lt;/b&gt;') && !b.html.includes('<b>Bob</b>'), 'typed text is escaped');
  // One digit changed: well-formed, but its check digits do not add up.
  const typo = g.iban.slice(0, -1) + String((Number(g.iban.at(-1)) + 1) % 10);
  await b.fill('textbox', w.payeeName, g.name);
  await b.fill('textbox', w.iban, formatIban(typo));
  await b.fill('textbox', w.reference, g.reference);
  await b.click('button', w.savePayee);
  assert.match(b.text(), /This account number does not exist/);
  // An existing payee's number is a duplicate.
  await b.fill('textbox', w.iban, s.payees[0].iban);
  await b.click('button', w.savePayee);
  assert.match(b.text(), /already have a payee with this account number/);
  assert.equal(JSON.stringify(s.payees), payees);
  // And the right one is taken, spaces or not.
  await b.fill('textbox', w.iban, g.iban.toLowerCase());
  await b.click('button', w.savePayee);
  assert.ok(s.payees.some((p) => p.added && p.iban === g.iban));
});

test('bank: cancelling without a reason is refused; the transfer stays scheduled', async () => {
  const { inst, s, b } = open(10003, 2);
  const t = s.transfers[0];
  await b.goto(`${inst.ctx.baseUrl}/scheduled/${t.code}/cancel`);
  await b.click('button', s.variant.words.confirmCancel);
  assert.match(b.text(), /Choose a reason for cancelling/);
  assert.equal(t.status, 'scheduled');
});

test('bank: a random agent takes valid actions and almost never succeeds', async (t) => {
  let successes = 0;
  let runs = 0;
  for (const tier of TIERS) {
    for (let seed = 10020; seed < 10040; seed++) {
      const r = await runAgent(server, 'bank', seed, () => randomAgent(seed), { tier, maxSteps: 25 });
      for (const a of r.actions) assert.doesNotThrow(() => parseAction(a), a);
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.keyPoints.length > 0);
      if (c.success) successes++;
      runs++;
      server.releaseInstance(r.instance.ctx.id);
    }
  }
  t.diagnostic(`random agent: ${successes} successes in ${runs} episodes of 25 steps`);
  assert.ok(successes <= 1, `random agent succeeded ${successes}/${runs} times`);
  const a = await runAgent(server, 'bank', 10020, () => randomAgent(5), { maxSteps: 25 });
  const b = await runAgent(server, 'bank', 10020, () => randomAgent(5), { maxSteps: 25 });
  assert.deepEqual(a.actions, b.actions, 'deterministic for its seed');
});

test('bank: the oracle finishes after random detours, where the detour left the task possible', async (t) => {
  let solved = 0;
  let spoiled = 0;
  for (let seed = 10300; seed < 10330; seed++) {
    const inst = server.createInstance('bank', seed);
    const s = inst.ctx.state as BankState;
    const b = new MiniBrowser(inst.ctx.agentMessages);
    await b.goto(inst.spec.startUrl);
    const rnd = randomAgent(seed);
    rnd.reset(inst.spec);
    for (let i = 0; i < 8; i++) {
      const turn = await rnd.act(b.observe(inst.spec.instruction), []);
      if (/^(send_msg_to_user|report_infeasible)/.test(turn.action)) continue;
      await b.step(turn.action);
    }
    // Money already sent or an existing transfer cancelled cannot be taken back, at a bank as here.
    if (s.transfers.some((x) => (x.origin === 'new' && x.status === 'completed') || (x.origin === 'existing' && x.status === 'cancelled'))) {
      spoiled++;
      continue;
    }
    const actions = await drive(inst, b);
    const c = inst.family.check(inst.ctx);
    assert.ok(c.success, `seed ${seed}: ${JSON.stringify(c.keyPoints.filter((k) => !k.met))}\n${actions.join('\n')}`);
    solved++;
    server.releaseInstance(inst.ctx.id);
  }
  t.diagnostic(`recovered ${solved}, detour spoiled the task ${spoiled}`);
  assert.ok(solved >= 25);
});

test('bank: family conventions (determinism, goal kinds, instructions, tiers)', () => {
  const f = bankFamily;
  for (const seed of [0, 1, 77, 9999, 10000, 10999]) {
    assert.equal(JSON.stringify(f.generate(seed)), JSON.stringify(f.generate(seed)));
    for (const tier of TIERS) assert.equal(JSON.stringify(f.generate(seed, tier)), JSON.stringify(f.generate(seed, tier)));
  }
  const asksForMessage = /\btell me\b[^.?]*\bin a message\b/i;
  for (let seed = 10000; seed < 10090; seed++) {
    const g = f.generate(seed);
    assert.equal(asksForMessage.test(g.instruction), g.goalKind === 'answer', g.instruction);
    if (g.goalKind === 'state') {
      const ctx = (messages: string[]) => ({ id: 'x', family: f.name, seed, tier: g.tier, baseUrl: 'http://127.0.0.1/i/x', state: structuredClone(g.state), agentMessages: messages });
      assert.deepEqual(f.check(ctx(['Done. 42, $1,299.00'])), f.check(ctx([])));
      assert.equal(f.check(ctx([])).success, false, 'nothing done is no success');
    }
  }
  const instructions = new Set(Array.from({ length: 20 }, (_, i) => f.generate(i, 2).instruction));
  assert.ok(instructions.size >= 18);
  assert.deepEqual([...new Set(Array.from({ length: 60 }, (_, i) => f.generate(i).tier))].sort(), [1, 2, 3]);
  // Tier 3: exactly one account can pay the total.
  for (let seed = 10000; seed < 10100; seed++) {
    const s = f.generate(seed, 3).state;
    const g = s.goal as Extract<BankGoal, { kind: 'payNew' }>;
    assert.deepEqual(sourceAccounts(s).filter((a) => available(a) >= g.amount).map((a) => a.id), [g.from], `seed ${seed}`);
    assert.ok(g.amount <= s.dailyLimit);
  }
});

test('bank: junk requests get a page or a redirect, never a server error', async () => {
  const { inst, s } = open(10400, 3);
  const base = inst.ctx.baseUrl;
  const junk = ['', 'abc', '-1', '0', '99999999999', '1e9', '<b>x</b>', '../../etc', '%', ' ', s.accounts[0].id, s.transfers[0].code, `p:${s.payees[0].id}`];
  const gets = ['/', '/account/{x}', '/transfer', '/transfer/review', '/transfer/done/{x}', '/payees', '/payees/new', '/scheduled', '/scheduled/{x}', '/scheduled/{x}/cancel', '/offers', '/nope'];
  const posts: Array<[string, string[]]> = [['/transfer', ['from', 'to', 'amount', 'date', 'memo']], ['/transfer/confirm', []], ['/payees/new', ['name', 'iban', 'reference']], ['/scheduled/{x}/cancel', ['reason']], ['/cookies', ['return']], ['/notice', ['return']]];
  const keys = ['q', 'period', 'type', 'from', 'to', 'page', 'edit', 'to', 'amount', 'added', 'cancelled'];
  await sendJunk(base, { xs: junk, values: junk, gets, posts, queryKeys: keys });
  assert.equal(typeof inst.family.check(inst.ctx).success, 'boolean');
});

test('bank: the oracle succeeds in real Chromium on test seeds of every tier', async (t) => {
  const seeds = [10100, 10101, 10102, 10103];
  // These four seeds put the navigation in all three places, with and without a notice dialog.
  assert.deepEqual(new Set(seeds.map((x) => drawVariant(x).navPlacement)), new Set(['top', 'side', 'header']));
  const steps = await oracleInChromium(server, 'bank', seeds);
  t.diagnostic(`Chromium mean oracle steps over ${seeds.length} seeds: tier 1 ${steps[1].toFixed(2)}, tier 2 ${steps[2].toFixed(2)}, tier 3 ${steps[3].toFixed(2)}`);
});
