import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinFamilies, heldOutFamilies, trainingFamilies } from '../../main/tasks/registry.ts';
import type { Tier } from '../../main/tasks/types.ts';

const families = [...builtinFamilies().values()];

test('the built-in families are registered', () => {
  assert.deepEqual(families.map((f) => f.name).sort(), ['bank', 'calendar', 'compare', 'directory', 'docs', 'factbook', 'flights', 'forum', 'hotels', 'jobs', 'realestate', 'restaurants', 'settings', 'shop', 'tickets', 'webmail', 'wiki']);
});

test('the suite has held-out (test-only) families besides the training ones', () => {
  assert.deepEqual(heldOutFamilies().map((f) => f.name), ['restaurants', 'wiki']);
  assert.ok(trainingFamilies().length >= 4);
  assert.ok(trainingFamilies().every((f) => !f.heldOut));
});

for (const f of families) {
  test(`${f.name}: generation is deterministic per seed`, () => {
    for (const seed of [0, 1, 77, 9999, 10000, 10999]) {
      assert.equal(JSON.stringify(f.generate(seed)), JSON.stringify(f.generate(seed)), `seed ${seed}`);
      for (const tier of [1, 2, 3] as Tier[]) assert.equal(JSON.stringify(f.generate(seed, tier)), JSON.stringify(f.generate(seed, tier)));
    }
  });

  test(`${f.name}: every instance says whether its goal is a page state or an answer, and its instruction agrees`, () => {
    const asksForMessage = /\btell me\b[^.?]*\bin a message\b/i;
    for (let seed = 10000; seed < 10060; seed++) {
      const g = f.generate(seed);
      assert.ok(g.goalKind === 'state' || g.goalKind === 'answer', `seed ${seed}: goalKind ${g.goalKind}`);
      assert.equal(asksForMessage.test(g.instruction), g.goalKind === 'answer', `seed ${seed} (${g.goalKind}): ${g.instruction}`);
      // A state goal's checker reads the site, never the agent's messages, so a message cannot end it early.
      if (g.goalKind === 'state') {
        const ctx = (messages: string[]) => ({ id: 'x', family: f.name, seed, tier: g.tier, baseUrl: 'http://127.0.0.1/i/x', state: structuredClone(g.state), agentMessages: messages });
        assert.deepEqual(f.check(ctx(['Done. 42, $1,299.00, 9:30 AM'])), f.check(ctx([])), `seed ${seed}`);
      }
    }
  });

  test(`${f.name}: data and task differ across seeds`, () => {
    const instructions = new Set<string>();
    const states = new Set<string>();
    for (let seed = 0; seed < 20; seed++) {
      const g = f.generate(seed, 2);
      instructions.add(g.instruction);
      states.add(JSON.stringify(g.state));
    }
    assert.equal(states.size, 20, 'every seed has its own site data');
    assert.ok(instructions.size >= 18, `instructions repeat too often (${instructions.size} distinct of 20)`);
  });

  test(`${f.name}: train and test seed ranges are disjoint; test is non-empty, train is empty exactly when held out`, () => {
    const { train, test: held } = f.seeds;
    assert.ok(held.from < held.to);
    if (f.heldOut) assert.equal(train.from, train.to, 'a held-out family has no train seeds');
    else assert.ok(train.from < train.to);
    assert.ok(train.to <= held.from || held.to <= train.from || train.from === train.to, 'ranges overlap');
  });

  test(`${f.name}: tier comes from the seed when not given, and is honoured when given`, () => {
    const seen = new Set<number>();
    for (let seed = 0; seed < 60; seed++) seen.add(f.generate(seed).tier);
    assert.deepEqual([...seen].sort(), [1, 2, 3]);
    for (const tier of [1, 2, 3] as Tier[]) assert.equal(f.generate(5, tier).tier, tier);
  });

  test(`${f.name}: instructions are non-empty and start paths are instance-relative`, () => {
    for (let seed = 10000; seed < 10030; seed++) {
      const g = f.generate(seed);
      assert.ok(g.instruction.length > 20);
      assert.ok(g.startPath.startsWith('/'));
    }
  });
}
