/**
 * The forum family end to end: its oracle over real HTTP on train and test seeds of every tier and
 * in real Chromium, near misses the checker must refuse, the built-in variation (real across
 * seeds, fixed within one), form validation, a random agent, and the generation contract every
 * family keeps.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { TaskServer, type TaskInstance } from '../../main/tasks/server.ts';
import type { Tier } from '../../main/tasks/types.ts';
import { randomAgent } from '../../main/agents/random.ts';
import { parseAction } from '../../main/environment/actions.ts';
import { forumFamily } from '../../main/tasks/families/forum/index.ts';
import type { ForumGoal, ForumState } from '../../main/tasks/families/forum/data.ts';
import { lookFor } from '../../main/tasks/families/forum/look.ts';
import { parseThreadQuery, runThreadQuery } from '../../main/tasks/families/forum/query.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { runAgent, startServer } from './helpers/server.ts';
import { oracleInChromium } from './helpers/env-run.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

type Ranked = Extract<ForumGoal, { kind: 'ranked' }>;
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN).toFixed(2);

function open(seed: number, tier: Tier): { inst: TaskInstance; s: ForumState; b: MiniBrowser } {
  const inst = server.createInstance('forum', seed, { tier });
  return { inst, s: inst.ctx.state as ForumState, b: new MiniBrowser(inst.ctx.agentMessages) };
}

/** The first seed from `from` whose task at `tier` is of the kind `pick` accepts. */
function seedWhere(tier: Tier, pick: (g: ForumGoal) => boolean, from = 10000): number {
  for (let seed = from; seed < from + 500; seed++) if (pick(forumFamily.generate(seed, tier).state.goal)) return seed;
  throw new Error('no such seed');
}

const unmet = (inst: TaskInstance) => inst.family.check(inst.ctx).keyPoints.filter((k) => !k.met).map((k) => k.name);

test('forum: the oracle solves 60 train and 60 test seeds of every tier over real HTTP, under every variation', async (t) => {
  const layouts = new Set<string>();
  const overlays = new Set<string>();
  const kinds = new Set<string>();
  for (const tier of [1, 2, 3] as const) {
    const steps: number[] = [];
    const byKind = new Map<string, number[]>();
    for (const start of [0, 10000]) {
      for (let seed = start; seed < start + 60; seed++) {
        const r = await runAgent(server, 'forum', seed, (i) => i.family.oracle(i.ctx), { tier });
        const c = r.instance.family.check(r.instance.ctx);
        assert.ok(c.success, `seed ${seed} tier ${tier}: ${JSON.stringify(c.keyPoints.filter((k) => !k.met))}\n${r.instance.spec.instruction}\n${r.actions.join('\n')}`);
        assert.deepEqual(r.errors, [], `seed ${seed} tier ${tier}`);
        const s = r.instance.ctx.state as ForumState;
        const kind = s.goal.kind === 'ranked' ? (s.goal.keyword ? 'ranked by search' : 'ranked on a board') : s.goal.kind;
        byKind.set(kind, [...(byKind.get(kind) ?? []), r.steps]);
        kinds.add(kind);
        steps.push(r.steps);
        layouts.add(s.look.layout);
        overlays.add(s.look.overlay);
        server.releaseInstance(r.instance.ctx.id);
      }
    }
    t.diagnostic(`tier ${tier}: mean oracle steps ${mean(steps)} over ${steps.length} seeds (${[...byKind].map(([k, xs]) => `${k} ${mean(xs)} x${xs.length}`).join(', ')})`);
  }
  assert.deepEqual([...kinds].sort(), ['edit', 'follow', 'new-thread', 'ranked by search', 'ranked on a board', 'replies', 'reply', 'starter', 'upvote']);
  assert.deepEqual([...layouts].sort(), ['cards', 'list', 'table']);
  assert.deepEqual([...overlays].sort(), ['cookie', 'digest', 'guidelines']);
});

test('forum: tier-3 rankings need the filters: the target leads only once board, age and sort are set', () => {
  for (let seed = 10000; seed < 10080; seed++) {
    const s = forumFamily.generate(seed, 3).state;
    const g = s.goal as Ranked;
    const q = (extra: Record<string, string>) => runThreadQuery(s, parseThreadQuery(new URLSearchParams({ q: g.keyword ?? '', ...extra })));
    const ranked = q({ board: g.board, period: '7', sort: 'replies' });
    assert.equal(ranked[0].id, g.thread, `seed ${seed}`);
    assert.ok(ranked.length >= 2, `seed ${seed}: a choice to make`);
    const replies = (id: number) => s.posts.filter((p) => p.thread === id).length;
    assert.ok(replies(ranked[0].id) > replies(ranked[1].id), `seed ${seed}: the winner is unique`);
    // Without the age filter an older thread with more replies leads; without the board filter (search), another board's does.
    assert.notEqual(q({ board: g.board, sort: 'replies' })[0].id, g.thread, `seed ${seed}: age filter matters`);
    if (g.keyword) assert.notEqual(q({ period: '7', sort: 'replies' })[0].id, g.thread, `seed ${seed}: board filter matters`);
    assert.ok(s.threads.find((t) => t.id === g.thread)!.detail!.value === g.quote);
  }
});

test('forum: near misses fail the checker (wrong thread, wrong board, missing text, no follow, wrong answer)', async () => {
  // Tier 3: the runner-up of the ranking gets the reply and the follow.
  {
    const { inst, s, b } = open(seedWhere(3, (g) => g.kind === 'ranked'), 3);
    const g = s.goal as Ranked;
    const runnerUp = runThreadQuery(s, parseThreadQuery(new URLSearchParams({ q: g.keyword ?? '', board: g.board, period: '7', sort: 'replies' })))[1];
    await b.goto(`${inst.ctx.baseUrl}/thread/${runnerUp.id}`);
    await b.fill('textbox', s.look.words.replyBox, `The opening post gives the ${g.label} as ${runnerUp.detail!.value}.`);
    await b.click('button', s.look.words.replyButton);
    await b.click('button', s.look.words.follow);
    const missed = unmet(inst);
    assert.ok(missed.some((k) => k.startsWith('replied in')) && missed.includes('followed the thread') && missed.includes('no other posts'), missed.join(', '));
  }
  // Tier 3: the right thread and the right quote, but not followed.
  {
    const { inst, s, b } = open(seedWhere(3, (g) => g.kind === 'ranked', 10010), 3);
    const g = s.goal as Ranked;
    await b.goto(`${inst.ctx.baseUrl}/thread/${g.thread}`);
    await b.fill('textbox', s.look.words.replyBox, `Quoting it: ${g.quote}`);
    await b.click('button', s.look.words.replyButton);
    assert.deepEqual(unmet(inst).filter((k) => k !== 'upvoted the thread'), ['followed the thread']);
  }
  // Tier 2: a new thread with the right title and message on the wrong board.
  {
    const { inst, s, b } = open(seedWhere(2, (g) => g.kind === 'new-thread'), 2);
    const g = s.goal as Extract<ForumGoal, { kind: 'new-thread' }>;
    const wrong = s.boards.find((x) => x.slug !== g.board)!;
    await b.goto(`${inst.ctx.baseUrl}/new`);
    await b.fill('textbox', s.look.words.titleField, g.title);
    await b.select(s.look.words.boardField, wrong.name);
    await b.fill('textbox', s.look.words.bodyField, g.text);
    await b.click('button', s.look.words.createButton);
    assert.match(b.text(), /Your thread was created/);
    assert.deepEqual(unmet(inst), [`board ${s.boards.find((x) => x.slug === g.board)!.name}`]);
  }
  // Tier 2: a reply in the right thread that leaves out the asked-for text.
  {
    const { inst, s, b } = open(seedWhere(2, (g) => g.kind === 'reply'), 2);
    const g = s.goal as Extract<ForumGoal, { kind: 'reply' }>;
    await b.goto(`${inst.ctx.baseUrl}/thread/${g.thread}`);
    await b.fill('textbox', s.look.words.replyBox, 'Interesting thread, thanks for sharing.');
    await b.click('button', s.look.words.replyButton);
    assert.deepEqual(unmet(inst), ['reply says the requested text']);
  }
  // Tier 1: following a different thread from the index, and a wrong answer.
  {
    const { inst, s, b } = open(seedWhere(1, (g) => g.kind === 'follow'), 1);
    const g = s.goal as Extract<ForumGoal, { kind: 'follow' }>;
    const other = s.threads.find((t) => t.id !== g.thread && !s.followed.includes(t.id))!;
    await b.goto(`${inst.ctx.baseUrl}/thread/${other.id}`);
    await b.click('button', s.look.words.follow);
    assert.equal(inst.family.check(inst.ctx).success, false);
    const q = open(seedWhere(1, (x) => x.kind === 'replies'), 1);
    const answer = Number((q.s.goal as Extract<ForumGoal, { kind: 'replies' }>).answer);
    q.inst.ctx.agentMessages.push(`It has ${answer + 1} replies.`);
    assert.deepEqual(unmet(q.inst), ['correct reply count']);
  }
});

test('forum: the variation is real across seeds and fixed within one', async () => {
  const looks = Array.from({ length: 40 }, (_, i) => lookFor(10000 + i));
  const distinct = (f: (l: (typeof looks)[number]) => unknown) => new Set(looks.map((l) => JSON.stringify(f(l)))).size;
  assert.ok(distinct((l) => l.words.replyButton) >= 4 && distinct((l) => l.words.searchButton) >= 3, 'button words vary');
  assert.ok(distinct((l) => l.navOrder) >= 30, 'navigation order varies');
  assert.ok(distinct((l) => l.indexOrder) >= 10, 'section order varies');
  assert.equal(distinct((l) => l), 40, 'no two of 40 seeds look the same');
  assert.ok(looks.every((l) => l.distractors.length >= 1 && l.distractors.length <= 3));

  // Two seeds: different words and order on the same kind of page.
  const render = async (seed: number, paths: string[]) => {
    const inst = server.createInstance('forum', seed, { tier: 2 });
    const b = new MiniBrowser();
    const pages: string[] = [];
    for (const p of paths) {
      await b.goto(inst.ctx.baseUrl + p);
      pages.push(b.html.replaceAll(new URL(inst.ctx.baseUrl).pathname, '/i/X'));
    }
    return { inst, pages, b };
  };
  const a = await render(10000, ['/']);
  const c = await render(10001, ['/']);
  const navOf = (h: string) => [...h.matchAll(/<li><a href="\/i\/X\/[^"]*">([^<]*)<\/a><\/li>/g)].map((m) => m[1]).slice(0, 6);
  assert.notDeepEqual(navOf(a.pages[0]), navOf(c.pages[0]));
  const la = (a.inst.ctx.state as ForumState).look;
  const lc = (c.inst.ctx.state as ForumState).look;
  assert.notDeepEqual([la.words.replyButton, la.words.follow, la.layout, la.navOrder], [lc.words.replyButton, lc.words.follow, lc.layout, lc.navOrder]);

  // One seed twice: the same pages, byte for byte (the instance prefix aside).
  const sa = a.inst.ctx.state as ForumState;
  const thread = sa.threads[3].id;
  const board = sa.boards[1].slug;
  const paths = ['/', `/board/${board}?sort=replies&period=30`, `/thread/${thread}`, '/search?q=advice', '/new', '/members', `/user/${encodeURIComponent(sa.me)}`];
  const once = await render(10000, paths);
  const twice = await render(10000, paths);
  assert.deepEqual(once.pages, twice.pages);
  assert.ok(once.pages[2].includes(sa.look.words.replyButton) && once.pages[2].includes(sa.look.words.replyBox));
});

test('forum: bad form input gets a clear error and changes nothing', async () => {
  const { inst, s, b } = open(seedWhere(2, (g) => g.kind === 'edit'), 2);
  const w = s.look.words;
  const before = JSON.stringify({ posts: s.posts, threads: s.threads, followed: s.followed, upvoted: s.upvoted });
  const t = s.threads[0];
  await b.goto(`${inst.ctx.baseUrl}/thread/${t.id}`);
  await b.click('button', w.replyButton);
  assert.match(b.text(), /Write something before posting/);
  await b.fill('textbox', w.replyBox, '<b>hi</b>');
  await b.click('button', w.replyButton);
  assert.match(b.text(), /Posts must be at least 10 characters long/);
  assert.ok(b.html.includes('&lt;b&gt;hi&lt;/b&gt;') && !b.html.includes('<b>hi</b>'), 'the text comes back escaped');
  assert.equal(b.find('textbox', w.replyBox).invalid, true);

  await b.goto(`${inst.ctx.baseUrl}/new`);
  await b.fill('textbox', w.titleField, 'Hey');
  await b.click('button', w.createButton);
  for (const re of [/Titles must be at least 5 characters long/, /Choose a board to post in/, /Write something before posting/]) assert.match(b.text(), re);
  assert.equal(b.find('textbox', w.titleField).value, 'Hey', 'what was typed is kept');
  await b.fill('textbox', w.titleField, t.title);
  await b.select(w.boardField, s.boards.find((x) => x.slug === t.board)!.name);
  await b.fill('textbox', w.bodyField, 'A perfectly fine opening post.');
  await b.click('button', w.createButton);
  assert.match(b.text(), /A thread with this title already exists on that board/);

  const g = s.goal as Extract<ForumGoal, { kind: 'edit' }>;
  await b.goto(`${inst.ctx.baseUrl}/post/${g.post}/edit`);
  await b.fill('textbox', w.editField, '   ');
  await b.click('button', w.saveEdit);
  assert.match(b.text(), /Write something before posting/);
  const theirs = s.posts.find((p) => p.author !== s.me)!;
  await b.goto(`${inst.ctx.baseUrl}/post/${theirs.id}/edit`);
  assert.equal(b.status, 403);
  assert.match(b.text(), /You can only edit your own posts/);
  const res = await fetch(`${inst.ctx.baseUrl}/post/${theirs.id}/edit`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'body=Hijacked+by+someone+else' });
  assert.equal(res.status, 403);

  assert.equal(JSON.stringify({ posts: s.posts, threads: s.threads, followed: s.followed, upvoted: s.upvoted }), before);
  assert.equal(inst.family.check(inst.ctx).success, false);
});

test('forum: the oracle undoes a detour (a stray follow, a vote taken back, the digest) before its task', async () => {
  const seed = seedWhere(1, (g) => g.kind === 'upvote');
  const { inst, s, b } = open(seed, 1);
  s.followed.push(s.threads.find((t) => !s.followed.includes(t.id))!.id);
  s.upvoted.splice(0, 1);
  s.digest = true;
  assert.equal(inst.family.check(inst.ctx).success, false);
  const oracle = inst.family.oracle(inst.ctx);
  oracle.reset(inst.spec);
  await b.goto(inst.spec.startUrl);
  let steps = 0;
  while (steps++ < 25 && !(await b.step((await oracle.act(b.observe(), [])).action)).done);
  assert.deepEqual(s.followed, s.initial.followed);
  assert.deepEqual(s.upvoted.filter((x) => x !== (s.goal as { thread: number }).thread).sort(), [...s.initial.upvoted].sort());
  assert.equal(s.digest, false);
  assert.ok(inst.family.check(inst.ctx).success, unmet(inst).join(', '));
});

test('forum: a random agent almost never succeeds, and its actions stay valid', async () => {
  let wins = 0;
  let episodes = 0;
  for (let k = 0; k < 30; k++) {
    const r = await runAgent(server, 'forum', 10200 + k, () => randomAgent(k), { tier: ((k % 3) + 1) as Tier, maxSteps: 25 });
    for (const a of r.actions) assert.doesNotThrow(() => parseAction(a), a);
    const c = r.instance.family.check(r.instance.ctx);
    assert.ok(c.keyPoints.length > 0);
    if (c.success) wins++;
    episodes++;
    server.releaseInstance(r.instance.ctx.id);
  }
  assert.ok(wins <= 1, `random agent won ${wins} of ${episodes}`);
});

test('forum: the generation contract (deterministic, goal kind matches the instruction, seeds differ, tiers spread)', () => {
  const asksForMessage = /\btell me\b[^.?]*\bin a message\b/i;
  for (const seed of [0, 1, 77, 9999, 10000, 10999]) {
    assert.equal(JSON.stringify(forumFamily.generate(seed)), JSON.stringify(forumFamily.generate(seed)));
    for (const tier of [1, 2, 3] as Tier[]) assert.equal(JSON.stringify(forumFamily.generate(seed, tier)), JSON.stringify(forumFamily.generate(seed, tier)));
  }
  for (let seed = 10000; seed < 10060; seed++) {
    const g = forumFamily.generate(seed);
    assert.equal(asksForMessage.test(g.instruction), g.goalKind === 'answer', `seed ${seed}: ${g.instruction}`);
    if (g.goalKind === 'state') {
      const ctx = (messages: string[]) => ({ id: 'x', family: 'forum', seed, tier: g.tier, baseUrl: 'http://127.0.0.1/i/x', state: structuredClone(g.state), agentMessages: messages });
      assert.deepEqual(forumFamily.check(ctx(['Done. 42, $1,299.00, 9:30 AM'])), forumFamily.check(ctx([])));
    }
    assert.equal(forumFamily.check({ id: 'x', family: 'forum', seed, tier: g.tier, baseUrl: 'http://127.0.0.1/i/x', state: structuredClone(g.state), agentMessages: [] }).success, false, `seed ${seed} is not solved at the start`);
  }
  const instructions = new Set<string>();
  const states = new Set<string>();
  for (let seed = 0; seed < 20; seed++) {
    const g = forumFamily.generate(seed, 2);
    instructions.add(g.instruction);
    states.add(JSON.stringify(g.state));
  }
  assert.equal(states.size, 20);
  assert.ok(instructions.size >= 18);
  assert.deepEqual([...new Set(Array.from({ length: 60 }, (_, seed) => forumFamily.generate(seed).tier))].sort(), [1, 2, 3]);
  assert.deepEqual(forumFamily.seeds, { train: { from: 0, to: 10000 }, test: { from: 10000, to: 11000 } });
});

test('forum: the oracle succeeds in real Chromium on test seeds of every tier', async (t) => {
  // Six test seeds per tier; between them they draw every layout, dialog and task kind (checked below).
  const seeds = [10100, 10101, 10102, 10103, 10104, 10105];
  const drawn = new Set(seeds.flatMap((seed) => [1, 2, 3].flatMap((tier) => {
    const s = forumFamily.generate(seed, tier as Tier).state;
    return [s.look.layout, s.look.overlay, s.goal.kind === 'ranked' ? `ranked:${!!s.goal.keyword}` : s.goal.kind];
  })));
  for (const want of ['cards', 'list', 'table', 'cookie', 'digest', 'guidelines', 'starter', 'replies', 'follow', 'upvote', 'reply', 'new-thread', 'edit', 'ranked:true', 'ranked:false']) assert.ok(drawn.has(want), want);
  const steps = await oracleInChromium(server, 'forum', seeds);
  t.diagnostic(`Chromium mean oracle steps over ${seeds.length} seeds: tier 1 ${steps[1].toFixed(2)}, tier 2 ${steps[2].toFixed(2)}, tier 3 ${steps[3].toFixed(2)}`);
});
