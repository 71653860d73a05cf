/**
 * Prints the MiniWoB++ tasks of the 56-task set that have a scripted oracle, as `lab collect
 * --tasks` names them (miniwob.<task>, comma-separated): what the training-stage scripts collect.
 *
 *   npx tsx scripts/miniwob-oracle-tasks.ts
 */
import { GUR56_TASKS } from '../main/tasks/miniwob/task-sets.ts';
import { hasMiniwobOracle } from '../main/tasks/miniwob/oracles/index.ts';

process.stdout.write(GUR56_TASKS.filter((t) => hasMiniwobOracle(t)).map((t) => `miniwob.${t}`).join(','));
