/**
 * Mined states split by task instance into training states (Salvage-DS learns from them) and
 * held-out states (the state yardstick judges on them, `lab bench states`). By instance, not by
 * state: two states of one instance share a page and its answer, so a held-out state must come
 * from an instance the RL never saw. The split is a hash of the instance, the same in every
 * process and for every share: a larger share only moves more instances to the held-out side.
 */
import { createHash } from 'node:crypto';

export type StateSide = 'train' | 'heldout';

/** Where an instance (family, seed, tier) falls when `heldoutShare` of instances are held out. */
export function instanceSide(task: { family: string; seed: number; tier: number }, heldoutShare: number): StateSide {
  if (!(heldoutShare >= 0 && heldoutShare < 1)) throw new Error(`held-out share must be in [0, 1), got ${heldoutShare}`);
  const h = createHash('sha256').update(`state-split:${task.family}:${task.seed}:${task.tier}`).digest();
  return h.readUInt32BE(0) / 2 ** 32 < heldoutShare ? 'heldout' : 'train';
}
