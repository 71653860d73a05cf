/** The built-in task families, by name. */
import type { TaskFamily } from './types.ts';
import { flightsFamily } from './families/flights/index.ts';
import { shopFamily } from './families/shop/index.ts';
import { webmailFamily } from './families/webmail/index.ts';
import { hotelsFamily } from './families/hotels/index.ts';

const families: TaskFamily[] = [shopFamily, flightsFamily, webmailFamily, hotelsFamily];

export function builtinFamilies(): Map<string, TaskFamily> {
  return new Map(families.map((f) => [f.name, f]));
}
