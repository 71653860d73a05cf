/**
 * The webmail family: moves, stars, replies and questions judged by its checker, search and
 * folders, the variation between instances (and none within one), its distractors, and its oracle
 * over real HTTP on many seeds of every tier. Every control is found by the instance's own words.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskServer, TaskInstance } from '../../main/tasks/server.ts';
import type { Message, WebmailState } from '../../main/tasks/families/webmail/data.ts';
import { WORDING, MARKS, drawVariant, fill, folderName, messageLinkName } from '../../main/tasks/families/webmail/variant.ts';
import { navName } from '../../main/tasks/families/webmail/chrome.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { runAgent, startServer } from './helpers/server.ts';
import { oracleInChromium } from './helpers/env-run.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

const TIERS = [1, 2, 3] as const;
const mean = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2);
const escape = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** First seed from `from` whose tier-`tier` task has goals of the given kinds. */
function find(kinds: string[], tier: 1 | 2 | 3, from = 10000): { inst: TaskInstance; s: WebmailState; b: MiniBrowser } {
  for (let seed = from; seed < from + 200; seed++) {
    const inst = server.createInstance('webmail', seed, { tier });
    const s = inst.ctx.state as WebmailState;
    if (s.goals.map((g) => g.kind).join() === kinds.join()) return { inst, s, b: new MiniBrowser(inst.ctx.agentMessages) };
    server.releaseInstance(inst.ctx.id);
  }
  throw new Error(`no seed with goals ${kinds}`);
}

/** A received message's link in this instance's listings. */
const linkTo = (s: WebmailState, m: Message) => messageLinkName(s.variant, m.from.name, m.subject);
/** A folder's link in this instance's navigation, with or without its unread count. */
const folderLink = (s: WebmailState, id: string) => new RegExp(`^${escape(folderName(s.variant, id))}( \\d+)?$`);

async function openMessage(b: MiniBrowser, s: WebmailState, m: Message) {
  const box = s.variant.words.searchBox;
  if (!b.has('link', linkTo(s, m))) {
    await b.fill('searchbox', box, m.subject);
    await b.press('searchbox', box, 'Enter');
  }
  await b.click('link', linkTo(s, m));
  assert.match(b.url, new RegExp(`/message/${m.id}$`));
}

test('webmail: moving the message to the asked folder succeeds; a wrong folder fails', async () => {
  for (const wrong of [false, true]) {
    const { inst, s, b } = find(['move'], 1, wrong ? 10050 : 10000);
    const g = s.goals[0] as Extract<WebmailState['goals'][number], { kind: 'move' }>;
    const m = s.messages.find((x) => x.id === g.id)!;
    await b.goto(inst.spec.startUrl);
    const w = s.variant.words;
    await openMessage(b, s, m);
    const toId = wrong ? (g.to === 'archive' ? 'spam' : 'archive') : g.to;
    const to = folderName(s.variant, toId);
    await b.select(w.moveTo, to);
    await b.click('button', w.move);
    assert.ok(b.text().includes(fill(w.moved, { folder: to })), b.text());
    const r = inst.family.check(inst.ctx);
    assert.equal(r.success, !wrong, JSON.stringify(r.keyPoints));
    if (wrong) assert.equal(r.keyPoints.find((k) => k.name.endsWith(`in ${g.to === 'archive' ? 'Archive' : 'Spam'}`))!.met, false);
    // The message now lists in its new folder.
    await b.click('link', folderLink(s, toId));
    assert.ok(b.has('link', linkTo(s, m)));
  }
});

test('webmail: moving another message too is a side effect the checker reports', async () => {
  const { inst, s, b } = find(['star'], 1);
  const g = s.goals[0];
  const other = s.messages.find((x) => x.folder === 'inbox' && x.id !== g.id)!;
  const { words: w, mark } = s.variant;
  await b.goto(inst.spec.startUrl);
  await openMessage(b, s, s.messages.find((x) => x.id === g.id)!);
  await b.click('button', mark.star);
  assert.equal(b.find('button', mark.unstar).checked, true);
  assert.ok(inst.family.check(inst.ctx).success);
  await b.goto(inst.spec.startUrl);
  await openMessage(b, s, other);
  await b.select(w.moveTo, folderName(s.variant, 'spam'));
  await b.click('button', w.move);
  const r = inst.family.check(inst.ctx);
  assert.equal(r.success, false);
  assert.equal(r.keyPoints.find((k) => k.name === 'no other messages moved')!.met, false);
});

test('webmail: a question is answered by send_msg_to_user; format-insensitive, wrong answers fail', async () => {
  const { inst, s, b } = find(['answer'], 1);
  const g = s.goals[0] as Extract<WebmailState['goals'][number], { kind: 'answer' }>;
  const m = s.messages.find((x) => x.id === g.id)!;
  await b.goto(inst.spec.startUrl);
  await openMessage(b, s, m);
  assert.ok(b.text().includes(g.answer), 'the message shows the fact');
  // A wrong answer: the same kind of fact from another message (a realistic confusion).
  const distractor = s.messages.find((x) => x.id !== m.id && x.fact && x.fact.label === g.label && x.fact.value !== g.answer)?.fact!.value ?? 'I could not find it';
  await b.step(`send_msg_to_user('It is ${distractor.replace(/'/g, "\\'")}')`);
  let r = inst.family.check(inst.ctx);
  assert.equal(r.success, false);
  assert.equal(r.keyPoints.find((k) => k.name === `correct ${g.label}`)!.met, false);
  assert.equal(r.keyPoints.find((k) => k.name === 'answer sent')!.met, true);
  inst.ctx.agentMessages.length = 0;
  await b.step(`send_msg_to_user('  The ${g.label} is ${g.answer.toLowerCase().replace(/'/g, "\\'")}. ')`);
  r = inst.family.check(inst.ctx);
  assert.ok(r.success, JSON.stringify(r.keyPoints));
});

test('webmail: amounts match whatever number format the answer uses', async () => {
  for (let seed = 10000; seed < 10300; seed++) {
    const inst = server.createInstance('webmail', seed);
    const s = inst.ctx.state as WebmailState;
    const g = s.goals[0];
    if (g.kind !== 'answer' || !g.answer.startsWith('$')) continue;
    const plain = g.answer.replace(/[$,]/g, '').replace(/\.00$/, '');
    inst.ctx.agentMessages.push(plain);
    assert.ok(inst.family.check(inst.ctx).success, `${g.answer} vs ${plain}`);
    return;
  }
  assert.fail('no amount question in range');
});

test('webmail: replying through the compose form; validation for bad input; escaping', async () => {
  const { inst, s, b } = find(['reply'], 2);
  const g = s.goals[0] as Extract<WebmailState['goals'][number], { kind: 'reply' }>;
  const m = s.messages.find((x) => x.id === g.id)!;
  const w = s.variant.words;
  await b.goto(inst.spec.startUrl);
  await openMessage(b, s, m);
  await b.click('link', w.reply);
  assert.equal(b.find('textbox', w.to).value, m.from.email);
  assert.equal(b.find('textbox', w.subject).value, `Re: ${m.subject}`);
  // Bad recipient and empty body: refused with messages, nothing sent.
  await b.fill('textbox', w.to, 'not-an-address');
  await b.fill('textbox', w.body, '   ');
  await b.click('button', w.send);
  assert.match(b.text(), /Not a valid email address: not-an-address/);
  assert.match(b.text(), /The message is empty/);
  assert.equal(s.messages.filter((x) => x.folder === 'sent' && x.id >= 5000).length, 0);
  // Wrong text first: the reply exists but does not say what was asked.
  await b.fill('textbox', w.to, m.from.email);
  await b.fill('textbox', w.body, 'Hmm, <b>not sure</b>.');
  await b.click('button', w.send);
  assert.ok(b.text().includes(w.sentNotice));
  let r = inst.family.check(inst.ctx);
  assert.equal(r.keyPoints.find((k) => k.name.startsWith('replied to'))!.met, true);
  assert.equal(r.keyPoints.find((k) => k.name === 'reply says the requested text')!.met, false);
  await b.click('link', folderLink(s, 'sent'));
  await b.click('link', new RegExp(`Re: ${escape(m.subject)}`));
  assert.ok(b.html.includes('Hmm, &lt;b&gt;not sure&lt;/b&gt;.'), 'sent text is escaped');
  await b.click('link', w.reply);
  await b.fill('textbox', w.to, m.from.email);
  await b.fill('textbox', w.body, g.text);
  await b.click('button', w.send);
  r = inst.family.check(inst.ctx);
  assert.ok(r.success, JSON.stringify(r.keyPoints));
});

test('webmail: search finds by subject and skips spam; folders list their messages', async () => {
  const { inst, s, b } = find(['star'], 1);
  const w = s.variant.words;
  await b.goto(inst.spec.startUrl);
  const spam = s.messages.find((x) => x.folder === 'spam')!;
  await b.fill('searchbox', w.searchBox, spam.subject);
  await b.press('searchbox', w.searchBox, 'Enter');
  assert.ok(!b.has('link', linkTo(s, spam)));
  await b.click('link', folderLink(s, 'spam'));
  assert.ok(b.has('link', linkTo(s, spam)));
  await b.click('link', folderLink(s, 'inbox'));
  assert.ok(b.has('link', w.older), 'the inbox has a second page');
  await b.click('link', w.older);
  const inbox = s.messages.filter((x) => x.folder === 'inbox').length;
  assert.ok(b.text().includes(fill(w.range, { from: 16, to: inbox, total: inbox })), b.text());
  assert.ok(b.has('link', w.newer));
});

test('webmail: the oracle solves 60 train and 60 test seeds of every tier over real HTTP', async (t) => {
  for (const tier of TIERS) {
    const steps: number[] = [];
    for (const seed of [...Array.from({ length: 60 }, (_, i) => i * 13), ...Array.from({ length: 60 }, (_, i) => 10000 + i)]) {
      const r = await runAgent(server, 'webmail', seed, (i) => i.family.oracle(i.ctx), { tier });
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${r.instance.spec.instruction}\n${JSON.stringify(c.keyPoints.filter((k) => !k.met))}\n${r.actions.join('\n')}`);
      assert.deepEqual(r.errors, []);
      steps.push(r.steps);
      server.releaseInstance(r.instance.ctx.id);
    }
    t.diagnostic(`tier ${tier}: mean oracle steps ${mean(steps)} (min ${Math.min(...steps)}, max ${Math.max(...steps)}) over ${steps.length} seeds`);
  }
});

test('webmail: instances differ in wording, order, distractors and layout; one seed renders the same twice', async () => {
  const variants = Array.from({ length: 40 }, (_, i) => drawVariant(10000 + i));
  for (const knob of ['navPlacement', 'listView', 'dateStyle', 'accent', 'composeFirst'] as const) {
    assert.ok(new Set(variants.map((v) => v[knob])).size >= 2, `${knob} never varies`);
  }
  assert.equal(new Set(variants.map((v) => v.words.send)).size, 4, 'every synonym of "Send" is drawn');
  assert.equal(new Set(variants.map((v) => v.words.move)).size, 4, 'every synonym of "Move" is drawn');
  assert.equal(new Set(variants.map((v) => v.mark.star)).size, MARKS.length, 'every wording of "Star" is drawn');
  assert.ok(new Set(variants.map((v) => v.nav.join())).size >= 30, 'navigation orders vary');
  assert.ok(new Set(variants.map((v) => v.tools.join())).size >= 5, 'toolbar orders vary');
  assert.ok(new Set(variants.map((v) => v.composeFields.join())).size >= 3, 'compose field orders vary');
  assert.ok(new Set(variants.map((v) => v.listSections.join())).size >= 3, 'listing sections vary');
  const distractors = (v: (typeof variants)[number]) => v.nav.length - 5 + v.listSections.length - 1;
  assert.ok(variants.every((v) => distractors(v) >= 1 && distractors(v) <= 3), 'one to three distractors each');
  assert.ok(new Set(variants.map(distractors)).size === 3);

  // The first synonym is the original word; a name shared by two keys is never on one page.
  assert.equal(WORDING.send[0], 'Send');
  assert.equal(MARKS[0].star, 'Star');
  const owners = new Map<string, string[]>();
  for (const [k, ws] of [...Object.entries(WORDING), ...Object.keys(MARKS[0]).map((k) => [k, MARKS.map((m) => m[k as keyof (typeof MARKS)[number]])] as const)]) {
    for (const x of ws) owners.set(x.toLowerCase(), [...(owners.get(x.toLowerCase()) ?? []), k]);
  }
  const shared = [...owners.values()].filter((ks) => ks.length > 1).map((ks) => ks.join('+'));
  // The message page's "To" header and the compose form's field; the message's Reply link and the reply form's heading.
  assert.deepEqual(shared.sort(), ['headerTo+to', 'reply+replyTitle']);

  // Two seeds, the same pages: different navigation names or order, different controls on the message and compose pages.
  const pagesOf = async (seed: number) => {
    const inst = server.createInstance('webmail', seed, { tier: 2 });
    const s = inst.ctx.state as WebmailState;
    const b = new MiniBrowser(inst.ctx.agentMessages);
    const names = s.variant.nav.map((k) => navName(s.variant, k));
    await b.goto(`${inst.ctx.baseUrl}/folder/inbox`);
    const nav = b.observe().elements.filter((e) => e.role === 'link' && names.some((n) => e.name.startsWith(n))).map((e) => e.name.replace(/ \d+$/, ''));
    await b.goto(`${inst.ctx.baseUrl}/message/${s.messages[0].id}`);
    const tools = b.observe().elements.filter((e) => ['combobox', 'button'].includes(e.role)).map((e) => e.name);
    await b.goto(`${inst.ctx.baseUrl}/compose`);
    const form = b.observe().elements.filter((e) => ['textbox', 'button'].includes(e.role)).map((e) => e.name);
    return { nav, tools, form };
  };
  const a = await pagesOf(10000);
  const c = await pagesOf(10001);
  assert.notDeepEqual(a.nav, c.nav);
  assert.notDeepEqual(a.tools, c.tools);
  assert.notDeepEqual(a.form, c.form);

  // The same seed twice: byte for byte the same pages, but for the instance's own prefix.
  const render = async (seed: number) => {
    const inst = server.createInstance('webmail', seed, { tier: 3 });
    const s = inst.ctx.state as WebmailState;
    const b = new MiniBrowser(inst.ctx.agentMessages);
    return b.instancePages(inst.ctx.baseUrl, ['/folder/inbox', '/folder/inbox?page=2', '/folder/archive', '/folder/starred', `/message/${s.messages[0].id}`, `/search?q=${encodeURIComponent(s.messages[3].subject)}`, `/compose?reply=${s.messages[1].id}`, '/compose', '/contacts', '/app']);
  };
  assert.deepEqual(await render(10007), await render(10007));
});

test('webmail: the distractor links and boxes lead to plain pages that change nothing', async () => {
  for (let seed = 10000; seed < 10040; seed++) {
    const inst = server.createInstance('webmail', seed);
    const s = inst.ctx.state as WebmailState;
    const b = new MiniBrowser(inst.ctx.agentMessages);
    const before = JSON.stringify(s.messages);
    const verdict = JSON.stringify(inst.family.check(inst.ctx));
    await b.goto(`${inst.ctx.baseUrl}/folder/inbox`);
    const links = ['Contacts', 'Settings', 'Help centre', 'Manage storage', 'Get the app'].filter((n) => b.has('link', n));
    assert.ok(links.length >= 1, `seed ${seed}: a distractor shows`);
    for (const name of links) {
      await b.goto(`${inst.ctx.baseUrl}/folder/inbox`);
      await b.click('link', name);
      assert.equal(b.status, 200, name);
      // A plain page: none of the mail's subjects or facts, no form but the search box.
      assert.ok(!s.messages.some((m) => b.text().includes(m.subject) || (m.fact && b.text().includes(m.fact.value))), `${name} names a message`);
      assert.equal(b.observe().elements.filter((e) => ['textbox', 'combobox', 'checkbox'].includes(e.role)).length, 0);
    }
    assert.equal(JSON.stringify(s.messages), before, `seed ${seed}: visiting the distractors changed the mailbox`);
    assert.equal(JSON.stringify(inst.family.check(inst.ctx)), verdict);
    server.releaseInstance(inst.ctx.id);
  }
});

test('webmail: the oracle succeeds in real Chromium on test seeds of every tier', async (t) => {
  const seeds = [10100, 10102, 10110];
  // These three seeds put the navigation in all three places and lay the listings out all three ways.
  assert.deepEqual(new Set(seeds.map((x) => drawVariant(x).navPlacement)), new Set(['top', 'side', 'header']));
  assert.deepEqual(new Set(seeds.map((x) => drawVariant(x).listView)), new Set(['rows', 'table', 'cards']));
  const steps = await oracleInChromium(server, 'webmail', seeds);
  t.diagnostic(`Chromium mean oracle steps over ${seeds.length} seeds: tier 1 ${steps[1].toFixed(2)}, tier 2 ${steps[2].toFixed(2)}, tier 3 ${steps[3].toFixed(2)}`);
});
