import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChromiumHost } from '../../main/environment/chromium.ts';
import { BrowserEnv } from '../../main/environment/environment.ts';
import { TaskServer } from '../../main/tasks/server.ts';
import { LabStore } from '../../main/store/lab.ts';
import { runEpisode } from '../../main/collection/episode.ts';
import { NoisyExpert, MISTAKE_KINDS, type MistakeKind } from '../../main/agents/noisy-expert.ts';
import { useTaskEnvironment } from '../helpers/environment.ts';

let host: ChromiumHost;
let server: TaskServer;
let env: BrowserEnv;
let store: LabStore;

useTaskEnvironment('lab-noisy-', (f) => ({ host, server, env, store } = f));

const HIGH = { wrong_element: 0.3, detour: 0.3, premature_answer: 0, typo: 0.6, wrong_option: 0.6 };

async function attempt(seed: number, reflections: string[] = []) {
  let agent: NoisyExpert | undefined;
  const out = await runEpisode(
    { env, server, store, browserKind: host.kind },
    {
      family: 'shop',
      seed: 10001,
      maxSteps: 20,
      agent: (i) => (agent = new NoisyExpert(i.family.oracle(i.ctx), { seed, rates: HIGH, reflections })),
      agentConfig: { seed },
    },
  );
  return { out, actions: store.readEpisode(out.id).steps.map((s) => s.action), mistakes: agent!.mistakes };
}

test('the noisy expert repeats its mistakes for the same seed, and makes fewer of the kinds a reflection names', async () => {
  const a = await attempt(7);
  const b = await attempt(7);
  assert.deepEqual(a.actions, b.actions, 'same seed, same actions');
  assert.ok(a.mistakes.length > 0, 'high rates make mistakes');
  for (const m of a.mistakes) assert.ok((MISTAKE_KINDS as readonly string[]).includes(m.kind));
  // Mistakes are recorded where they happened and differ from what the oracle meant.
  for (const m of a.mistakes) assert.equal(a.actions[m.step], m.action);
  const named = [...new Set(a.mistakes.map((m) => m.kind))] as MistakeKind[];
  const c = await attempt(7, [`The attempt failed.\nAvoid: ${named.join(', ')}`]);
  assert.ok(c.mistakes.length < a.mistakes.length, `with the reflection: ${c.mistakes.length} mistakes, without: ${a.mistakes.length}`);
});
