/**
 * Does the stated-value rule of the action guide (citedValue, statesValue) hold on a policy's
 * training targets? Per family, over a lab's frozen dataset rendered under the policy's prompt
 * settings: the answers whose thought cites a marked line, how many of their messages state its
 * value, and how many pass the rule at every prefix (the rule never blocks what the policy was
 * trained to write). Used for the figure in docs/policy.md ("Held out: a cited value is stated").
 *
 *   npx tsx scripts/stated-values.ts --lab DIR --dataset NAME [--policy resources/models/web-policy]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { LabStore } from '../main/store/lab.ts';
import { readManifest } from '../main/datasets/manifest.ts';
import { policySamples } from '../main/policy/sft-data.ts';
import { policyTarget, type PolicyPromptInput } from '../main/policy/prompt.ts';
import { readPolicySettings } from '../main/policy/settings.ts';
import { parseAction } from '../main/environment/actions.ts';
import { citedValue, statesValue } from '../main/policy/action-guide.ts';
import { modelFiles } from '../main/store/lab-files.ts';

const { values: o } = parseArgs({ options: { lab: { type: 'string' }, dataset: { type: 'string' }, policy: { type: 'string', default: 'resources/models/web-policy' } } });
if (!o.lab || !o.dataset) throw new Error('--lab DIR and --dataset NAME are required (a lab holding the frozen dataset)');
const model = JSON.parse(readFileSync(modelFiles(o.policy!).model, 'utf8'));
const settings = readPolicySettings(o.policy!, model.meta);
if (settings.prompt.answer !== 'cite') throw new Error(`${o.policy}: the policy does not cite (prompt answer "${settings.prompt.answer}"); the rule applies only to cite policies`);

const byFamily: Record<string, { citedMarked: number; stated: number; everyPrefixPasses: number }> = {};
const failures: string[] = [];
for (const x of policySamples(new LabStore(o.lab), readManifest(o.lab, o.dataset))) {
  if (!x.target.action.startsWith('send_msg_to_user(')) continue;
  const target = policyTarget(x.input as PolicyPromptInput, x.target, settings.prompt);
  const value = citedValue(target.thought);
  if (value === undefined) continue;
  const r = (byFamily[x.family] ??= { citedMarked: 0, stated: 0, everyPrefixPasses: 0 });
  r.citedMarked++;
  const text = (parseAction(target.action) as { text: string }).text;
  const stated = statesValue(text, false, value);
  const prefixes = [...text].every((_, i) => statesValue(text.slice(0, i + 1), true, value));
  if (stated) r.stated++;
  if (prefixes) r.everyPrefixPasses++;
  if ((!stated || !prefixes) && failures.length < 20) failures.push(`${x.family}: ${target.thought} -> ${text}`);
}
const total = Object.values(byFamily).reduce((a, r) => ({ citedMarked: a.citedMarked + r.citedMarked, stated: a.stated + r.stated, everyPrefixPasses: a.everyPrefixPasses + r.everyPrefixPasses }), { citedMarked: 0, stated: 0, everyPrefixPasses: 0 });
console.log(JSON.stringify({ lab: o.lab, dataset: o.dataset, policy: o.policy, total, byFamily, failures }, null, 2));
