/**
 * Renders what an agent reads on the built-in task sites, so a change to the observation code can
 * be checked against it byte for byte: the shipped compact policy was trained on this text, and
 * a silent shift in it would break that policy.
 *
 *   npx tsx scripts/observation-snapshot.ts OUT_DIR [--seeds 3] [--tiers 1,2] [--steps 4] [--text-layout runs] [--family shop ...]
 *
 * For each family, seed (the first test seeds) and tier, the oracle runs in the real browser
 * environment and each of the first --steps observations is written to OUT_DIR/<family>-<seed>-t<tier>.txt:
 * the prompt's page text (visible elements) and every element with its flags (hidden ones too),
 * so an id or visibility change shows as well. Diff two such folders with `diff -r`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChromiumHost } from '../main/environment/chromium.ts';
import { BrowserEnv } from '../main/environment/environment.ts';
import type { Observation } from '../main/environment/types.ts';
import { renderElementLine, renderObservationText } from '../main/policy/observation-text.ts';
import { TaskServer } from '../main/tasks/server.ts';
import { builtinFamilies } from '../main/tasks/registry.ts';
import type { Tier } from '../main/tasks/types.ts';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

function renderAll(obs: Observation): string {
  const page = renderObservationText(obs);
  const all = obs.elements.map((e) => `${e.visible ? (e.inViewport ? 'v' : 'o') : 'h'} ${e.tag} ${renderElementLine(e)}${e.role === 'text' ? ` [${e.id}]` : ''}`);
  return [page, '-- all elements --', ...all].join('\n');
}

async function main(): Promise<void> {
  const out = process.argv[2];
  if (!out || out.startsWith('--')) throw new Error('usage: observation-snapshot.ts OUT_DIR [--seeds N] [--tiers 1,2] [--steps N] [--family NAME]');
  const seeds = Number(arg('--seeds', '3'));
  const tiers = arg('--tiers', '1,2').split(',').map((t) => Number(t) as Tier);
  const maxObs = Number(arg('--steps', '4'));
  const only = process.argv.includes('--family') ? process.argv.slice(process.argv.indexOf('--family') + 1).filter((a) => !a.startsWith('--')) : null;
  mkdirSync(out, { recursive: true });
  const families = builtinFamilies();
  const server = await new TaskServer(families).start();
  const host = await ChromiumHost.start();
  const env = new BrowserEnv(host, process.argv.includes('--text-layout') ? { textLayout: arg('--text-layout', 'sentences') as 'sentences' | 'runs' } : {});
  const t0 = performance.now();
  try {
    for (const family of families.values()) {
      if (only && !only.includes(family.name)) continue;
      for (let k = 0; k < seeds; k++) {
        const seed = family.seeds.test.from + k;
        for (const tier of tiers) {
          const instance = server.createInstance(family.name, seed, { tier });
          const { spec } = instance;
          const agent = family.oracle(instance.ctx);
          await agent.reset(spec);
          let obs = await env.reset({ instruction: spec.instruction, startUrl: spec.startUrl, allowedOrigins: spec.allowedOrigins });
          const pages: string[] = [];
          const history = [];
          for (let step = 0; step < maxObs; step++) {
            // The instance id and the server's port differ run to run; everything else must not.
            const text = renderAll(obs).replaceAll(instance.ctx.id, '<instance>').replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>');
            pages.push(`== observation ${step} ==\n${text}`);
            if (step + 1 === maxObs) break;
            const turn = await agent.act(obs, history);
            history.push(turn);
            const r = await env.step(turn.action);
            obs = r.observation;
            if (r.done) break;
          }
          writeFileSync(join(out, `${family.name}-${seed}-t${tier}.txt`), pages.join('\n\n') + '\n');
          server.releaseInstance(instance.ctx.id);
        }
      }
      process.stderr.write(`${family.name} done (${Math.round((performance.now() - t0) / 1000)} s)\n`);
    }
  } finally {
    await env.close();
    await host.close();
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
