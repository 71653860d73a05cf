/**
 * Pages of a docs site and where they live. A page has a key ("api:net.fetch", "guide:caching-results",
 * "module:net", "changelog", "home") and a path per major version ("/v2/api/net/fetch"), so the
 * version selector can keep a reader on the same page when it exists in the other version.
 */
import { existsIn, type ApiFunction } from './library.ts';
import type { DocsState } from './state.ts';

export type PageKey = string;

export const apiKey = (fnId: string): PageKey => `api:${fnId}`;
export const guideKey = (slug: string): PageKey => `guide:${slug}`;
export const moduleKey = (module: string): PageKey => `module:${module}`;

export function findFunction(s: DocsState, id: string): ApiFunction | undefined {
  return s.lib.functions.find((f) => f.id === id);
}

export function pagePath(s: DocsState, key: PageKey, major: number): string {
  const v = `/v${major}`;
  if (key === 'changelog') return `${v}/changelog`;
  if (key.startsWith('guide:')) return `${v}/guide/${key.slice(6)}`;
  if (key.startsWith('module:')) return `${v}/api/${key.slice(7)}`;
  if (key.startsWith('api:')) {
    const fn = findFunction(s, key.slice(4));
    if (fn) return `${v}/api/${fn.module}/${fn.name}`;
  }
  return `${v}/`;
}

/** The version and page key of a versioned path, or null for any other path. */
export function parsePagePath(s: DocsState, path: string): { major: number; key: PageKey } | null {
  const m = path.match(/^\/v(\d+)(\/.*)?$/);
  if (!m || !s.lib.majors.includes(Number(m[1]))) return null;
  const major = Number(m[1]);
  const rest = (m[2] ?? '/').replace(/\/+$/, '') || '/';
  if (rest === '/') return { major, key: 'home' };
  if (rest === '/changelog') return { major, key: 'changelog' };
  const g = rest.match(/^\/guide\/([a-z0-9-]+)$/);
  if (g && s.lib.guides.some((x) => x.slug === g[1])) return { major, key: guideKey(g[1]) };
  const mod = rest.match(/^\/api\/([a-z]+)$/);
  if (mod && s.lib.modules.includes(mod[1])) return { major, key: moduleKey(mod[1]) };
  const fn = rest.match(/^\/api\/([a-z]+)\/([A-Za-z0-9_]+)$/);
  const hit = fn && s.lib.functions.find((f) => f.module === fn[1] && f.name === fn[2]);
  if (hit) return { major, key: apiKey(hit.id) };
  return null;
}

export function pageExists(s: DocsState, key: PageKey, major: number): boolean {
  if (!s.lib.majors.includes(major)) return false;
  if (key.startsWith('api:')) {
    const fn = findFunction(s, key.slice(4));
    return !!fn && existsIn(fn, major);
  }
  if (key.startsWith('module:')) return s.lib.modules.includes(key.slice(7));
  if (key.startsWith('guide:')) return s.lib.guides.some((g) => g.slug === key.slice(6));
  return key === 'changelog' || key === 'home';
}

/** How a page is named in the report form's page list and in instructions' page descriptions. */
export function pageTitle(s: DocsState, key: PageKey): string {
  if (key === 'home') return `${s.lib.name} overview`;
  if (key === 'changelog') return s.ui.changelog;
  if (key.startsWith('guide:')) return s.lib.guides.find((g) => g.slug === key.slice(6))?.title ?? key;
  if (key.startsWith('module:')) return `${key.slice(7)} (module)`;
  return key.slice(4);
}

/** Pages a visitor can rate or report, in the order the report form lists them. */
export function reportablePages(s: DocsState): PageKey[] {
  return [
    ...s.lib.guides.map((g) => guideKey(g.slug)),
    ...s.lib.modules.flatMap((m) => [moduleKey(m), ...functionsOf(s, m).map((f) => apiKey(f.id))]),
    'changelog',
  ];
}

/** A module's functions in the order its page lists them (alphabetical, as reference docs sort them). */
export function functionsOf(s: DocsState, module: string, major?: number): ApiFunction[] {
  return s.lib.functions.filter((f) => f.module === module && (major === undefined || existsIn(f, major))).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
