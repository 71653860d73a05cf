/** The settings family: an account settings area whose wording, order, navigation and look-alike sections change with every seed. */
import type { TaskFamily, Tier } from '../../types.ts';
import { SEEDS, tierFromSeed } from '../common/seeds.ts';
import { checkSettings } from './check.ts';
import type { SettingsState } from './data.ts';
import { handleSettings } from './handlers.ts';
import { SettingsOracle } from './oracle.ts';
import { generateSettingsTask } from './task.ts';

export const settingsFamily: TaskFamily<SettingsState> = {
  name: 'settings',
  description:
    'Account settings: profile, security (password, two-factor, signed-in devices), notification grid and digest, privacy (visibility, blocked people, data export) and billing; labels, order, navigation and look-alike sections vary by seed.',
  seeds: { train: { ...SEEDS.train }, test: { ...SEEDS.test } },
  generate(seed: number, tier?: Tier) {
    const t = tier ?? tierFromSeed(seed, 'settings');
    const { state, instruction, goalKind } = generateSettingsTask(seed, t);
    return { instruction, state, goalKind, startPath: '/', tier: t };
  },
  handle: handleSettings,
  check: checkSettings,
  oracle: (ctx) => new SettingsOracle(ctx),
};
