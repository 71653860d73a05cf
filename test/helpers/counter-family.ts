/**
 * A tiny task family for tests of the episode machinery (not a built-in site):
 * "press Add one N times, then tell me the count". Real server-side state, real checker.
 */
import type { Agent } from '../../main/tasks/agent.ts';
import type { TaskFamily } from '../../main/tasks/types.ts';

interface CounterState {
  target: number;
  count: number;
}

export const counterFamily: TaskFamily<CounterState> = {
  name: 'counter',
  description: 'Test fixture: press a button N times and report the count',
  seeds: { train: { from: 0, to: 100 }, test: { from: 100, to: 200 } },
  generate(seed, tier) {
    const target = 1 + (seed % 4);
    // Pressing is not enough: the count must be reported, so the goal is an answer.
    return { instruction: `Press "Add one" ${target} times, then report the count.`, state: { target, count: 0 }, goalKind: 'answer', startPath: '/', tier: tier ?? 1 };
  },
  handle(req, ctx) {
    if (req.method === 'POST' && req.path === '/add') {
      ctx.state.count++;
      return { kind: 'redirect', location: '/' };
    }
    if (req.path === '/') {
      return {
        kind: 'html',
        body: `<!doctype html><title>Counter</title><h1>Counter</h1><p>Count: ${ctx.state.count}</p>
          <form method="post" action="${ctx.baseUrl}/add"><button>Add one</button></form>`,
      };
    }
    return { kind: 'not_found' };
  },
  check(ctx) {
    const pressed = ctx.state.count === ctx.state.target;
    const reported = ctx.agentMessages.some((m) => m.trim() === String(ctx.state.target));
    return {
      success: pressed && reported,
      keyPoints: [
        { name: `pressed ${ctx.state.target} times`, met: pressed, detail: `pressed ${ctx.state.count} times` },
        { name: 'reported the count', met: reported },
      ],
    };
  },
  oracle(ctx): Agent {
    return {
      name: 'oracle',
      reset() {},
      async act(obs) {
        const count = Number(obs.elements.find((e) => e.name.startsWith('Count:'))?.name.split(':')[1] ?? NaN);
        if (count >= ctx.state.target) return { thought: 'Target reached.', action: `send_msg_to_user('${count}')` };
        const button = obs.elements.find((e) => e.role === 'button' && e.name === 'Add one');
        if (!button) return { action: 'noop(100)' };
        return { thought: `Count is ${count}; press again.`, action: `click('${button.id}')` };
      },
    };
  },
};
