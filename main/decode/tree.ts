/**
 * Draft trees: several candidate continuations verified in one forward pass under a tree attention
 * mask (SpecInfer, Medusa): each drafted token sees the context, the token the tree hangs from
 * (the root row) and its own ancestors only, so its row is exactly the model's prediction after
 * that branch. Verification walks down from the root: the model's own choice at a row is kept, and
 * the walk goes on only where a child of that row drafted the same token. Choosing at each row as
 * plain decoding would (argmax, or a sample from the row's distribution) and descending on a match
 * keeps greedy output equal to AR's and nucleus sampling's distribution unchanged (the
 * match-the-sample rule), whatever the tree holds.
 */
import { MASKED, type KVCache, type Layout, type TransformerLM } from '../models/model.ts';
import { BONUS, EXACT, RESAMPLED, type DecodeStats, type TokenSource } from './types.ts';
import type { Chooser } from './verify.ts';

/**
 * Drafted tokens in preorder (a parent before its children, the first child's branch first), each
 * with its parent's index (-1: a child of the root row) and its depth (0: right after the root).
 */
export interface DraftTree {
  tokens: number[];
  parent: number[];
  depth: number[];
}

export const emptyTree = (): DraftTree => ({ tokens: [], parent: [], depth: [] });

/**
 * A trie of candidate continuations, in the order given (the first one's tokens are nodes 0..n-1,
 * so a tree whose first candidate is accepted keeps a contiguous cache), at most maxNodes nodes.
 */
export function trieOf(continuations: readonly (readonly number[])[], maxNodes = Infinity): DraftTree {
  const tree = emptyTree();
  const children = new Map<number, Map<number, number>>();
  for (const seq of continuations) {
    let at = -1;
    for (const token of seq) {
      const kids = children.get(at) ?? new Map<number, number>();
      children.set(at, kids);
      let node = kids.get(token);
      if (node === undefined) {
        if (tree.tokens.length >= maxNodes) break;
        node = tree.tokens.length;
        tree.tokens.push(token);
        tree.parent.push(at);
        tree.depth.push(at < 0 ? 0 : tree.depth[at] + 1);
        kids.set(token, node);
      }
      at = node;
    }
  }
  return tree;
}

/**
 * A tree from ranked candidates per depth (SAT rows: candidates[d] best first), `widths[d]`
 * children under every node of depth d-1 (Medusa's sparse trees, in their simplest form): widths
 * [3, 2, 1] drafts the top 3 first tokens, the top 2 second tokens under each of them and the top
 * third token under each of those, 3 + 6 + 6 nodes. Preorder, so the all-first-choice branch leads.
 */
export function productTree(candidates: readonly (readonly number[])[], widths: readonly number[]): DraftTree {
  const tree = emptyTree();
  const depthMax = Math.min(candidates.length, widths.length);
  const grow = (parent: number, depth: number) => {
    if (depth >= depthMax) return;
    for (const token of candidates[depth].slice(0, widths[depth])) {
      const node = tree.tokens.length;
      tree.tokens.push(token);
      tree.parent.push(parent);
      tree.depth.push(depth);
      grow(node, depth + 1);
    }
  };
  grow(-1, 0);
  return tree;
}

/**
 * Every root-to-leaf branch of a tree as a token sequence, leading branch first: with trieOf, trees
 * from different drafters merge into one (shared prefixes become shared nodes).
 */
export function branchesOf(tree: DraftTree): number[][] {
  const hasChild = new Set(tree.parent);
  const out: number[][] = [];
  tree.tokens.forEach((_, leaf) => {
    if (hasChild.has(leaf)) return;
    const branch: number[] = [];
    for (let node = leaf; node >= 0; node = tree.parent[node]) branch.unshift(tree.tokens[node]);
    out.push(branch);
  });
  return out;
}

/**
 * The layout of [root, ...tree.tokens] after a cache of `past` entries: the root at position
 * `past`, a node at past + 1 + depth; every row sees the cache, the root, its ancestors and itself,
 * and a node's predecessor (for a copy pointer's keys) is its parent.
 */
export function treeLayout(past: number, tree: DraftTree): Layout {
  const len = 1 + tree.tokens.length;
  const width = past + len;
  const bias = new Float32Array(len * width).fill(MASKED);
  for (let r = 0; r < len; r++) {
    const row = bias.subarray(r * width, (r + 1) * width);
    row.fill(0, 0, past + 1);
    for (let node = r - 1; node >= 0; node = tree.parent[node]) row[past + 1 + node] = 0;
  }
  // Row of each token's predecessor: the root follows the cache; a node its parent (row parent + 1).
  return { pos: [past, ...tree.depth.map((d) => past + 1 + d)], bias, prevRow: [-1, ...tree.parent.map((parent) => parent + 1)] };
}

/**
 * Walk the verified tree: `choose(row, branch)` is the model's token at a row (0: the root; node i:
 * row i + 1) after the branch of drafted tokens above it. Returns the accepted nodes, root to leaf,
 * the token chosen after them, and whether the walk ended at a leaf (every draft on its branch
 * accepted). Counts drafted and accepted tokens per depth into `stats`.
 */
export function walkTree(tree: DraftTree, choose: (row: number, branch: readonly number[]) => number, stats: DecodeStats): { path: number[]; next: number; leaf: boolean } {
  const path: number[] = [];
  const branch: number[] = [];
  let at = -1;
  for (;;) {
    const next = choose(at + 1, branch);
    const kids = childrenOf(tree, at);
    if (kids.length) count(stats.draftedPerPosition, branch.length);
    const match = kids.find((n) => tree.tokens[n] === next);
    if (match === undefined) {
      stats.drafted += kids.length ? 1 : 0;
      stats.accepted += path.length;
      if (tree.tokens.length) stats.verifySteps++;
      return { path, next, leaf: path.length > 0 && kids.length === 0 };
    }
    count(stats.acceptedPerPosition, branch.length);
    stats.drafted++;
    path.push(match);
    branch.push(next);
    at = match;
  }
}

function childrenOf(tree: DraftTree, node: number): number[] {
  const kids: number[] = [];
  for (let i = node + 1; i < tree.parent.length; i++) if (tree.parent[i] === node) kids.push(i);
  return kids;
}

function count(perPosition: number[], position: number): void {
  while (perPosition.length <= position) perPosition.push(0);
  perPosition[position]++;
}

/**
 * After a forward pass over [root, ...tree] the cache holds the root at `past` and every node after
 * it; keep the root and the accepted path only (a contiguous prefix when the path is the leading
 * branch, the common case).
 */
export function keepPath(cache: KVCache, past: number, path: readonly number[]): void {
  if (path.every((node, i) => node === i)) {
    cache.rollback(past + 1 + path.length);
    return;
  }
  cache.keep([...Array.from({ length: past + 1 }, (_, i) => i), ...path.map((node) => past + 1 + node)]);
}

/**
 * One verification of a tree hung from `root` (the token after a cache of length P): a forward pass
 * over [root, ...tree] (a plain one-position step when the tree is empty), the walk, and the cache
 * cut back to the root and the accepted tokens. `emitted`: the output before the first drafted
 * token, for a constraint. Returns the accepted tokens and the token after them.
 */
export function verifyTree(model: TransformerLM, cache: KVCache, root: number, tree: DraftTree, pick: Chooser, emitted: readonly number[], stats: DecodeStats): { accepted: number[]; next: number; source: TokenSource } {
  const P = cache.length;
  stats.forwardPasses++;
  if (!tree.tokens.length) {
    const { logits } = model.forward([[root]], cache, true);
    return { accepted: [], next: pick.choose(logits, 0, emitted), source: EXACT };
  }
  // A tree of one branch is a plain causal block: no mask to build.
  const chain = tree.parent.every((parent, i) => parent === i - 1);
  const { logits } = model.forward([[root, ...tree.tokens]], cache, false, chain ? undefined : treeLayout(P, tree));
  const { path, next, leaf } = walkTree(tree, (row, branch) => pick.choose(logits, row, branch.length ? [...emitted, ...branch] : emitted), stats);
  keepPath(cache, P, path);
  // After a leaf the token is a bonus (every draft on its branch was accepted); elsewhere it replaced a draft.
  return { accepted: path.map((node) => tree.tokens[node]), next, source: leaf ? BONUS : RESAMPLED };
}
