/**
 * The noisy expert's injected mistakes, written as labels on their steps: `detour` for a detour,
 * `wrong` for the rest, each with a comment naming what the expert meant to do. A dataset leaves a
 * labelled step out of its samples (../datasets/samples.ts) but keeps the steps after it, so an
 * episode with a mistake teaches the recovery (the page after a wrong click, then the right action;
 * a detour's way back) without teaching the mistake.
 */
import { LabelStore } from '../store/labels.ts';
import type { InjectedMistake } from '../agents/noisy-expert.ts';

export function labelInjectedMistakes(labDir: string, episodeId: string, mistakes: readonly InjectedMistake[]): void {
  if (!mistakes.length) return;
  const labels = new LabelStore(labDir);
  for (const m of mistakes) {
    labels.append(episodeId, { type: 'step', step: m.step, label: m.kind === 'detour' ? 'detour' : 'wrong' });
    labels.append(episodeId, { type: 'comment', step: m.step, text: `injected mistake (${m.kind}); the expert meant: ${m.intended}` });
  }
}
