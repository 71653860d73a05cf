/**
 * A tiny task family whose page talks: it logs to the console as it loads and when its button is
 * pressed, and the button fetches a JSON count from the site (a real request the step records).
 * "Press Load twice, then report the count." Used to test the per-step console and network record.
 */
import type { Agent } from '../../main/tasks/agent.ts';
import type { TaskFamily } from '../../main/tasks/types.ts';

interface ChattyState {
  loads: number;
}

export const chattyFamily: TaskFamily<ChattyState> = {
  name: 'chatty',
  description: 'Test fixture: a page that logs to the console and fetches a count',
  seeds: { train: { from: 0, to: 100 }, test: { from: 100, to: 200 } },
  generate(_seed, tier) {
    return { instruction: 'Press "Load" twice, then report the count.', state: { loads: 0 }, goalKind: 'answer', startPath: '/', tier: tier ?? 1 };
  },
  handle(req, ctx) {
    if (req.path === '/api/count') {
      ctx.state.loads++;
      return { kind: 'json', body: { count: ctx.state.loads } };
    }
    if (req.path === '/') {
      // The markup the page writes to the console must reach the viewer as text, never as markup.
      return {
        kind: 'html',
        body: `<!doctype html><title>Chatty</title><h1>Chatty</h1><p id="out">Count: 0</p><button id="load">Load</button>
          <script>
            console.log('chatty page ready', 1);
            document.getElementById('load').addEventListener('click', async () => {
              console.warn('loading the count <b>now</b>');
              const r = await fetch('${ctx.baseUrl}/api/count');
              const { count } = await r.json();
              document.getElementById('out').textContent = 'Count: ' + count;
              console.error('count is', count);
            });
          </script>`,
      };
    }
    return { kind: 'not_found' };
  },
  check(ctx) {
    const reported = ctx.agentMessages.some((m) => m.trim() === String(ctx.state.loads));
    return { success: ctx.state.loads === 2 && reported, keyPoints: [{ name: 'loaded twice', met: ctx.state.loads === 2 }, { name: 'reported the count', met: reported }] };
  },
  oracle(ctx): Agent {
    return {
      name: 'oracle',
      reset() {},
      async act(obs) {
        const count = Number(obs.elements.find((e) => e.name.startsWith('Count:'))?.name.split(':')[1] ?? NaN);
        if (ctx.state.loads >= 2 && count === ctx.state.loads) return { thought: 'Loaded twice.', action: `send_msg_to_user('${count}')` };
        const button = obs.elements.find((e) => e.role === 'button' && e.name === 'Load');
        if (!button) return { action: 'noop(100)' };
        return { thought: `Count is ${count}; load again.`, action: `click('${button.id}')` };
      },
    };
  },
};
