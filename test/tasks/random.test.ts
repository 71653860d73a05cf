import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskServer } from '../../main/tasks/server.ts';
import { randomAgent } from '../../main/agents/random.ts';
import { parseAction } from '../../main/environment/actions.ts';
import { runAgent, startServer } from './helpers/server.ts';

let server: TaskServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

for (const family of ['shop', 'flights', 'webmail', 'hotels', 'restaurants', 'jobs', 'calendar', 'wiki', 'realestate', 'compare', 'tickets', 'factbook', 'forum', 'bank', 'settings', 'docs', 'directory']) {
  test(`random agent on ${family}: valid actions, deterministic for its seed, different across seeds`, async () => {
    const a = await runAgent(server, family, 10020, () => randomAgent(5), { maxSteps: 25 });
    const b = await runAgent(server, family, 10020, () => randomAgent(5), { maxSteps: 25 });
    const c = await runAgent(server, family, 10020, () => randomAgent(6), { maxSteps: 25 });
    assert.deepEqual(a.actions, b.actions);
    assert.notDeepEqual(a.actions, c.actions);
    for (const act of [...a.actions, ...c.actions]) assert.doesNotThrow(() => parseAction(act), act);
    // Sites must survive random input: the checker still answers, and it does not succeed by chance here.
    const verdict = a.instance.family.check(a.instance.ctx);
    assert.equal(typeof verdict.success, 'boolean');
    assert.ok(verdict.keyPoints.length > 0);
  });
}
