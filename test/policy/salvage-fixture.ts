/** A tiny SFT policy and its states for the Salvage-DS tests: four shop pages, one link to open on each. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { trainSft, defaultSftJob } from '../../main/policy/sft.ts';
import { defaultPromptSettings } from '../../main/policy/prompt.ts';
import type { PolicySample } from '../../main/policy/sft-data.ts';
import { writeStates, type SalvageState } from '../../main/policy/salvage/states.ts';
import { defaultSalvageJob, type SalvageJob } from '../../main/policy/salvage/config.ts';
import { modelFiles } from '../../main/store/lab-files.ts';

const el = (id: string, role: string, name: string) => ({ id, role, name, tag: 'a', box: { x: 0, y: 0, width: 9, height: 9 }, visible: true, inViewport: true });
const names = ['Boots', 'Jacket', 'Tent', 'Stove'];
const ids = ['4', '7', '9', '12'];

export function shopSamples(): PolicySample[] {
  return names.map((name, i) => ({
    episodeId: `e${i}`, step: 0, split: 'train', family: 'shop',
    input: { instruction: `Open the ${name}.`, url: 'http://x/i/a/', title: 'Shop', elements: names.map((n, j) => el(ids[j], 'link', n)), lastActionError: null, history: [] },
    target: { thought: `Open ${name}.`, action: `click('${ids[i]}')` },
  }));
}

/** An SFT policy trained briefly: it writes click actions but often on the wrong link. */
export async function tinyPolicy(dir: string, steps: number): Promise<string> {
  const samplesFile = modelFiles(dir).sftSamples;
  writeFileSync(samplesFile, shopSamples().map((s) => JSON.stringify(s)).join('\n') + '\n');
  const outDir = join(dir, 'sft');
  await trainSft({
    // minLr 0.0012 - 0.0002 is 0.0009999999999999998: a float tail the Training view must show as 0.001.
    ...defaultSftJob, outDir, samplesFile, dataset: { name: 'synthetic', version: 1 }, steps, batch: 4, warmup: 4, lr: 1e-2, minLr: 0.0012 - 0.0002,
    evalEvery: 1000, checkpointEvery: 1000, vocabSize: 300, model: { dModel: 32, nLayer: 1, nHead: 2, dFF: 64, ctx: 192 },
    prompt: defaultPromptSettings, reserve: 24, backend: 'wasm',
  });
  return outDir;
}

export function shopStates(dir: string): string {
  const states: SalvageState[] = shopSamples().map((s) => ({ kind: 'critical', mode: 'wrong_element', family: s.family, episodeId: s.episodeId, step: 0, input: s.input, target: s.target }));
  const path = modelFiles(dir).salvageStates;
  writeStates(path, states);
  return path;
}

export function salvageJob(policy: string, outDir: string, statesFile: string, over: Partial<SalvageJob> = {}): SalvageJob {
  return { ...defaultSalvageJob, policy, outDir, statesFile, maxNew: 24, iterations: 6, statesPerIter: 4, group: 6, lr: 3e-3, checkpointEvery: 100, backend: 'wasm', ...over };
}
