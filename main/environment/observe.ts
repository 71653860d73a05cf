/**
 * The numbered element list: roles, names and states from the accessibility tree; ids, boxes,
 * visibility and form values from a DOM snapshot; both joined on the backend node id.
 */
import type { CdpSession } from './cdp.ts';
import type { PageElement } from './types.ts';
import { callExpression, markElements } from './page-scripts.ts';

/** Roles an agent can act on. */
const INTERACTIVE = new Set([
  'button', 'link', 'textbox', 'searchbox', 'combobox', 'listbox', 'option', 'checkbox', 'radio',
  'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'slider', 'spinbutton', 'treeitem',
  'textarea', 'PopUpButton', 'ToggleButton', 'DisclosureTriangle', 'Date', 'DateTime', 'InputTime', 'ColorWell',
]);
/** Roles worth listing for their content when they have a name. */
const CONTENT = new Set([
  'heading', 'img', 'image', 'cell', 'gridcell', 'columnheader', 'rowheader', 'alert', 'status', 'dialog',
  'alertdialog', 'progressbar', 'meter', 'caption', 'legend', 'Legend', 'figure', 'math', 'code',
]);
/** Text inside these is already their name; don't list it again. */
const NAMES_FROM_CONTENT = new Set([...INTERACTIVE, 'LabelText', 'heading', 'cell', 'gridcell', 'columnheader', 'rowheader', 'caption', 'legend', 'Legend', 'code']);

interface AXValue {
  type: string;
  value?: any;
}
interface AXNode {
  nodeId: string;
  ignored: boolean;
  role?: AXValue;
  name?: AXValue;
  value?: AXValue;
  properties?: Array<{ name: string; value: AXValue }>;
  parentId?: string;
  childIds?: string[];
  backendDOMNodeId?: number;
}

interface SnapshotDoc {
  nodes: {
    parentIndex: number[];
    nodeType: number[];
    nodeName: number[];
    backendNodeId: number[];
    attributes: number[][];
  };
  layout: { nodeIndex: number[]; styles: number[][]; bounds: number[][] };
  scrollOffsetX?: number;
  scrollOffsetY?: number;
}

interface DomInfo {
  /** Snapshot node index of each backend node id. */
  indexOf: Map<number, number>;
  parent: number[];
  labId: (string | undefined)[];
  tag: string[];
  box: (number[] | undefined)[];
  hiddenByStyle: boolean[];
  scrollX: number;
  scrollY: number;
}

export interface ElementListResult {
  elements: PageElement[];
  /** Lab id -> backend node id, for diagnostics and replay checks. */
  backendIds: Map<string, number>;
}

const STYLES = ['visibility', 'opacity'];

export async function observeElements(session: CdpSession, viewport: { width: number; height: number }): Promise<ElementListResult> {
  await session.send('Runtime.evaluate', { expression: callExpression(markElements), returnByValue: true });
  // Both requests go out at once: their round trips overlap.
  const [snapshot, ax] = await Promise.all([
    session.send<{ documents: SnapshotDoc[]; strings: string[] }>('DOMSnapshot.captureSnapshot', { computedStyles: STYLES }),
    session.send<{ nodes: AXNode[] }>('Accessibility.getFullAXTree', {}),
  ]);
  const dom = readSnapshot(snapshot.documents[0], snapshot.strings);
  return buildList(ax.nodes, dom, viewport);
}

function readSnapshot(doc: SnapshotDoc, strings: string[]): DomInfo {
  const n = doc.nodes.backendNodeId.length;
  const indexOf = new Map<number, number>();
  const labId: (string | undefined)[] = new Array(n);
  const tag: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    indexOf.set(doc.nodes.backendNodeId[i], i);
    tag[i] = strings[doc.nodes.nodeName[i]]?.toLowerCase() ?? '';
    const attrs = doc.nodes.attributes[i];
    if (attrs) {
      for (let a = 0; a < attrs.length; a += 2) {
        if (strings[attrs[a]] === 'data-lab-id') {
          labId[i] = strings[attrs[a + 1]];
          break;
        }
      }
    }
  }
  const box: (number[] | undefined)[] = new Array(n);
  const hiddenByStyle: boolean[] = new Array(n).fill(false);
  const { nodeIndex, bounds, styles } = doc.layout;
  for (let j = 0; j < nodeIndex.length; j++) {
    const i = nodeIndex[j];
    // A node can have several layout objects (e.g. wrapped text); keep the union of their boxes.
    box[i] = box[i] ? union(box[i]!, bounds[j]) : bounds[j];
    const [visibility, opacity] = styles[j].map((s) => strings[s]);
    if (visibility === 'hidden' || visibility === 'collapse' || opacity === '0') hiddenByStyle[i] = true;
  }
  return {
    indexOf,
    parent: doc.nodes.parentIndex,
    labId,
    tag,
    box,
    hiddenByStyle,
    scrollX: doc.scrollOffsetX ?? 0,
    scrollY: doc.scrollOffsetY ?? 0,
  };
}

function union(a: number[], b: number[]): number[] {
  const x = Math.min(a[0], b[0]);
  const y = Math.min(a[1], b[1]);
  return [x, y, Math.max(a[0] + a[2], b[0] + b[2]) - x, Math.max(a[1] + a[3], b[1] + b[3]) - y];
}

function buildList(nodes: AXNode[], dom: DomInfo, viewport: { width: number; height: number }): ElementListResult {
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const elements: PageElement[] = [];
  const backendIds = new Map<string, number>();
  const seen = new Set<string>();

  /** The lab id of the DOM element behind a node (the parent element for a text node). */
  const elementIndex = (node: AXNode): number | undefined => {
    let i = node.backendDOMNodeId !== undefined ? dom.indexOf.get(node.backendDOMNodeId) : undefined;
    while (i !== undefined && i >= 0 && dom.labId[i] === undefined) i = dom.parent[i];
    return i !== undefined && i >= 0 ? i : undefined;
  };

  /** Nearest listed ancestor that already speaks this text (a link's label, a heading's text). */
  const textCoveredByAncestor = (node: AXNode): boolean => {
    for (let p = node.parentId ? byId.get(node.parentId) : undefined; p; p = p.parentId ? byId.get(p.parentId) : undefined) {
      const role = String(p.role?.value ?? '');
      if (NAMES_FROM_CONTENT.has(role) && !p.ignored) return true;
    }
    return false;
  };

  const texts = new Map<string, PageElement>();
  for (const node of nodes) {
    if (node.ignored) continue;
    const role = String(node.role?.value ?? '');
    const name = String(node.name?.value ?? '').replace(/\s+/g, ' ').trim();
    const isText = role === 'StaticText';
    if (isText) {
      if (!name || textCoveredByAncestor(node)) continue;
    } else if (!INTERACTIVE.has(role) && !(name && (CONTENT.has(role) || isFocusable(node)))) {
      continue;
    }
    // Options of a <select> are listed on the select itself.
    if (role === 'option' && isInsideCombobox(node, byId)) continue;
    const index = elementIndex(node);
    if (index === undefined) continue;
    const id = dom.labId[index]!;
    const ownIndex = node.backendDOMNodeId !== undefined ? dom.indexOf.get(node.backendDOMNodeId) : undefined;
    const rawBox = (ownIndex !== undefined ? dom.box[ownIndex] : undefined) ?? dom.box[index];
    const box = rawBox
      ? { x: round(rawBox[0] - dom.scrollX), y: round(rawBox[1] - dom.scrollY), width: round(rawBox[2]), height: round(rawBox[3]) }
      : { x: 0, y: 0, width: 0, height: 0 };
    const visible = !!rawBox && box.width > 0 && box.height > 0 && !dom.hiddenByStyle[ownIndex ?? index] && !dom.hiddenByStyle[index];
    const inViewport = visible && box.x < viewport.width && box.y < viewport.height && box.x + box.width > 0 && box.y + box.height > 0;

    if (isText) {
      // Consecutive text runs of one element become one 'text' entry.
      const prev = texts.get(id);
      if (prev) {
        prev.name = `${prev.name} ${name}`;
        continue;
      }
      if (seen.has(id)) continue;
      const el: PageElement = { id, role: 'text', name, tag: dom.tag[index], box, visible, inViewport };
      texts.set(id, el);
      elements.push(el);
      seen.add(id);
      continue;
    }
    if (seen.has(id)) continue;
    seen.add(id);
    const el: PageElement = { id, role, name, tag: dom.tag[index], box, visible, inViewport };
    applyProperties(el, node, byId);
    elements.push(el);
    if (node.backendDOMNodeId !== undefined) backendIds.set(id, node.backendDOMNodeId);
  }
  // Ids were given in document order, so this is reading order for everything but late additions.
  elements.sort((a, b) => Number(a.id) - Number(b.id));
  return { elements, backendIds };
}

/** Custom widgets (a div with tabindex and a label) are actionable even without an ARIA role. */
function isFocusable(node: AXNode): boolean {
  if (node.role?.value === 'RootWebArea') return false;
  return (node.properties ?? []).some((p) => p.name === 'focusable' && p.value?.value === true);
}

function isInsideCombobox(node: AXNode, byId: Map<string, AXNode>): boolean {
  for (let p = node.parentId ? byId.get(node.parentId) : undefined; p; p = p.parentId ? byId.get(p.parentId) : undefined) {
    const role = String(p.role?.value ?? '');
    if (role === 'combobox' || role === 'PopUpButton') return true;
    if (role === 'listbox') return false;
  }
  return false;
}

function applyProperties(el: PageElement, node: AXNode, byId: Map<string, AXNode>): void {
  if (node.value && node.value.value !== undefined && node.value.value !== '') el.value = String(node.value.value);
  for (const p of node.properties ?? []) {
    const v = p.value?.value;
    switch (p.name) {
      case 'checked':
      case 'pressed':
        if (p.name === 'pressed' && el.checked !== undefined) break;
        el.checked = v === 'mixed' ? 'mixed' : v === true || v === 'true';
        break;
      case 'selected':
        el.selected = v === true;
        break;
      case 'disabled':
        if (v === true) el.disabled = true;
        break;
      case 'expanded':
        el.expanded = v === true;
        break;
      case 'required':
        if (v === true) el.required = true;
        break;
      case 'invalid':
        if (v && v !== 'false') el.invalid = true;
        break;
    }
  }
  if (el.role === 'combobox' || el.role === 'listbox' || el.role === 'PopUpButton') {
    const options = collectOptions(node, byId);
    if (options.length) el.options = options;
  }
}

function collectOptions(node: AXNode, byId: Map<string, AXNode>): string[] {
  const out: string[] = [];
  const walk = (n: AXNode, depth: number) => {
    if (depth > 4) return;
    for (const cid of n.childIds ?? []) {
      const c = byId.get(cid);
      if (!c) continue;
      if (c.role?.value === 'option') out.push(String(c.name?.value ?? '').trim());
      else walk(c, depth + 1);
    }
  };
  walk(node, 0);
  return out;
}

function round(v: number): number {
  return Math.round(v * 10) / 10;
}
