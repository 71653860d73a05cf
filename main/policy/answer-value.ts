/**
 * The value an answer step states, for training a policy to answer with the value alone
 * (PromptSettings.answer = 'value').
 *
 * Every training family words its answers its own way ("The Deluxe Room at Harbor Inn costs
 * $233.00 per night."), so a policy learns nine sentence templates and, on a site it has never
 * seen, writes a garbled tenth. Every checker accepts a message that holds the value, so the value
 * alone ("$233.00") is a correct answer everywhere, and one the pointer can copy from the page.
 *
 * The value comes from the task itself: the family's generator is run again on the episode's seed
 * and tier (it is deterministic), and its goal's `answer` is taken where the message states it
 * verbatim and the family's checker, given that value alone as the message, passes the task.
 * Goals whose answer the page writes differently (a time kept in minutes, a sum) are left as they
 * were.
 */
import { builtinFamilies } from '../tasks/registry.ts';
import type { Tier } from '../tasks/types.ts';

const families = builtinFamilies();

/** The goal answers a generated task state names: `goal.answer`, or each of `goals[].answer`. */
function goalAnswers(state: unknown): string[] {
  const st = state as { goal?: { answer?: unknown }; goals?: Array<{ answer?: unknown }> } | null;
  const raw = [st?.goal?.answer, ...(st?.goals ?? []).map((g) => g.answer)];
  return raw.filter((a): a is string | number => typeof a === 'string' || typeof a === 'number').map(String).filter((a) => a.trim() !== '');
}

/** The goal's value that `message` states verbatim (the longest, if several), or null. */
export function answerValueIn(task: { family: string; seed: number; tier: number }, message: string): string | null {
  const family = families.get(task.family);
  if (!family) return null;
  const tier = task.tier as Tier;
  const generated = family.generate(task.seed, tier);
  if (generated.goalKind !== 'answer') return null;
  // An answer goal leaves the site's state as generated, and a checker only reads it: it can judge the value on that state.
  const accepts = (value: string) => family.check({ id: 'answer-value', family: task.family, seed: task.seed, tier, baseUrl: '', state: generated.state, agentMessages: [value] }).success;
  const stated = goalAnswers(generated.state).filter((a) => message.includes(a)).sort((a, b) => b.length - a.length);
  return stated.find(accepts) ?? null;
}
