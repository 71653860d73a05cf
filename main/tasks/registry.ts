/** The built-in task families, by name. */
import type { TaskFamily } from './types.ts';

const families: TaskFamily[] = [];

export function builtinFamilies(): Map<string, TaskFamily> {
  return new Map(families.map((f) => [f.name, f]));
}
