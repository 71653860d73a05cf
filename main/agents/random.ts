/**
 * A random baseline agent: picks a visible element and an action that fits its role (click,
 * fill with a random word, choose a random option), and now and then scrolls, goes back or
 * answers with a random word. Deterministic for a given seed and task, so runs are reproducible.
 */
import type { Observation } from '../environment/types.ts';
import type { TaskSpec } from '../tasks/types.ts';
import { Rng, mixSeed } from '../common/rng.ts';
import { act } from '../tasks/families/common/oracle.ts';
import type { Agent, AgentTurn } from '../tasks/agent.ts';

const WORDS = ['blue', 'boston', 'red', 'shoes', 'tuesday', 'invoice', 'hello', 'express', '42', 'denver', 'archive', 'business', 'jane', 'dana', 'yes', '2026-03-14'];
const INTERACTIVE = new Set(['link', 'button', 'textbox', 'searchbox', 'combobox', 'checkbox', 'radio', 'spinbutton', 'switch', 'tab', 'menuitem', 'option']);

export function randomAgent(seed: number): Agent {
  let rng = new Rng(seed);
  return {
    name: 'random',
    reset(task: TaskSpec) {
      // A fresh stream per task: the same agent seed on the same task repeats its actions.
      rng = new Rng(mixSeed(seed, task.family, task.seed));
    },
    async act(obs: Observation): Promise<AgentTurn> {
      return { thought: 'random action', action: pick(rng, obs) };
    },
  };
}

function pick(rng: Rng, obs: Observation): string {
  const r = rng.next();
  if (r < 0.08) return `scroll(0, ${rng.pick([-400, -200, 200, 400, 600])})`;
  if (r < 0.12) return act.goBack();
  if (r < 0.14) return act.say(rng.pick(WORDS));
  const els = obs.elements.filter((e) => e.visible !== false && !e.disabled && INTERACTIVE.has(e.role));
  if (!els.length) return `scroll(0, 300)`;
  const el = rng.pick(els);
  switch (el.role) {
    case 'textbox':
    case 'searchbox':
      return rng.chance(0.7) || !el.value ? act.fill(el, rng.pick(WORDS)) : act.press(el, 'Enter');
    case 'spinbutton':
      return act.fill(el, String(rng.int(0, 5)));
    case 'combobox':
      return el.options?.length ? act.select(el, rng.pick(el.options)) : act.click(el);
    default:
      return act.click(el);
  }
}
