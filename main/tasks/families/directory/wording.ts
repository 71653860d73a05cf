/**
 * How tasks are worded: a listing named with its town three ways, fact questions four to five
 * ways each, tier-3 rankings described by their conditions, and the state tasks (contact, save).
 * Every answer task asks to be told "in a message" (test/tasks/generation.test.ts); no state task
 * does.
 */
import type { Rng } from '../../../common/rng.ts';
import { DAY_NAMES } from './hours.ts';
import type { Condition, Superlative } from './plant.ts';
import type { FactAsk } from './data.ts';

const ENDINGS = [' Tell me in a message.', ' Tell me the answer in a message.', ' Please tell me what it is in a message.', ' Tell me in a message what you find.'];

/** "Maplebrook Clinic in Ashford", "Maplebrook Clinic (Ashford)", "the Ashford branch of Maplebrook Clinic". */
export function nameWithTown(rng: Rng, name: string, town: string, hasBranch: boolean): string {
  const forms = [`${name} in ${town}`, `${name} (${town})`];
  if (hasBranch) forms.push(`the ${town} branch of ${name}`);
  return rng.pick(forms);
}

const cap = (s: string) => s[0].toUpperCase() + s.slice(1);

/** A question about listing `x` (already named with its town). */
export function factQuestion(rng: Rng, ask: FactAsk, x: string): string {
  const day = ask.day === undefined ? '' : DAY_NAMES[ask.day];
  const l = ask.label;
  const forms: Record<FactAsk['fact'], string[]> = {
    phone: [`What is the phone number of ${x}?`, `I need to call ${x}. What number should I ring?`, `Find the telephone number listed for ${x}.`, `Which phone number does the directory give for ${x}?`],
    address: [`What is the street address of ${x}?`, `Where exactly is ${x}? I need the street address.`, `Look up ${x} and find its street address.`, `Which street address is listed for ${x}?`],
    contact: [`Who is the contact person at ${x}?`, `Whom should I ask for at ${x}?`, `Find the name of the contact person listed for ${x}.`, `Which person is the contact for ${x}?`],
    opens: [`What time does ${x} open on ${day}s?`, `When does ${x} open on a ${day}?`, `Find the opening time of ${x} on ${day}s.`, `How early is ${x} open on ${day}s?`],
    closes: [`What time does ${x} close on ${day}s?`, `Until what time is ${x} open on ${day}s?`, `Find the closing time of ${x} on ${day}s.`, `When does ${x} shut on a ${day}?`],
    numeric: [`How many ${l} does ${x} list?`, `What number of ${l} is given for ${x}?`, `Look up ${x}: how many ${l} does it have?`, `${cap(x)} lists how many ${l}?`],
  };
  return rng.pick(forms[ask.fact]);
}

export function ending(rng: Rng): string {
  return rng.pick(ENDINGS);
}

/** Where a listing sits, for tasks that are meant to be browsed to. */
export function pathHint(rng: Rng, category: string, sub: string): string {
  return rng.pick([` It is listed under ${category} › ${sub}.`, ` You will find it under ${category}, then ${sub}.`, ` (Directory section: ${category} › ${sub}.)`]);
}

/** "open on Sundays", "listed as Private", "open right now", "rated 4 stars or more". */
function conditionPhrase(c: Condition, townName: (slug: string) => string): string {
  if (c.kind === 'town') return `in ${townName(c.town)}`;
  if (c.kind === 'day') return `open on ${DAY_NAMES[c.day]}s`;
  if (c.kind === 'type') return `listed as ${c.type}`;
  if (c.kind === 'openNow') return 'open right now';
  return `rated ${c.min} stars or more`;
}

const SUPERLATIVE: Record<Superlative, { noun: string[]; one: string[] }> = {
  rating: { noun: ['the highest-rated listing', 'the best-rated place'], one: ['the highest-rated one', 'the one with the best rating'] },
  reviews: { noun: ['the most-reviewed listing', 'the place with the most reviews'], one: ['the most-reviewed one', 'the one with the most reviews'] },
};

/** The closing request of a ranking: "Tell me its phone number in a message." */
function askOfRanked(rng: Rng, ask: FactAsk): string {
  const day = ask.day === undefined ? '' : DAY_NAMES[ask.day];
  if (ask.fact === 'opens') return rng.pick([`Tell me what time it opens on ${day}s in a message.`, `Tell me its opening time on ${day}s in a message.`]);
  if (ask.fact === 'closes') return rng.pick([`Tell me what time it closes on ${day}s in a message.`, `Tell me its closing time on ${day}s in a message.`]);
  if (ask.fact === 'numeric') return rng.pick([`Tell me in a message how many ${ask.label} it has.`, `Tell me how many ${ask.label} it lists, in a message.`]);
  if (ask.fact === 'contact') return rng.pick([`Tell me the name of its contact person in a message.`, `Then tell me in a message who its contact person is.`]);
  return rng.pick([`Tell me its ${ask.label} in a message.`, `Then tell me in a message what its ${ask.label} is.`]);
}

/** Tier 3 on a subcategory's listing: a town, one more condition, a superlative. */
export function rankedListingInstruction(rng: Rng, o: { category: string; sub: string; town: string; condition: Condition; sup: Superlative; ask: FactAsk; townName: (slug: string) => string }): string {
  const c = conditionPhrase(o.condition, o.townName);
  const noun = rng.pick(SUPERLATIVE[o.sup].noun);
  const one = rng.pick(SUPERLATIVE[o.sup].one);
  const lead = rng.pick([
    `Go to ${o.category} › ${o.sub} and find ${noun} in ${o.town} that is ${c}.`,
    `Of the ${o.sub} listings in ${o.town} that are ${c} (under ${o.category}), pick ${one}.`,
    `I want ${noun} in ${o.town} that is ${c}; look under ${o.category}, then ${o.sub}.`,
  ]);
  return `${lead} ${askOfRanked(rng, o.ask)}`;
}

/** Tier 3 by search: every branch shares a name, so two conditions and a superlative pick one. */
export function rankedSearchInstruction(rng: Rng, o: { name: string; conditions: Condition[]; sup: Superlative; ask: FactAsk; townName: (slug: string) => string }): string {
  const [a, b] = o.conditions.map((c) => conditionPhrase(c, o.townName));
  const noun = rng.pick(SUPERLATIVE[o.sup].noun).replace(/listing|place/, 'branch');
  const one = rng.pick(SUPERLATIVE[o.sup].one);
  const lead = rng.pick([
    `${o.name} has branches in several towns. Find ${noun} that is ${a} and ${b}.`,
    `Among the ${o.name} branches that are ${a} and ${b}, find ${one}.`,
    `Search for ${o.name}: of its branches that are ${a} and ${b}, I want ${one}.`,
  ]);
  return `${lead} ${askOfRanked(rng, o.ask)}`;
}

export function contactInstruction(rng: Rng, x: string, topic: string, text: string): string {
  return rng.pick([
    `Send a message to ${x} through its contact form: choose the topic "${topic}" and write "${text}"`,
    `Contact ${x} with the form on its page, topic "${topic}", message: "${text}"`,
    `Use the directory to ask ${x} a question (topic "${topic}"): "${text}"`,
  ]);
}

export function saveInstruction(rng: Rng, x: string, note: string): string {
  return rng.pick([`Save ${x} to your list with the note "${note}".`, `Add ${x} to your saved listings, with the note "${note}".`, `Bookmark ${x} and give it the note "${note}".`]);
}
