/**
 * Distractors: pages that look like the one a task names but are not it. A namesake in another
 * module (cache.fetch beside net.fetch), a look-alike in the same module (net.fetch_all), a
 * deprecated twin (net.legacy_fetch), a legacy copy of a guide. Each copies the parameter names
 * of the real page with other defaults, so reading the wrong page gives a wrong answer.
 */
import type { Rng } from '../../../common/rng.ts';
import { identifier, LEGACY_AFFIXES, NEAR_SUFFIXES } from './vocabulary.ts';
import { otherDefault } from './params.ts';
import { existsIn, guideBody, paramsIn, slugOf, type ApiFunction, type Library } from './library.ts';

export type DecoyKind = 'namesake' | 'near' | 'legacy';

/** What a task is about: functions by id and guides by slug, for which look-alikes are made. */
export interface Focus {
  functions: string[];
  guides: string[];
}

/** Adds 1-3 distractors around the focus (fewer when none fits); returns what was added, by id or slug. */
export function addDecoys(rng: Rng, lib: Library, focus: Focus, options: { guideMentions: boolean }): string[] {
  const plans: Array<() => string | null> = [];
  for (const id of focus.functions) {
    const fn = lib.functions.find((f) => f.id === id)!;
    for (const kind of ['namesake', 'near', 'legacy'] as const) plans.push(() => addFunctionDecoy(rng, lib, fn, kind, options.guideMentions));
  }
  for (const slug of focus.guides) plans.push(() => addGuideDecoy(rng, lib, slug));
  const want = rng.int(1, 3);
  const added: string[] = [];
  for (const plan of rng.shuffle(plans)) {
    if (added.length >= want) break;
    const id = plan();
    if (id) added.push(id);
  }
  return added;
}

function lookAlikeName(rng: Rng, lib: Library, fn: ApiFunction, kind: DecoyKind): { module: string; words: string[] } | null {
  const free = (module: string, words: string[]) => !lib.functions.some((f) => f.module === module && f.name === identifier(words, lib.style));
  if (kind === 'namesake') {
    const modules = lib.modules.filter((m) => m !== fn.module && free(m, fn.words));
    return modules.length ? { module: rng.pick(modules), words: fn.words } : null;
  }
  const affix = rng.pick(kind === 'near' ? NEAR_SUFFIXES : LEGACY_AFFIXES);
  const words = kind === 'near' || rng.chance(0.5) ? [...fn.words, affix] : [affix, ...fn.words];
  return free(fn.module, words) ? { module: fn.module, words } : null;
}

function addFunctionDecoy(rng: Rng, lib: Library, fn: ApiFunction, kind: DecoyKind, guideMentions: boolean): string | null {
  const name = lookAlikeName(rng, lib, fn, kind);
  if (!name) return null;
  const firstIndex = (major: number) => lib.releases.findIndex((r) => r.major === major);
  // A legacy twin exists from the first release and is deprecated once its replacement exists,
  // in 2.0 at the earliest; other look-alikes arrive in any release.
  const sinceIndex = kind === 'legacy' ? 0 : rng.below(lib.releases.length);
  const deprecatedIndex = Math.max(lib.releases.findIndex((r) => r.version === fn.since), firstIndex(2));
  const params = paramsIn(fn, lib.latest)!.map(({ since: _since, ...p }) => ({ ...p, default: p.default && (otherDefault(rng, p.words, p.default) ?? p.default) }));
  const since = lib.releases[sinceIndex];
  const id = `${name.module}.${identifier(name.words, lib.style)}`;
  const decoy: ApiFunction = {
    id,
    module: name.module,
    name: identifier(name.words, lib.style),
    words: name.words,
    summary: fn.summary,
    returns: fn.returns,
    since: since.version,
    params: Object.fromEntries(lib.majors.filter((m) => m >= since.major).map((m) => [String(m), params.map((p) => ({ ...p }))])),
    decoy: kind,
  };
  if (kind === 'legacy') {
    const at = lib.releases[deprecatedIndex];
    decoy.deprecated = { since: at.version, use: fn.id };
    at.changes.push({ kind: 'deprecated', fn: id, use: fn.id });
  }
  // Listed among the release's other additions, not after them, so its place gives nothing away.
  const additions = since.changes.findIndex((c) => c.kind !== 'added');
  since.changes.splice(rng.int(0, additions < 0 ? since.changes.length : additions), 0, { kind: 'added', fn: id });
  lib.functions.push(decoy);
  // A guide search for the real function also finds the look-alike, in another guide.
  if (guideMentions) {
    for (const m of lib.majors.filter((x) => existsIn(decoy, x))) {
      const key = String(m);
      const holder = lib.guides.find((g) => g.mentions[key]?.includes(fn.id));
      const others = lib.guides.filter((g) => g !== holder && !g.deprecated);
      if (!others.length) continue;
      const g = rng.pick(others);
      g.mentions[key].push(id);
      g.body[key] = guideBody(rng, g.mentions[key]);
    }
  }
  return id;
}

function addGuideDecoy(rng: Rng, lib: Library, slug: string): string | null {
  const real = lib.guides.find((g) => g.slug === slug)!;
  const title = `${real.title} (legacy)`;
  if (lib.guides.some((g) => g.title === title)) return null;
  const body = Object.fromEntries(lib.majors.map((m) => [String(m), guideBody(rng, [])]));
  const copy = { slug: slugOf(title), title, intro: `This page covers ${real.title.toLowerCase()} as it worked before ${lib.latest}.0. It is no longer maintained.`, body, mentions: Object.fromEntries(lib.majors.map((m) => [String(m), []])), deprecated: true };
  lib.guides.splice(rng.int(0, lib.guides.length), 0, copy);
  return copy.slug;
}
