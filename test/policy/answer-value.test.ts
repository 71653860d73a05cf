/**
 * Answers as values (PromptSettings.answer = 'value'): the goal's value is found by generating the
 * task again, kept only where the oracle's message states it, and becomes the whole answer the
 * policy learns, with the line of the element that shows it as the thought.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answerValueIn } from '../../main/policy/answer-value.ts';
import { defaultPromptSettings, policyTarget, PromptSettings, renderPolicyPrompt } from '../../main/policy/prompt.ts';
import { builtinFamilies } from '../../main/tasks/registry.ts';
import type { PageElement } from '../../main/environment/types.ts';
import type { Tier } from '../../main/tasks/types.ts';
import { useTaskEnvironment, type TaskEnvironmentFixture } from '../helpers/environment.ts';
import { runEpisode } from '../../main/collection/episode.ts';
import { createDataset } from '../../main/datasets/index.ts';
import { policySamples } from '../../main/policy/sft-data.ts';

let fx: TaskEnvironmentFixture;
useTaskEnvironment('lab-answer-value-', (f) => (fx = f));

/** The first seed from 0 whose tier-1 task has a goal of this kind (its `goal`, or one of its `goals`). */
function seedWith(family: string, kind: string): { seed: number; goal: Record<string, unknown> } {
  const f = builtinFamilies().get(family)!;
  for (let seed = 0; seed < 200; seed++) {
    const state = f.generate(seed, 1 as Tier).state as { goal?: Record<string, unknown>; goals?: Array<Record<string, unknown>> };
    const goal = [state.goal, ...(state.goals ?? [])].find((g) => g?.kind === kind);
    if (goal) return { seed, goal };
  }
  throw new Error(`no ${family} seed with a ${kind} goal`);
}

test('the value a message states comes from the regenerated task; a message that words it otherwise has none', () => {
  const { seed, goal } = seedWith('hotels', 'room_price');
  const task = { family: 'hotels', seed, tier: 1 };
  assert.match(String(goal.answer), /^\$\d/);
  assert.equal(answerValueIn(task, `The Deluxe Room at Harbor Inn costs ${goal.answer} per night.`), goal.answer);
  assert.equal(answerValueIn(task, 'The Deluxe Room costs a lot.'), null);
  // Another seed's task has another answer: the value is this instance's, not any price.
  assert.equal(answerValueIn({ ...task, seed: seed + 1000 }, `It costs ${goal.answer}.`) === goal.answer, false);
  // A calendar start time is kept in minutes and written as a clock time: not stated verbatim, so left alone.
  const cal = seedWith('calendar', 'start_time');
  assert.equal(answerValueIn({ family: 'calendar', seed: cal.seed, tier: 1 }, 'Standup starts at 9:30 AM.'), null);
  assert.equal(answerValueIn({ family: 'no-such-family', seed: 1, tier: 1 }, 'x'), null);
});

const el = (id: string, role: string, name: string): PageElement => ({ id, role, name, tag: 'span', box: { x: 0, y: 0, width: 10, height: 10 }, visible: true, inViewport: true });
const promptInput = (elements: PageElement[]) => ({ instruction: 'What does the Deluxe Room at Harbor Inn cost per night?', url: 'http://127.0.0.1/i/x/hotel/4', title: 'Harbor Inn', history: [], elements });

test('answer value: the message becomes the value alone, its thought the line of the element showing it; message form and unknown values keep the sentence', () => {
  const input = promptInput([el('4', 'link', 'Harbor Inn'), el('31', 'text', 'Deluxe Room: $233.00 per night'), el('40', 'button', 'Book')]);
  const target = { thought: 'The Deluxe Room costs $233.00 per night.', action: "send_msg_to_user('The Deluxe Room at Harbor Inn costs $233.00 per night.')", answer: '$233.00' };
  const value = { ...defaultPromptSettings, elementLayout: 'name-first' as const, thought: 'element' as const, answer: 'value' as const };
  // A text run prints as its bare text: the thought is that span of the prompt, value included.
  assert.deepEqual(policyTarget(input, target, value), { thought: 'Deluxe Room: $233.00 per night', action: "send_msg_to_user('$233.00')" });
  // Dataset thoughts: only the action changes.
  assert.deepEqual(policyTarget(input, target, { ...value, thought: 'dataset' }), { thought: target.thought, action: "send_msg_to_user('$233.00')" });
  // No element shows it: the dataset's thought stays.
  assert.equal(policyTarget(promptInput([]), target, value).thought, target.thought);
  // The message form, or a sample that does not know the value, learns the sentence.
  assert.deepEqual(policyTarget(input, target, { ...value, answer: 'message' }), { thought: target.thought, action: target.action });
  const { answer: _, ...unknown } = target;
  assert.equal(policyTarget(input, unknown, value).action, target.action);
  // Policies trained before the field learned the sentence.
  assert.equal(PromptSettings.parse({ maxPageChars: 1, maxNameChars: 1, maxHistory: 0 }).answer, 'message');
});

test('answer cite: the sentence stays, its thought the printed line of the element showing the value (the shortest), never a line the prompt cut', () => {
  const target = { thought: 'The Deluxe Room costs $233.00 per night.', action: "send_msg_to_user('The Deluxe Room at Harbor Inn costs $233.00 per night.')", answer: '$233.00' };
  const cite = { ...defaultPromptSettings, elementLayout: 'name-first' as const, thought: 'element' as const, answer: 'cite' as const };
  const elements = [el('4', 'link', 'Harbor Inn'), el('30', 'text', 'Rooms from $233.00 a night, breakfast included, sea view'), el('31', 'cell', '$233.00'), el('40', 'button', 'Book')];
  assert.deepEqual(policyTarget(promptInput(elements), target, cite), { thought: 'cell "$233.00" [31]', action: target.action });
  // The holder is cut from a prompt too small for it: the dataset's thought stays.
  const tight = { ...cite, maxPageChars: 30 };
  assert.equal(policyTarget(promptInput([...Array.from({ length: 6 }, (_, i) => el(String(50 + i), 'button', `Filter number ${i}`)), el('31', 'cell', '$233.00')]), target, tight).thought, target.thought);
  // Without element thoughts, or without a known value, cite is the message form.
  assert.equal(policyTarget(promptInput(elements), target, { ...cite, thought: 'dataset' }).thought, target.thought);
  const { answer: _, ...unknown } = target;
  assert.deepEqual(policyTarget(promptInput(elements), unknown, cite), { thought: target.thought, action: target.action });
  // A value the prompt marks (markValues) is cited with its mark, as printed.
  const page = [el('42', 'heading', 'Juniper Diner'), el('', 'text', 'Phone'), el('', 'text', '(761) 414-5288'), el('75', 'button', 'Find a table')];
  const marked = { ...cite, markValues: true };
  const input = { ...promptInput(page), instruction: 'What is the phone number of Juniper Diner? Tell me in a message.' };
  assert.match(renderPolicyPrompt(input, marked), /^Phone\n= \(761\) 414-5288$/m);
  const phone = { thought: 'The number is (761) 414-5288.', action: "send_msg_to_user('The phone number of Juniper Diner is (761) 414-5288.')", answer: '(761) 414-5288' };
  assert.equal(policyTarget(input, phone, marked).thought, '= (761) 414-5288');
  assert.equal(policyTarget(input, phone, cite).thought, '(761) 414-5288', 'unmarked without markValues');
});

test('an oracle episode\'s answer step carries its goal value into the policy samples, and a value-form policy learns it alone', async () => {
  const { seed, goal } = seedWith('hotels', 'room_price');
  const deps = { env: fx.env, server: fx.server, store: fx.store, browserKind: fx.host.kind };
  const ep = await runEpisode(deps, { family: 'hotels', seed, tier: 1, agent: (i) => i.family.oracle(i.ctx) });
  assert.ok(ep.success);
  const { manifest } = createDataset(fx.store, { name: 'answers', filter: { ids: [ep.id] }, ratios: { train: 1, validation: 0, test: 0 } });
  const samples = policySamples(fx.store, manifest);
  const say = samples.filter((x) => x.target.action.startsWith('send_msg_to_user('));
  assert.equal(say.length, 1);
  assert.equal(say[0].target.answer, goal.answer);
  assert.ok(samples.filter((x) => x !== say[0]).every((x) => x.target.answer === undefined), 'only the message step carries a value');
  const value = { ...defaultPromptSettings, elementLayout: 'name-first' as const, thought: 'element' as const, answer: 'value' as const };
  const learned = policyTarget(say[0].input, say[0].target, value);
  assert.equal(learned.action, `send_msg_to_user('${goal.answer}')`);
  assert.ok(learned.thought.includes(String(goal.answer)), `the thought shows the value: ${learned.thought}`);
});
