import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskServer, TaskInstance } from '../../main/tasks/server.ts';
import type { Message, WebmailState } from '../../main/tasks/families/webmail/data.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { runAgent, startServer } from './helpers/server.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

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

const linkTo = (m: Message) => new RegExp(`${m.from.name} — ${m.subject.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);

async function openMessage(b: MiniBrowser, m: Message) {
  if (!b.has('link', linkTo(m))) {
    await b.fill('searchbox', 'Search mail', m.subject);
    await b.press('searchbox', 'Search mail', 'Enter');
  }
  await b.click('link', linkTo(m));
  assert.match(b.url, new RegExp(`/message/${m.id}$`));
}

test('webmail: moving the message to the asked folder succeeds; a wrong folder fails', async () => {
  for (const wrong of [false, true]) {
    const { inst, s, b } = find(['move'], 1, wrong ? 10050 : 10000);
    const g = s.goals[0] as Extract<WebmailState['goals'][number], { kind: 'move' }>;
    const m = s.messages.find((x) => x.id === g.id)!;
    await b.goto(inst.spec.startUrl);
    await openMessage(b, m);
    const to = wrong ? (g.to === 'archive' ? 'Spam' : 'Archive') : g.to === 'archive' ? 'Archive' : 'Spam';
    await b.select('Move to', to);
    await b.click('button', 'Move');
    assert.match(b.text(), new RegExp(`Message moved to ${to}`));
    const r = inst.family.check(inst.ctx);
    assert.equal(r.success, !wrong, JSON.stringify(r.keyPoints));
    if (wrong) assert.equal(r.keyPoints.find((k) => k.name.endsWith(`in ${g.to === 'archive' ? 'Archive' : 'Spam'}`))!.met, false);
    // The message now lists in its new folder.
    await b.click('link', new RegExp(`^${to}`));
    assert.ok(b.has('link', linkTo(m)));
  }
});

test('webmail: moving another message too is a side effect the checker reports', async () => {
  const { inst, s, b } = find(['star'], 1);
  const g = s.goals[0];
  const other = s.messages.find((x) => x.folder === 'inbox' && x.id !== g.id)!;
  await b.goto(inst.spec.startUrl);
  await openMessage(b, s.messages.find((x) => x.id === g.id)!);
  await b.click('button', 'Star');
  assert.equal(b.find('button', 'Unstar').checked, true);
  assert.ok(inst.family.check(inst.ctx).success);
  await b.goto(inst.spec.startUrl);
  await openMessage(b, other);
  await b.select('Move to', 'Spam');
  await b.click('button', 'Move');
  const r = inst.family.check(inst.ctx);
  assert.equal(r.success, false);
  assert.equal(r.keyPoints.find((k) => k.name === 'no other messages moved')!.met, false);
});

test('webmail: a question is answered by send_msg_to_user; format-insensitive, wrong answers fail', async () => {
  const { inst, s, b } = find(['answer'], 1);
  const g = s.goals[0] as Extract<WebmailState['goals'][number], { kind: 'answer' }>;
  const m = s.messages.find((x) => x.id === g.id)!;
  await b.goto(inst.spec.startUrl);
  await openMessage(b, m);
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
  await b.goto(inst.spec.startUrl);
  await openMessage(b, m);
  await b.click('link', 'Reply');
  assert.equal(b.find('textbox', 'To').value, m.from.email);
  assert.equal(b.find('textbox', 'Subject').value, `Re: ${m.subject}`);
  // Bad recipient and empty body: refused with messages, nothing sent.
  await b.fill('textbox', 'To', 'not-an-address');
  await b.fill('textbox', 'Message', '   ');
  await b.click('button', 'Send');
  assert.match(b.text(), /Not a valid email address: not-an-address/);
  assert.match(b.text(), /The message is empty/);
  assert.equal(s.messages.filter((x) => x.folder === 'sent' && x.id >= 5000).length, 0);
  // Wrong text first: the reply exists but does not say what was asked.
  await b.fill('textbox', 'To', m.from.email);
  await b.fill('textbox', 'Message', 'Hmm, <b>not sure</b>.');
  await b.click('button', 'Send');
  assert.match(b.text(), /Your message has been sent/);
  let r = inst.family.check(inst.ctx);
  assert.equal(r.keyPoints.find((k) => k.name.startsWith('replied to'))!.met, true);
  assert.equal(r.keyPoints.find((k) => k.name === 'reply says the requested text')!.met, false);
  await b.click('link', 'Sent');
  await b.click('link', new RegExp(`Re: ${m.subject.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  assert.ok(b.html.includes('Hmm, &lt;b&gt;not sure&lt;/b&gt;.'), 'sent text is escaped');
  await b.click('link', 'Reply');
  await b.fill('textbox', 'To', m.from.email);
  await b.fill('textbox', 'Message', g.text);
  await b.click('button', 'Send');
  r = inst.family.check(inst.ctx);
  assert.ok(r.success, JSON.stringify(r.keyPoints));
});

test('webmail: search finds by subject and skips spam; folders list their messages', async () => {
  const { inst, s, b } = find(['star'], 1);
  await b.goto(inst.spec.startUrl);
  const spam = s.messages.find((x) => x.folder === 'spam')!;
  await b.fill('searchbox', 'Search mail', spam.subject);
  await b.press('searchbox', 'Search mail', 'Enter');
  assert.ok(!b.has('link', linkTo(spam)));
  await b.click('link', 'Spam');
  assert.ok(b.has('link', linkTo(spam)));
  await b.click('link', /^Inbox/);
  assert.ok(b.has('link', 'Older messages'), 'the inbox has a second page');
  await b.click('link', 'Older messages');
  assert.match(b.text(), /16–/);
});

test('webmail: the oracle solves every tier over real HTTP', async () => {
  for (const tier of [1, 2, 3] as const) {
    for (const seed of [10010, 10011, 10012, 10013, 10014]) {
      const r = await runAgent(server, 'webmail', seed, (i) => i.family.oracle(i.ctx), { tier });
      const c = r.instance.family.check(r.instance.ctx);
      assert.ok(c.success, `seed ${seed} tier ${tier}: ${JSON.stringify(c.keyPoints)}\n${r.actions.join('\n')}`);
      assert.deepEqual(r.errors, []);
    }
  }
});
