/**
 * Child process for the crash test: runs a counter episode with a slow agent and reports each
 * completed step on stdout, so the parent can SIGKILL it mid-episode.
 */
import { ChromiumHost } from '../../main/environment/chromium.ts';
import { BrowserEnv } from '../../main/environment/environment.ts';
import { TaskServer } from '../../main/tasks/server.ts';
import { LabStore } from '../../main/store/lab.ts';
import { runEpisode } from '../../main/collection/episode.ts';
import { counterFamily } from './counter-family.ts';

const labDir = process.argv[2];
const server = await new TaskServer(new Map([['counter', counterFamily]])).start();
const host = await ChromiumHost.start();
const env = new BrowserEnv(host);
const store = new LabStore(labDir);
const instance = server.createInstance('counter', 3);
const oracle = counterFamily.oracle(instance.ctx as Parameters<typeof counterFamily.oracle>[0]);
server.releaseInstance(instance.ctx.id);
// Slow enough that the parent kills us mid-episode; the oracle never finishes on its own.
const slow = {
  name: 'slow-clicker',
  reset() {},
  async act(obs: any, history: any) {
    await new Promise((r) => setTimeout(r, 150));
    const turn = await oracle.act(obs, history);
    return turn.action.startsWith('send_msg') ? { action: 'noop(10)' } : turn;
  },
};
await runEpisode(
  { env, server, store, browserKind: host.kind, onStep: (i) => process.stdout.write(`STEP ${i}\n`) },
  { family: 'counter', seed: 3, agent: slow, maxSteps: 1000 },
);
