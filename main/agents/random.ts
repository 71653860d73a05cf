// placeholder replaced by the sites branch
import type { Agent } from './types.ts';
export function randomAgent(seed: number): Agent {
  let s = seed >>> 0;
  const rnd = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  return {
    name: 'random',
    reset() {},
    async act(obs) {
      const els = obs.elements.filter((e) => e.visible && e.role !== 'text');
      if (!els.length) return { action: 'scroll(0, 300)' };
      const e = els[Math.floor(rnd() * els.length)];
      return { action: `click('${e.id}')` };
    },
  };
}
