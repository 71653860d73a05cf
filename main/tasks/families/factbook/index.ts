/**
 * The factbook family: a registry of invented records whose facts are read off the page and
 * answered by message. A training drill (`drill: true`): it has train and test seeds like any
 * family, but it is not one of the training families that evaluations and recipes default to.
 */
import type { CheckResult, TaskFamily, Tier } from '../../types.ts';
import { answerMatches } from '../../../common/normalize.ts';
import { SEEDS, tierFromSeed } from '../common/seeds.ts';
import { generateFactbookTask, type FactbookState } from './data.ts';
import { FactbookOracle } from './oracle.ts';
import { handleFactbook, type Ctx } from './pages.ts';

export function checkFactbook(ctx: Ctx): CheckResult {
  const { goal, notice } = ctx.state;
  const last = ctx.agentMessages.at(-1);
  const kp = [
    { name: 'answer sent', met: ctx.agentMessages.length > 0 },
    { name: `correct ${goal.label.toLowerCase()}`, met: ctx.agentMessages.some((m) => answerMatches(goal.answer, m)), ...(last ? { detail: last } : {}) },
    ...(notice ? [{ name: 'no newsletter sign-up', met: !notice.joined }] : []),
  ];
  return { success: kp.every((k) => k.met), keyPoints: kp };
}

export const factbookFamily: TaskFamily<FactbookState> = {
  name: 'factbook',
  description: 'A registry of invented records (facts in tables, definition lists, label lines or columns; item tables), reached by link or search; questions answered by message. A reading drill for training.',
  drill: true,
  seeds: { train: { ...SEEDS.train }, test: { ...SEEDS.test } },
  generate(seed: number, tier?: Tier) {
    const t = tier ?? tierFromSeed(seed, 'factbook');
    const { state, instruction } = generateFactbookTask(seed, t);
    return { instruction, state, goalKind: 'answer', startPath: '/', tier: t };
  },
  handle: handleFactbook,
  check: checkFactbook,
  oracle: (ctx) => new FactbookOracle(ctx),
};
