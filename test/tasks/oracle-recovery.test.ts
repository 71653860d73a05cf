/**
 * Oracles are state machines on what the page shows, so they must finish the task from wherever
 * an episode has wandered: here a random agent acts first, then the oracle takes over.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskServer } from '../../main/tasks/server.ts';
import { randomAgent } from '../../main/agents/random.ts';
import { MiniBrowser } from './helpers/minibrowser.ts';
import { startServer } from './helpers/server.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

for (const family of ['shop', 'flights', 'webmail', 'hotels', 'restaurants', 'jobs', 'calendar', 'wiki', 'realestate', 'compare', 'tickets']) {
  test(`${family}: the oracle recovers after random detours`, async () => {
    for (let seed = 10300; seed < 10320; seed++) {
      const inst = server.createInstance(family, seed);
      const b = new MiniBrowser(inst.ctx.agentMessages);
      await b.goto(inst.spec.startUrl);
      const rnd = randomAgent(seed);
      rnd.reset(inst.spec);
      const detour: string[] = [];
      for (let i = 0; i < 8; i++) {
        const t = await rnd.act(b.observe(inst.spec.instruction), []);
        // Answers end an episode; skip them so the oracle gets its turn.
        if (/^(send_msg_to_user|report_infeasible)/.test(t.action)) continue;
        detour.push(t.action);
        await b.step(t.action);
      }
      const oracle = inst.family.oracle(inst.ctx);
      oracle.reset(inst.spec);
      const actions: string[] = [];
      for (let i = 0; i < 40; i++) {
        const t = await oracle.act(b.observe(inst.spec.instruction), []);
        actions.push(t.action);
        if ((await b.step(t.action)).done) break;
      }
      const c = inst.family.check(inst.ctx);
      assert.ok(c.success, `seed ${seed}: ${JSON.stringify(c.keyPoints.filter((k) => !k.met))}\ndetour: ${detour.join(' ')}\noracle: ${actions.join(' ')}`);
      server.releaseInstance(inst.ctx.id);
    }
  });
}
