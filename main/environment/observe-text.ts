/**
 * Page text as the page shows it. Text runs (the accessibility tree's StaticText nodes) are
 * grouped by the block they flow in, so a sentence with inline markup stays one line with its
 * bold words and link words in place (the link is also listed on its own line, with its id).
 * Text that a listed element already speaks as its name (a button's label, a heading) is not
 * repeated, unless it sits inline in a sentence that has text of its own.
 *
 * A <label> bound to nothing is no control's name in the accessibility tree; it is kept as text,
 * or, when it sits right beside a control that has no name, it becomes that control's name.
 */
import type { AXNode, DomInfo } from './observe-sources.ts';
import { elementAt, isInline, isWithin } from './observe-sources.ts';
import type { PageElement } from './types.ts';

/** Elements a label can be bound to by nesting. */
const LABELABLE = new Set(['input', 'select', 'textarea', 'button', 'meter', 'output', 'progress']);
/** Controls an adjacent unbound label can name. */
const NAMEABLE = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider', 'listbox', 'checkbox', 'radio', 'switch', 'textarea']);
/** Controls whose label conventionally follows them. */
const LABEL_AFTER = new Set(['checkbox', 'radio', 'switch']);

export interface TextRun {
  /** Snapshot index of the text node (document order). */
  node: number;
  /** The element the text node sits in. */
  parent: number;
  /** As the accessibility tree gives it, spaces included; '\n' for a line break. */
  text: string;
  /** The element whose name already says this text (a link, a clickable span), if any. */
  coveredBy?: number;
}

/** Labels bound to nothing: no `for` that resolves, no control inside. */
export function unboundLabels(dom: DomInfo): Set<number> {
  const bound = new Set<number>();
  const labels: number[] = [];
  for (let i = 0; i < dom.tag.length; i++) {
    if (dom.nodeType[i] !== 1) continue;
    if (dom.tag[i] === 'label') labels.push(i);
    else if (LABELABLE.has(dom.tag[i])) {
      for (let p = dom.parent[i]; p >= 0; p = dom.parent[p]) if (dom.tag[p] === 'label') bound.add(p);
    }
  }
  const out = new Set<number>();
  for (const i of labels) {
    const target = dom.attrs[i]?.for;
    if (bound.has(i) || (target !== undefined && dom.domIds.has(target))) continue;
    out.add(i);
  }
  return out;
}

/** The block a node's text flows in: the nearest ancestor that is not inline (an unbound label counts as one). */
export function blockOf(dom: DomInfo, element: number, labels: Set<number>): number {
  let e = element;
  while (e >= 0 && isInline(dom, e) && !labels.has(e) && dom.parent[e] >= 0 && dom.tag[dom.parent[e]] !== '#document') e = dom.parent[e];
  return e;
}

/**
 * Join runs in document order as they read: runs of one element, or on different lines, with a
 * space (as the list always did); runs of neighbouring inline elements exactly as written, so
 * `"<b>foo</b>"` reads `"foo"`.
 */
export function joinRuns(dom: DomInfo, runs: readonly TextRun[]): string {
  let out = '';
  let prev: TextRun | undefined;
  for (const r of runs) {
    if (prev) out += prev.parent === r.parent || !sameLine(dom, prev, r) ? ' ' : '';
    out += r.text;
    prev = r;
  }
  return out.replace(/\s+/g, ' ').trim();
}

function sameLine(dom: DomInfo, a: TextRun, b: TextRun): boolean {
  const ba = dom.box[a.node];
  const bb = dom.box[b.node];
  if (!ba || !bb) return true;
  // b starts on a's last line when its top is above a's bottom.
  return bb[1] < ba[1] + ba[3] - 1;
}

export interface TextLines {
  /** One 'text' entry per block with text of its own; its id is where its first own run sits. */
  lines: PageElement[];
  /** Lines that are an unbound label's text, by id, for naming the control beside them. */
  labelLines: Set<string>;
}

/**
 * How text runs become lines. `sentences`: one line per block, inline markup and link words in
 * place (the default). `runs`: the layout observations had before (one line per element holding
 * text, link words dropped), kept so a policy trained on it can be evaluated on what it saw.
 */
export type TextLayout = 'sentences' | 'runs';

/**
 * Build the text lines. `place` gives the box and visibility of an element; `claimed` holds ids
 * already used by listed elements (a line never takes one).
 */
export function buildTextLines(
  dom: DomInfo,
  runs: readonly TextRun[],
  labels: Set<number>,
  claimed: Set<string>,
  place: (own: number, index: number) => Pick<PageElement, 'box' | 'visible' | 'inViewport'>,
  layout: TextLayout = 'sentences',
): TextLines {
  if (layout === 'runs') return buildRunLines(dom, runs, labels, claimed, place);
  const byBlock = new Map<number, TextRun[]>();
  for (const r of [...runs].sort((a, b) => a.node - b.node)) {
    const block = blockOf(dom, r.parent, labels);
    // Covered text is kept only where it flows inline inside the block's own sentence.
    if (r.coveredBy !== undefined && !(isInline(dom, r.coveredBy) && r.coveredBy !== block && isWithin(dom, r.coveredBy, block))) continue;
    let list = byBlock.get(block);
    if (!list) byBlock.set(block, (list = []));
    list.push(r);
  }
  const lines: PageElement[] = [];
  const labelLines = new Set<string>();
  for (const [block, all] of byBlock) {
    // Text the page hides (opacity 0) does not join a line it can be seen in.
    const shown = all.filter((r) => isShown(dom, r));
    const list = shown.some((r) => r.coveredBy === undefined && r.text.trim()) ? shown : all;
    const own = list.find((r) => r.coveredBy === undefined && r.text.trim());
    if (!own) continue;
    const index = labelledAt(dom, own.parent);
    const id = index >= 0 ? dom.labId[index] : undefined;
    if (id === undefined || claimed.has(id)) continue;
    const name = joinRuns(dom, list);
    if (!name) continue;
    claimed.add(id);
    lines.push({ id, role: 'text', name, tag: dom.tag[index], ...place(own.node, index) });
    if (labels.has(block)) labelLines.add(id);
  }
  return { lines, labelLines };
}

/** The `runs` layout: uncovered runs of one element joined with spaces, in tree order. */
function buildRunLines(
  dom: DomInfo,
  runs: readonly TextRun[],
  labels: Set<number>,
  claimed: Set<string>,
  place: (own: number, index: number) => Pick<PageElement, 'box' | 'visible' | 'inViewport'>,
): TextLines {
  const lines = new Map<string, PageElement>();
  const labelIds = new Set<string>();
  for (const i of labels) if (dom.labId[i] !== undefined) labelIds.add(dom.labId[i]!);
  for (const r of runs) {
    const name = r.text.replace(/\s+/g, ' ').trim();
    if (r.coveredBy !== undefined || !name || r.text === '\n') continue;
    const index = labelledAt(dom, r.parent);
    const id = index >= 0 ? dom.labId[index] : undefined;
    if (id === undefined) continue;
    const prev = lines.get(id);
    if (prev) prev.name = `${prev.name} ${name}`;
    else if (!claimed.has(id)) lines.set(id, { id, role: 'text', name, tag: dom.tag[index], ...place(r.node, index) });
  }
  const labelLines = new Set<string>();
  for (const [id, line] of lines) {
    claimed.add(id);
    if (labelIds.has(id)) labelLines.add(line.id);
  }
  return { lines: [...lines.values()], labelLines };
}

/** The nearest element at or above i that carries a lab id (content of shadow roots has none). */
function labelledAt(dom: DomInfo, i: number): number {
  let index = i;
  while (index >= 0 && dom.labId[index] === undefined) index = dom.parent[index];
  return index;
}

function isShown(dom: DomInfo, r: TextRun): boolean {
  const b = dom.box[r.node];
  return r.text === '\n' || (!!b && b[2] > 0 && b[3] > 0 && !dom.hiddenByStyle[r.node]);
}

/**
 * An unbound label right before a nameless control (or right after a nameless checkbox or radio)
 * names it and leaves the list; others stay as text. `elements` is in list order and is edited.
 */
export function nameControlsFromLabels(elements: PageElement[], labelLines: Set<string>): void {
  for (let k = 0; k < elements.length; k++) {
    const line = elements[k];
    if (line.role !== 'text' || !labelLines.has(line.id)) continue;
    const next = elements[k + 1];
    const prev = elements[k - 1];
    const target =
      next && NAMEABLE.has(next.role) && !next.name ? next : prev && LABEL_AFTER.has(prev.role) && !prev.name ? prev : undefined;
    if (!target) continue;
    target.name = line.name;
    elements.splice(k, 1);
    k--;
  }
}

/** The text runs of the page, each with what covers it. */
export function collectRuns(
  nodes: readonly AXNode[],
  dom: DomInfo,
  coveringAncestor: (node: AXNode) => number | undefined,
  clickableAncestor: (index: number) => number | undefined,
): TextRun[] {
  const runs: TextRun[] = [];
  for (const node of nodes) {
    if (node.ignored || node.backendDOMNodeId === undefined) continue;
    const role = node.role?.value;
    if (role !== 'StaticText' && role !== 'LineBreak') continue;
    const at = dom.indexOf.get(node.backendDOMNodeId);
    if (at === undefined) continue;
    const parent = elementAt(dom, dom.nodeType[at] === 1 ? dom.parent[at] : at);
    if (parent < 0) continue;
    const text = role === 'LineBreak' ? '\n' : String(node.name?.value ?? '');
    if (!text) continue;
    // The nearer of the two speaks the text: a suggestion inside a list box names itself.
    const byTree = coveringAncestor(node);
    const byClick = clickableAncestor(at);
    const coveredBy = byClick !== undefined && (byTree === undefined || (byTree >= 0 && isWithin(dom, byClick, byTree))) ? byClick : byTree;
    runs.push({ node: at, parent, text, coveredBy });
  }
  return runs;
}
