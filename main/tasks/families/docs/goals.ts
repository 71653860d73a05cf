/**
 * The task of a seed and tier, and its instruction, worded several ways. Tier 1 reads one value off
 * one page, or rates a page; tier 2 needs the version selector, the search's section filter, or the
 * report form; tier 3 compares two functions in the changelog and reports an issue on the later one.
 */
import { Rng, mixSeed } from '../../../common/rng.ts';
import type { GoalKind, Tier } from '../../types.ts';
import { compareVersions, existsIn, generateLibrary, majorOf, paramsIn, type ApiFunction, type Library } from './library.ts';
import { addDecoys, type Focus } from './decoys.ts';
import { literalAnswer, typeName } from './render.ts';
import { sameLiteral } from './params.ts';
import { pickPresentation } from './wording.ts';
import { apiKey, guideKey } from './site-map.ts';
import type { DocsGoal, DocsState } from './state.ts';

// Every answer task of the built-in sites asks to be told "in a message" (test/tasks/generation.test.ts).
const ENDINGS = [' Tell me in a message.', ' Tell me the answer in a message.', ' Please tell me what it is in a message.', ' Tell me the value in a message.'];
const SITE_WORDS = ['Docs', 'Documentation', 'Handbook', 'Reference', 'Manual'];

type Phrase = (c: (x: string) => string) => string;
interface Picked {
  goal: DocsGoal;
  focus: Focus;
  phrase: Phrase;
}

const base = (lib: Library) => lib.functions.filter((f) => !f.decoy);
const vlabel = (major: number) => `v${major}.x`;

export function generateDocsTask(seed: number, tier: Tier): { state: DocsState; instruction: string; goalKind: GoalKind } {
  const lib = generateLibrary(seed);
  const { ui, look } = pickPresentation(new Rng(mixSeed(seed, 'docs-look')));
  const siteName = `${lib.name} ${new Rng(mixSeed(seed, 'docs-name')).pick(SITE_WORDS)}`;
  const rng = new Rng(mixSeed(seed, 'docs-task', tier));
  const picked = tier === 1 ? pickTier1(rng, lib) : tier === 2 ? pickTier2(rng, lib) : pickTier3(rng, lib);
  const decoys = addDecoys(new Rng(mixSeed(seed, 'docs-decoys', tier)), lib, picked.focus, { guideMentions: picked.goal.kind === 'guide-search' });
  const ticks = rng.chance(0.5);
  const text = picked.phrase((x) => (ticks ? `\`${x}\`` : x));
  const answer = picked.goal.kind === 'fact' || picked.goal.kind === 'guide-search';
  const state: DocsState = { siteName, lib, ui, look, decoys, feedback: {}, issues: [], goal: picked.goal };
  return { state, instruction: answer ? text + rng.pick(ENDINGS) : text, goalKind: answer ? 'answer' : 'state' };
}

function pickFact(rng: Rng, lib: Library): Picked {
  const fn = rng.pick(base(lib).filter((f) => existsIn(f, lib.latest)));
  const params = paramsIn(fn, lib.latest)!;
  const withDefault = params.filter((p) => p.default);
  const ask = rng.pick([...(withDefault.length ? (['default', 'default', 'default'] as const) : []), 'type', 'since'] as const);
  const focus = { functions: [fn.id], guides: [] };
  if (ask === 'since') {
    const goal: DocsGoal = { kind: 'fact', fn: fn.id, ask, version: lib.latest, answer: fn.since };
    return { goal, focus, phrase: (c) => rng.pick([`Since which version is ${c(fn.id)} available?`, `In which release was ${c(fn.id)} added?`, `Which version of ${lib.name} introduced ${c(fn.id)}?`, `${c(fn.id)}: since which release does it exist?`]) };
  }
  const p = rng.pick(ask === 'default' ? withDefault : params);
  if (ask === 'type') {
    const goal: DocsGoal = { kind: 'fact', fn: fn.id, ask, param: p.name, version: lib.latest, answer: typeName(p.type, lib.style) };
    return { goal, focus, phrase: (c) => rng.pick([`What type is the ${c(p.name)} parameter of ${c(fn.id)}?`, `Which type does ${c(fn.id)} expect for ${c(p.name)}?`, `${c(fn.id)} takes a ${c(p.name)} argument: of what type is it?`]) };
  }
  const goal: DocsGoal = { kind: 'fact', fn: fn.id, ask, param: p.name, version: lib.latest, answer: literalAnswer(p.default!, lib.style) };
  const word = rng.pick(['parameter', 'argument', 'option']);
  return {
    goal,
    focus,
    phrase: (c) =>
      rng.pick([
        `What is the default value of the ${c(p.name)} ${word} of ${c(fn.id)}?`,
        `In the ${lib.name} docs, what does ${c(p.name)} default to in ${c(fn.id)}?`,
        `${c(fn.id)}: what is the default of its ${c(p.name)} ${word}?`,
        `If ${c(fn.id)} is called without ${c(p.name)}, which value does ${c(p.name)} take?`,
        `Look up ${c(fn.id)} in the API reference and find the default of ${c(p.name)}.`,
        `Which default value do the docs give for ${c(p.name)} in ${c(fn.id)}?`,
      ]),
  };
}

/** A page to rate or report: a guide or a function's page, named the ways people name them. */
function pickPage(rng: Rng, lib: Library): { key: string; focus: Focus; describe: Phrase; fn?: ApiFunction } {
  if (rng.chance(0.35)) {
    const g = rng.pick(lib.guides.filter((x) => !x.deprecated));
    return { key: guideKey(g.slug), focus: { functions: [], guides: [g.slug] }, describe: () => rng.pick([`the "${g.title}" guide`, `the guide "${g.title}"`, `the guide titled "${g.title}"`]) };
  }
  const fn = rng.pick(base(lib).filter((f) => existsIn(f, lib.latest)));
  return { key: apiKey(fn.id), fn, focus: { functions: [fn.id], guides: [] }, describe: (c) => rng.pick([`the ${c(fn.id)} page`, `the API page for ${c(fn.id)}`, `the reference page of ${c(fn.id)}`]) };
}

function pickTier1(rng: Rng, lib: Library): Picked {
  if (rng.chance(0.65)) return pickFact(rng, lib);
  const page = pickPage(rng, lib);
  const helpful = rng.chance(0.8);
  const goal: DocsGoal = { kind: 'helpful', page: page.key, helpful };
  const phrase: Phrase = (c) => {
    const where = page.describe(c);
    return helpful
      ? rng.pick([`Mark ${where} as helpful.`, `Answer "yes" to the "was this page helpful?" question on ${where}.`, `Let the docs team know that ${where} was helpful.`, `Rate ${where} as helpful in its feedback form.`])
      : rng.pick([`Mark ${where} as not helpful.`, `Answer "no" to the "was this page helpful?" question on ${where}.`, `Let the docs team know that ${where} did not help.`]);
  };
  return { goal, focus: page.focus, phrase };
}

function pickTier2(rng: Rng, lib: Library): Picked {
  const r = rng.next();
  if (r < 0.4) return pickVersionFact(rng, lib);
  if (r < 0.7) return pickGuideSearch(rng, lib);
  return pickReport(rng, lib);
}

/** A default that an older major documents differently from the latest one. */
function pickVersionFact(rng: Rng, lib: Library): Picked {
  const options: Array<{ fn: ApiFunction; param: string; major: number; then: string; now: string }> = [];
  for (const fn of base(lib)) {
    const latest = paramsIn(fn, lib.latest);
    for (const major of lib.majors.filter((m) => m < lib.latest && existsIn(fn, m))) {
      for (const p of paramsIn(fn, major)!) {
        const now = latest?.find((x) => x.name === p.name);
        if (p.default && now?.default && !sameLiteral(p.default, now.default)) options.push({ fn, param: p.name, major, then: literalAnswer(p.default, lib.style), now: literalAnswer(now.default, lib.style) });
      }
    }
  }
  if (!options.length) return pickGuideSearch(rng, lib);
  const o = rng.pick(options);
  const goal: DocsGoal = { kind: 'fact', fn: o.fn.id, ask: 'default', param: o.param, version: o.major, answer: o.then, wrong: o.now };
  return {
    goal,
    focus: { functions: [o.fn.id], guides: [] },
    phrase: (c) =>
      rng.pick([
        `In ${vlabel(o.major)}, what is the default value of ${c(o.param)} in ${c(o.fn.id)}?`,
        `What did ${c(o.param)} default to in ${c(o.fn.id)} according to the ${vlabel(o.major)} docs?`,
        `According to the ${vlabel(o.major)} documentation, which default does ${c(o.fn.id)} use for ${c(o.param)}?`,
        `The default of ${c(o.param)} in ${c(o.fn.id)} changed at some point. What was it in ${vlabel(o.major)}?`,
        `I am still on ${lib.name} ${vlabel(o.major)}: what is the default of ${c(o.param)} for ${c(o.fn.id)} there?`,
      ]),
  };
}

/** A guide that names a function in some version; the latest names it in another guide, if any, so the version filter matters. */
function pickGuideSearch(rng: Rng, lib: Library): Picked {
  const holder = (id: string, major: number) => lib.guides.find((g) => g.mentions[String(major)]?.includes(id));
  const pairs = base(lib).flatMap((fn) => lib.majors.filter((m) => holder(fn.id, m)).map((major) => ({ fn, major })));
  const older = pairs.filter((p) => p.major < lib.latest && holder(p.fn.id, p.major) !== holder(p.fn.id, lib.latest));
  const latest = pairs.filter((p) => p.major === lib.latest);
  const { fn, major } = rng.pick(older.length && rng.chance(0.5) ? older : latest.length ? latest : pairs);
  const answer = holder(fn.id, major)!.title;
  const now = major === lib.latest ? undefined : holder(fn.id, lib.latest)?.title;
  const goal: DocsGoal = { kind: 'guide-search', fn: fn.id, version: major, answer, ...(now ? { wrong: now } : {}) };
  const inV = major === lib.latest && rng.chance(0.5) ? '' : ` in the ${vlabel(major)} docs`;
  return {
    goal,
    focus: { functions: [fn.id], guides: [] },
    phrase: (c) =>
      rng.pick([
        `Search the guides${inV} for ${c(fn.id)}: which guide mentions it?`,
        `Using the docs search limited to guides${inV}, find which guide mentions ${c(fn.id)}.`,
        `Which guide${inV} talks about ${c(fn.id)}? Use the search with the guides filter.`,
        `Filter a docs search for ${c(fn.id)} down to guides${inV}. Which guide mentions it?`,
      ]) + ' Give its title.',
  };
}

const API_ISSUES: Array<(p: string) => [string, string]> = [
  (p) => [`Unclear description of ${p}`, `The description of ${p} does not say what happens when it is omitted.`],
  () => ['Example does not run', 'The example fails when it is copied into a new project.'],
  () => ['Return value not explained', 'Please explain what the returned object contains.'],
  () => ['Signature and table disagree', 'The signature block and the parameter list show different things.'],
  (p) => [`Default of ${p} looks wrong`, `Please double-check the default listed for ${p}.`],
];
const GUIDE_ISSUES: Array<[string, string]> = [
  ['Outdated step', 'The second step refers to an option that no longer exists.'],
  ['Broken example', 'The example does not run as written.'],
  ['Step missing', 'A step between installing and running is missing.'],
  ['Unclear wording', 'The second paragraph is hard to follow.'],
];

function pickReport(rng: Rng, lib: Library): Picked {
  const page = pickPage(rng, lib);
  const [title, description] = page.fn ? rng.pick(API_ISSUES)(rng.pick(paramsIn(page.fn, lib.latest)!).name) : rng.pick(GUIDE_ISSUES);
  const goal: DocsGoal = { kind: 'report', page: page.key, title, description };
  return {
    goal,
    focus: page.focus,
    phrase: (c) => {
      const where = page.describe(c);
      return rng.pick([
        `Report an issue on ${where} titled "${title}" with the description "${description}"`,
        `File a documentation issue about ${where}. Title: "${title}". Description: "${description}"`,
        `Use the report form to flag a problem with ${where}: title "${title}", description "${description}"`,
      ]);
    },
  };
}

const COUNT_TITLES = ['Parameter count', 'Check the parameter list', 'Parameters need review', 'Please confirm the parameters'];

/** Two functions added in different releases; the later one's parameter list is the same in every version it exists in. */
function pickTier3(rng: Rng, lib: Library): Picked {
  const fns = base(lib).filter((f) => existsIn(f, lib.latest));
  const steady = (f: ApiFunction) => new Set(Object.values(f.params).map((p) => p.length)).size === 1;
  const ordered: Array<[ApiFunction, ApiFunction]> = [];
  for (const a of fns) for (const b of fns) if (compareVersions(a.since, b.since) < 0) ordered.push([a, b]);
  // Only a later function whose count never changed, unless no pair has one (then the latest count is asked).
  const pairs = ordered.some(([, b]) => steady(b)) ? ordered.filter(([, b]) => steady(b)) : ordered;
  const across = pairs.filter(([a, b]) => majorOf(a.since) !== majorOf(b.since));
  const [earlier, later] = rng.pick(across.length && rng.chance(0.7) ? across : pairs);
  const shown: [string, string] = rng.chance(0.5) ? [earlier.id, later.id] : [later.id, earlier.id];
  const count = paramsIn(later, lib.latest)!.length;
  const title = rng.pick(COUNT_TITLES);
  const goal: DocsGoal = { kind: 'compare-report', fns: shown, earlier: earlier.id, later: later.id, count, title };
  const [a, b] = shown;
  return {
    goal,
    focus: { functions: [earlier.id, later.id], guides: [] },
    phrase: (c) =>
      rng.pick([
        `According to the changelog, which was added in an earlier release: ${c(a)} or ${c(b)}? Report a documentation issue on the page of the other one, titled "${title}", whose description says how many parameters that page lists.`,
        `Check the changelog to see whether ${c(a)} or ${c(b)} came first. Then, on the page of the one added later, report an issue titled "${title}" and state in its description the number of parameters it documents.`,
        `Use the changelog to find out which of ${c(a)} and ${c(b)} is newer, and file an issue on the newer function's page with the title "${title}"; its description must give that function's parameter count.`,
      ]),
  };
}
