/**
 * The invented library a docs site documents: modules of functions with parameters, a release
 * history (defaults that change, parameters that arrive later), and guides that mention functions.
 * Everything is drawn from the seed. Each major version (v1.x, v2.x, ...) documents the state of
 * its last release, so a default changed in 2.0 reads one way under v1.x and another under v2.x.
 */
import { Rng, mixSeed } from '../../../common/rng.ts';
import { addDays, iso } from '../common/dates.ts';
import { GUIDE_FILLER, GUIDE_TITLES, MODULES, NOUNS, RETURNS, SUMMARIES, VERBS, identifier, inventedWord, type Style } from './vocabulary.ts';
import { OPTIONAL, REQUIRED, otherDefault, type Literal, type Param } from './params.ts';

export interface Release {
  /** "2.1" */
  version: string;
  major: number;
  minor: number;
  date: string;
  changes: Change[];
}

export type Change =
  | { kind: 'added'; fn: string }
  | { kind: 'default'; fn: string; param: string; from: Literal; to: Literal }
  | { kind: 'param'; fn: string; param: string }
  | { kind: 'deprecated'; fn: string; use: string }
  | { kind: 'fixed'; fn: string; what: string };

export interface ApiFunction {
  /** Qualified name as printed: "net.fetch_stream" or "net.fetchStream". */
  id: string;
  module: string;
  name: string;
  /** The words of the name, for making look-alikes. */
  words: string[];
  summary: string;
  returns: string;
  /** The release that added it. */
  since: string;
  deprecated?: { since: string; use: string };
  /** Parameters as each major version documents them, keyed by major ("1", "2"); absent where it does not exist. */
  params: Record<string, Param[]>;
  /** Set on look-alikes added to be mistaken for a function the task names (decoys.ts). */
  decoy?: 'namesake' | 'near' | 'legacy';
}

/** A run of guide text, optionally naming a function (printed as code). */
export interface Sentence {
  before: string;
  fn?: string;
  after?: string;
}

export interface Guide {
  slug: string;
  title: string;
  intro: string;
  /** Body per major version. */
  body: Record<string, Sentence[]>;
  /** Functions the body names, per major version (each function in at most one guide per version). */
  mentions: Record<string, string[]>;
  deprecated?: boolean;
}

export interface Library {
  name: string;
  style: Style;
  majors: number[];
  latest: number;
  modules: string[];
  functions: ApiFunction[];
  releases: Release[];
  guides: Guide[];
}

const FIXES = ['a crash on empty input', 'a memory leak in long sessions', 'wrong results for very large inputs', 'a misleading error message', 'slow start-up on first use', 'a race when called from two threads'];
const MENTIONS = [
  (fn: string): Sentence => ({ before: 'Use ', fn, after: ' for this step.' }),
  (fn: string): Sentence => ({ before: 'The next example calls ', fn, after: ' with its defaults.' }),
  (fn: string): Sentence => ({ before: '', fn, after: ' is the usual way to do this.' }),
  (fn: string): Sentence => ({ before: 'See ', fn, after: ' in the API reference for every option.' }),
];

export const compareVersions = (a: string, b: string): number => {
  const [am, an] = a.split('.').map(Number);
  const [bm, bn] = b.split('.').map(Number);
  return am - bm || an - bn;
};

export const majorOf = (version: string): number => Number(version.split('.')[0]);

/** The parameters a major version documents for a function, or undefined where it does not exist. */
export function paramsIn(fn: ApiFunction, major: number): Param[] | undefined {
  return fn.params[String(major)];
}

export function existsIn(fn: ApiFunction, major: number): boolean {
  return paramsIn(fn, major) !== undefined;
}

export function slugOf(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

function makeParam(words: string[], style: Style, type: Param['type'], def: Literal | null, description: string): Param {
  return { words, name: identifier(words, style), type, default: def, description };
}

/** A base parameter list: 1-2 required, then 1-4 with defaults. */
export function makeParams(rng: Rng, style: Style): Param[] {
  const required = rng.sample(REQUIRED, rng.int(1, 2)).map((k) => makeParam(k.words, style, k.type, null, k.description));
  const optional = rng.sample(OPTIONAL, rng.int(1, 4)).map((k) => makeParam(k.words, style, k.type, rng.pick(k.pool), k.description));
  return [...required, ...optional];
}

interface Event {
  release: number;
  apply: (params: Param[]) => Param[];
}

/** Snapshots a function's parameters at the last release of each major it exists in. */
export function snapshotParams(base: Param[], sinceIndex: number, events: Event[], releases: Release[], majors: number[]): Record<string, Param[]> {
  const out: Record<string, Param[]> = {};
  for (const m of majors) {
    const last = releases.map((r, i) => (r.major === m ? i : -1)).filter((i) => i >= 0).at(-1)!;
    if (last < sinceIndex) continue;
    let params = base.map((p) => ({ ...p }));
    for (const e of [...events].sort((a, b) => a.release - b.release)) if (e.release <= last) params = e.apply(params);
    out[String(m)] = params;
  }
  return out;
}

export function generateLibrary(seed: number): Library {
  const rng = new Rng(mixSeed(seed, 'docs-library'));
  const name = inventedWord(rng, rng.int(2, 3));
  const style: Style = rng.chance(0.5) ? 'python' : 'typescript';
  const latest = rng.chance(0.6) ? 2 : 3;
  const majors = Array.from({ length: latest }, (_, i) => i + 1);

  const releases: Release[] = [];
  let date = iso(2019 + rng.int(0, 2), rng.int(1, 12), rng.int(1, 28));
  for (const major of majors) {
    const minors = rng.int(2, 4);
    for (let minor = 0; minor < minors; minor++) {
      releases.push({ version: `${major}.${minor}`, major, minor, date, changes: [] });
      date = addDays(date, rng.int(40, 160));
    }
  }
  const firstOfMajor = (m: number) => releases.findIndex((r) => r.major === m);

  const modules = rng.sample(MODULES, rng.int(3, 4));
  const taken = new Set<string>();
  const drafts: Array<{ fn: Omit<ApiFunction, 'params'>; base: Param[]; sinceIndex: number; events: Event[] }> = [];
  for (const module of modules) {
    const count = rng.int(3, 4);
    for (let i = 0; i < count; i++) {
      let words: string[];
      do words = rng.chance(0.35) ? [rng.pick(VERBS)] : [rng.pick(VERBS), rng.pick(NOUNS)];
      while (taken.has(words.join(' ')));
      taken.add(words.join(' '));
      const fname = identifier(words, style);
      // Each module has a function since 1.0, so every module exists in every version.
      const sinceIndex = i === 0 ? 0 : rng.below(releases.length);
      const noun = words[1] ?? rng.pick(NOUNS);
      drafts.push({
        fn: { id: `${module}.${fname}`, module, name: fname, words, summary: SUMMARIES[words[0]].replace('{noun}', `a ${noun}`), returns: rng.pick(RETURNS), since: releases[sinceIndex].version },
        base: makeParams(rng, style),
        sinceIndex,
        events: [],
      });
    }
  }

  // At least two releases add functions, so "which was added first" always has pairs to ask about.
  if (drafts.every((d) => d.sinceIndex === 0)) {
    const last = drafts.at(-1)!;
    last.sinceIndex = releases.length - 1;
    last.fn.since = releases[last.sinceIndex].version;
  }

  // Later majors change some defaults and add some parameters; the changelog records each.
  const changeDefault = (d: (typeof drafts)[number], at: number): boolean => {
    const candidates = d.base.filter((p) => p.default && otherDefault(rng, p.words, p.default));
    if (!candidates.length) return false;
    const p = rng.pick(candidates);
    const before = snapshotParams(d.base, d.sinceIndex, d.events, releases, majors);
    const current = Object.values(before).at(-1)?.find((x) => x.name === p.name)?.default ?? p.default;
    const to = otherDefault(rng, p.words, current);
    if (!to || d.events.some((e) => e.release === at)) return false;
    d.events.push({ release: at, apply: (ps) => ps.map((x) => (x.name === p.name ? { ...x, default: to } : x)) });
    releases[at].changes.push({ kind: 'default', fn: d.fn.id, param: p.name, from: current!, to });
    return true;
  };
  for (const major of majors.slice(1)) {
    const at = firstOfMajor(major);
    let changed = 0;
    for (const d of drafts) if (d.sinceIndex < at && rng.chance(0.4) && changeDefault(d, at)) changed++;
    // Every later major changes at least one default, so a version question always has an answer.
    for (const d of rng.shuffle(drafts)) if (!changed && d.sinceIndex < at && changeDefault(d, at)) changed++;
  }
  for (const d of drafts) {
    if (!rng.chance(0.25) || d.sinceIndex >= releases.length - 1) continue;
    const at = rng.int(d.sinceIndex + 1, releases.length - 1);
    const kind = rng.pick(OPTIONAL.filter((k) => !d.base.some((p) => p.words.join(' ') === k.words.join(' '))));
    const added = { ...makeParam(kind.words, style, kind.type, rng.pick(kind.pool), kind.description), since: releases[at].version };
    d.events.push({ release: at, apply: (ps) => [...ps, added] });
    releases[at].changes.push({ kind: 'param', fn: d.fn.id, param: added.name });
  }

  const functions: ApiFunction[] = drafts.map((d) => ({ ...d.fn, params: snapshotParams(d.base, d.sinceIndex, d.events, releases, majors) }));
  for (const d of drafts) releases[d.sinceIndex].changes.unshift({ kind: 'added', fn: d.fn.id });
  for (const [i, r] of releases.entries()) {
    const alive = drafts.filter((d) => d.sinceIndex <= i);
    const fixes = r.changes.length ? rng.int(0, 1) : rng.int(1, 2);
    for (let k = 0; k < fixes; k++) r.changes.push({ kind: 'fixed', fn: rng.pick(alive).fn.id, what: rng.pick(FIXES) });
  }

  return { name, style, majors, latest, modules, functions, releases, guides: makeGuides(rng, functions, majors) };
}

/** 3-5 guides; in each version about two functions per guide are named, each by one guide at most. */
function makeGuides(rng: Rng, functions: ApiFunction[], majors: number[]): Guide[] {
  const titles = rng.sample(GUIDE_TITLES, rng.int(3, 5));
  const guides: Guide[] = titles.map((title) => ({ slug: slugOf(title), title, intro: `This guide covers ${title.toLowerCase()} with ${rng.pick(['short', 'complete', 'runnable'])} examples.`, body: {}, mentions: {} }));
  for (const m of majors) {
    for (const g of guides) g.mentions[String(m)] = [];
    const alive = rng.shuffle(functions.filter((f) => existsIn(f, m)));
    for (const fn of alive.slice(0, guides.length * 2)) rng.pick(guides).mentions[String(m)].push(fn.id);
    for (const g of guides) g.body[String(m)] = guideBody(rng, g.mentions[String(m)]);
  }
  return guides;
}

export function guideBody(rng: Rng, mentions: readonly string[]): Sentence[] {
  const out: Sentence[] = rng.sample(GUIDE_FILLER, 2).map((before) => ({ before }));
  for (const fn of mentions) out.splice(rng.int(1, out.length), 0, rng.pick(MENTIONS)(fn));
  return out;
}
