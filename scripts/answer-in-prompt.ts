/**
 * Does the prompt the policy reads show what the oracle acted on? Per family, over a policy's SFT
 * samples: at answer steps, the value the oracle sends (out of answer steps with a value this
 * script can pick from the message); at steps acting on an element, that element's id. Used for
 * the element-order figures in docs/benchmarks.md ("The value beside the label", "Layout order").
 *
 *   npx tsx scripts/answer-in-prompt.ts --samples DIR/sft-samples.jsonl --policy resources/models/web-policy [--element-order task|task-values|task-layout|page] [--max-page-chars N] [--max-text-chars N]
 *
 * The samples of the shipped policy come from `lab train policy --preset long` (its lab's
 * policies/<name>/sft-samples.jsonl). The check is by value match (digits and letters only), so
 * it is a lower bound where the page writes a value differently from the message.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadTokenizer } from '../main/models/checkpoint.ts';
import { ELEMENT_ORDERS, PromptSettings } from '../main/policy/prompt.ts';
import { encodePrompt } from '../main/policy/sft-data.ts';
import { readPolicySettings } from '../main/policy/settings.ts';
import { modelFiles } from '../main/store/lab-files.ts';

const { values: o } = parseArgs({
  options: {
    samples: { type: 'string' },
    policy: { type: 'string', default: 'resources/models/web-policy' },
    'element-order': { type: 'string' },
    'max-page-chars': { type: 'string' },
    'max-text-chars': { type: 'string' },
  },
});
if (!o.samples) throw new Error('--samples FILE is required (a policy\'s sft-samples.jsonl)');
const order = o['element-order'];
if (order !== undefined && !(ELEMENT_ORDERS as readonly string[]).includes(order)) throw new Error(`--element-order must be one of ${ELEMENT_ORDERS.join(', ')}`);

const model = JSON.parse(readFileSync(modelFiles(o.policy!).model, 'utf8'));
const settings = readPolicySettings(o.policy!, model.meta);
const prompt = PromptSettings.parse({
  ...settings.prompt,
  ...(order ? { elementOrder: order } : {}),
  ...(o['max-page-chars'] ? { maxPageChars: Number(o['max-page-chars']) } : {}),
  ...(o['max-text-chars'] ? { maxTextChars: Number(o['max-text-chars']) } : {}),
});
const tokenizer = loadTokenizer(o.policy!);
const maxTokens = model.config.ctx - settings.reserve;

/** The value an oracle answer states: "... is 2440.", "costs $233.00 ...", "at 9:30 AM.", "at least 3 years". */
function answerValue(action: string): string | null {
  const m = /costs (\$[\d.,]+)|at (\d{1,2}:\d\d [AP]M)|least (\d+) years|is (?:the )?([^']+?)\.?'\)$/.exec(action);
  return m ? (m[1] ?? m[2] ?? m[3] ?? m[4] ?? null) : null;
}
const bare = (s: string) => s.replace(/[^0-9A-Za-z]/g, '');

const perFamily: Record<string, { shown: number; steps: number }> = {};
const targets: Record<string, { shown: number; steps: number }> = {};
for (const line of readFileSync(o.samples, 'utf8').split('\n')) {
  if (!line) continue;
  const sample = JSON.parse(line);
  const action: string = sample.target.action;
  const text = () => tokenizer.decode(encodePrompt(tokenizer, sample.input, prompt, maxTokens));
  if (!action.startsWith('send_msg_to_user')) {
    const id = /^\w+\('([^']*)'/.exec(action)?.[1];
    if (id === undefined || !sample.input.elements.some((e: { id: string }) => e.id === id)) continue;
    const t = (targets[sample.family] ??= { shown: 0, steps: 0 });
    t.steps++;
    if (text().includes(`[${id}]`)) t.shown++;
    continue;
  }
  const value = answerValue(action);
  if (!value) continue;
  const shown = text();
  const f = (perFamily[sample.family] ??= { shown: 0, steps: 0 });
  f.steps++;
  if (shown.includes(value) || bare(shown).includes(bare(value))) f.shown++;
}
const total = (r: Record<string, { shown: number; steps: number }>) => Object.values(r).reduce((a, x) => ({ shown: a.shown + x.shown, steps: a.steps + x.steps }), { shown: 0, steps: 0 });
process.stdout.write(JSON.stringify({ samples: o.samples, elementOrder: prompt.elementOrder, maxPageChars: prompt.maxPageChars, maxTextChars: prompt.maxTextChars ?? null, maxTokens, perFamily, answers: total(perFamily), targetsPerFamily: targets, targets: total(targets) }, null, 2) + '\n');
