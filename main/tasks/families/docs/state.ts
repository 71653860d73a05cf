/** A docs instance's state: the library, the site's wording and look, what visitors did, and the goal. */
import type { InstanceContext } from '../../types.ts';
import type { Library } from './library.ts';
import type { Look, Wording } from './wording.ts';

export interface Issue {
  code: string;
  /** Page key (site-map.ts) the issue is about. */
  page: string;
  version: number;
  title: string;
  description: string;
}

export type FactAsk = 'default' | 'type' | 'since';

export type DocsGoal =
  /** A value read off a function's page in one version (tier 1: the latest; tier 2: an older one). */
  | { kind: 'fact'; fn: string; ask: FactAsk; param?: string; version: number; answer: string; wrong?: string }
  /** Which guide names a function in a version, found by search with the guides filter. */
  | { kind: 'guide-search'; fn: string; version: number; answer: string; wrong?: string }
  /** "Was this page helpful?" answered on one page. */
  | { kind: 'helpful'; page: string; helpful: boolean }
  /** An issue reported about one page, with a given title and description. */
  | { kind: 'report'; page: string; title: string; description: string }
  /** Which of two functions the changelog lists first; then an issue on the other's page giving its parameter count. */
  | { kind: 'compare-report'; fns: [string, string]; earlier: string; later: string; count: number; title: string };

export interface DocsState {
  siteName: string;
  lib: Library;
  ui: Wording;
  look: Look;
  /** Look-alike functions and guides added around the goal (ids and slugs). */
  decoys: string[];
  /** Votes of "Was this page helpful?", by page key; answering again replaces a vote. */
  feedback: Record<string, 'yes' | 'no'>;
  issues: Issue[];
  goal: DocsGoal;
}

export type Ctx = InstanceContext<DocsState>;
