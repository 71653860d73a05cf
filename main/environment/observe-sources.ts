/**
 * The two sources an observation is joined from, read into plain arrays: the accessibility tree
 * (roles, names, states) and a DOM snapshot (lab ids, boxes, styles, which nodes take clicks).
 */

export interface AXValue {
  type: string;
  value?: any;
}
export interface AXNode {
  nodeId: string;
  ignored: boolean;
  ignoredReasons?: Array<{ name: string }>;
  role?: AXValue;
  name?: AXValue;
  value?: AXValue;
  properties?: Array<{ name: string; value: AXValue }>;
  parentId?: string;
  childIds?: string[];
  backendDOMNodeId?: number;
}

export interface SnapshotDoc {
  nodes: {
    parentIndex: number[];
    nodeType: number[];
    nodeName: number[];
    backendNodeId: number[];
    attributes: number[][];
    /** Nodes with click, mousedown or mouseup listeners of their own (and links, controls). */
    isClickable?: { index: number[] };
    /** Frame elements and the snapshot document that is their content. */
    contentDocumentIndex?: { index: number[]; value: number[] };
  };
  layout: { nodeIndex: number[]; styles: number[][]; bounds: number[][] };
  scrollOffsetX?: number;
  scrollOffsetY?: number;
}

/** Computed styles the snapshot returns for every laid-out node, in this order. */
export const SNAPSHOT_STYLES = ['visibility', 'opacity', 'display', 'cursor'];

/** Attributes kept from the snapshot (the rest are not needed to build the list). */
const KEPT_ATTRIBUTES = new Set(['for', 'id', 'tabindex', 'role', 'onclick', 'title', 'aria-label', 'alt']);

export interface DomInfo {
  /** Snapshot node index of each backend node id. */
  indexOf: Map<number, number>;
  parent: number[];
  nodeType: number[];
  labId: (string | undefined)[];
  tag: string[];
  box: (number[] | undefined)[];
  hiddenByStyle: boolean[];
  display: (string | undefined)[];
  cursor: (string | undefined)[];
  clickable: Set<number>;
  /** A few attributes per node (KEPT_ATTRIBUTES), when present. */
  attrs: (Record<string, string> | undefined)[];
  /** Values of every id attribute in the document, to resolve <label for>. */
  domIds: Set<string>;
  scrollX: number;
  scrollY: number;
}

/**
 * One node space for the page and the same-origin frames in it: each frame's document follows
 * the page's nodes, hangs below its <iframe>, and has its boxes moved to the page's coordinates.
 */
export function mergeDocuments(docs: SnapshotDoc[]): SnapshotDoc {
  if (docs.length === 1) return docs[0];
  const out: SnapshotDoc = {
    nodes: { parentIndex: [], nodeType: [], nodeName: [], backendNodeId: [], attributes: [], isClickable: { index: [] } },
    layout: { nodeIndex: [], styles: [], bounds: [] },
    scrollOffsetX: docs[0].scrollOffsetX,
    scrollOffsetY: docs[0].scrollOffsetY,
  };
  const offsets: number[] = [];
  const host = new Map<number, number>(); // document index -> merged index of its frame element
  const hostBox = new Map<number, number[]>(); // merged index -> box in page coordinates
  docs.forEach((doc, k) => {
    const base = out.nodes.backendNodeId.length;
    offsets[k] = base;
    const frame = host.get(k);
    // The frame document's own box is its viewport: centre it in the frame element's box (borders).
    let dx = 0;
    let dy = 0;
    if (frame !== undefined) {
      const fb = hostBox.get(frame);
      const rootAt = doc.layout.nodeIndex.indexOf(0);
      const inner = rootAt >= 0 ? doc.layout.bounds[rootAt] : undefined;
      if (fb) {
        dx = fb[0] + (inner ? Math.max(0, (fb[2] - inner[2]) / 2) : 0) - (doc.scrollOffsetX ?? 0);
        dy = fb[1] + (inner ? Math.max(0, (fb[3] - inner[3]) / 2) : 0) - (doc.scrollOffsetY ?? 0);
      }
    }
    const n = doc.nodes.backendNodeId.length;
    for (let i = 0; i < n; i++) {
      const p = doc.nodes.parentIndex[i];
      out.nodes.parentIndex.push(p >= 0 ? p + base : (frame ?? -1));
      out.nodes.nodeType.push(doc.nodes.nodeType[i]);
      out.nodes.nodeName.push(doc.nodes.nodeName[i]);
      out.nodes.backendNodeId.push(doc.nodes.backendNodeId[i]);
      out.nodes.attributes.push(doc.nodes.attributes[i]);
    }
    for (const i of doc.nodes.isClickable?.index ?? []) out.nodes.isClickable!.index.push(i + base);
    for (let j = 0; j < doc.layout.nodeIndex.length; j++) {
      const b = doc.layout.bounds[j];
      const at = doc.layout.nodeIndex[j] + base;
      const moved = [b[0] + dx, b[1] + dy, b[2], b[3]];
      out.layout.nodeIndex.push(at);
      out.layout.styles.push(doc.layout.styles[j]);
      out.layout.bounds.push(moved);
      if (!hostBox.has(at)) hostBox.set(at, moved);
    }
    const frames = doc.nodes.contentDocumentIndex;
    if (frames) frames.index.forEach((i, m) => host.set(frames.value[m], i + base));
  });
  return out;
}

export function readSnapshot(doc: SnapshotDoc, strings: string[]): DomInfo {
  const n = doc.nodes.backendNodeId.length;
  const indexOf = new Map<number, number>();
  const labId: (string | undefined)[] = new Array(n);
  const tag: string[] = new Array(n);
  const attrs: (Record<string, string> | undefined)[] = new Array(n);
  const domIds = new Set<string>();
  for (let i = 0; i < n; i++) {
    indexOf.set(doc.nodes.backendNodeId[i], i);
    tag[i] = strings[doc.nodes.nodeName[i]]?.toLowerCase() ?? '';
    const raw = doc.nodes.attributes[i];
    if (!raw) continue;
    for (let a = 0; a < raw.length; a += 2) {
      const name = strings[raw[a]];
      if (name === 'data-lab-id') labId[i] = strings[raw[a + 1]];
      else if (KEPT_ATTRIBUTES.has(name)) {
        (attrs[i] ??= {})[name] = strings[raw[a + 1]] ?? '';
        if (name === 'id') domIds.add(strings[raw[a + 1]] ?? '');
      }
    }
  }
  const box: (number[] | undefined)[] = new Array(n);
  const hiddenByStyle: boolean[] = new Array(n).fill(false);
  const display: (string | undefined)[] = new Array(n);
  const cursor: (string | undefined)[] = new Array(n);
  const { nodeIndex, bounds, styles } = doc.layout;
  for (let j = 0; j < nodeIndex.length; j++) {
    const i = nodeIndex[j];
    // A node can have several layout objects (e.g. wrapped text); keep the union of their boxes.
    box[i] = box[i] ? union(box[i]!, bounds[j]) : bounds[j];
    const [visibility, opacity, disp, cur] = styles[j].map((s) => strings[s]);
    if (visibility === 'hidden' || visibility === 'collapse' || opacity === '0') hiddenByStyle[i] = true;
    display[i] ??= disp;
    cursor[i] ??= cur;
  }
  return {
    indexOf,
    parent: doc.nodes.parentIndex,
    nodeType: doc.nodes.nodeType,
    labId,
    tag,
    box,
    hiddenByStyle,
    display,
    cursor,
    clickable: new Set(doc.nodes.isClickable?.index ?? []),
    attrs,
    domIds,
    scrollX: doc.scrollOffsetX ?? 0,
    scrollY: doc.scrollOffsetY ?? 0,
  };
}

function union(a: number[], b: number[]): number[] {
  const x = Math.min(a[0], b[0]);
  const y = Math.min(a[1], b[1]);
  return [x, y, Math.max(a[0] + a[2], b[0] + b[2]) - x, Math.max(a[1] + a[3], b[1] + b[3]) - y];
}

/** Flows inside a line of text (a link, a <b>), as opposed to starting a box of its own. */
export function isInline(dom: DomInfo, i: number): boolean {
  const d = dom.display[i];
  return d === 'inline' || d === 'contents';
}

/** Whether `ancestor` is `i` or one of its ancestors. */
export function isWithin(dom: DomInfo, i: number, ancestor: number): boolean {
  for (let p = i; p >= 0; p = dom.parent[p]) if (p === ancestor) return true;
  return false;
}

/** The nearest element (node type 1) at or above i. */
export function elementAt(dom: DomInfo, i: number): number {
  let p = i;
  while (p >= 0 && dom.nodeType[p] !== 1) p = dom.parent[p];
  return p;
}
