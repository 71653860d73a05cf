/**
 * The numbered element list: roles, names and states from the accessibility tree; ids, boxes,
 * visibility and form values from a DOM snapshot; both joined on the backend node id. Elements
 * made clickable by script join them (observe-clickables.ts); page text is laid out in lines as
 * the page shows it (observe-text.ts).
 */
import type { CdpSession } from './cdp.ts';
import type { PageElement } from './types.ts';
import { callExpression, markElements } from './page-scripts.ts';
import { mergeDocuments, readSnapshot, SNAPSHOT_STYLES, type AXNode, type DomInfo, type SnapshotDoc } from './observe-sources.ts';
import { findClickables } from './observe-clickables.ts';
import type { RemoteFrame } from './remote-frames.ts';
import { buildTextLines, collectRuns, joinRuns, nameControlsFromLabels, unboundLabels, type TextLayout, type TextRun } from './observe-text.ts';

/** Roles an agent can act on. */
const INTERACTIVE = new Set([
  'button', 'link', 'textbox', 'searchbox', 'combobox', 'listbox', 'option', 'checkbox', 'radio',
  'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'slider', 'spinbutton', 'treeitem',
  'textarea', 'PopUpButton', 'ToggleButton', 'DisclosureTriangle', 'Date', 'DateTime', 'InputTime', 'ColorWell',
]);
/** Controls that hold their choices as children: what sits inside them may still be a target. */
const CONTAINER_ROLES = new Set(['listbox', 'tree', 'menu', 'menubar', 'tablist', 'radiogroup', 'grid', 'treegrid']);
/** Roles worth listing for their content when they have a name. */
const CONTENT = new Set([
  'heading', 'img', 'image', 'cell', 'gridcell', 'columnheader', 'rowheader', 'alert', 'status', 'dialog',
  'alertdialog', 'progressbar', 'meter', 'caption', 'legend', 'Legend', 'figure', 'math', 'code',
]);
/** Text inside these is already their name; don't list it again. */
const NAMES_FROM_CONTENT = new Set([...INTERACTIVE, 'LabelText', 'heading', 'cell', 'gridcell', 'columnheader', 'rowheader', 'caption', 'legend', 'Legend', 'code']);

export interface ElementListResult {
  elements: PageElement[];
  /** Lab id -> backend node id, for diagnostics and replay checks. */
  backendIds: Map<string, number>;
}

export async function observeElements(
  session: CdpSession,
  viewport: { width: number; height: number },
  textLayout: TextLayout = 'sentences',
  /** Cross-origin frames of the page (./remote-frames.ts), each read through its own session. */
  remote: readonly RemoteFrame[] = [],
): Promise<ElementListResult> {
  await Promise.all([
    session.send('Runtime.evaluate', { expression: callExpression(markElements), returnByValue: true }),
    ...remote.map((f) => f.session.send('Runtime.evaluate', { expression: callExpression(markElements, f.prefix), returnByValue: true }).catch(() => {})),
  ]);
  // All requests go out at once: their round trips overlap.
  const [page, frames] = await Promise.all([readSources(session), Promise.all(remote.map(readRemoteFrame))]);
  const hosts = joinRemoteFrames(page, session, frames);
  const dom = readSnapshot(mergeDocuments(page.documents), page.strings);
  // A frame's ids sort right after its <iframe> element's: reading order, frame content in its place.
  const hostIds = new Map<string, string>();
  for (const [prefix, backendId] of hosts) {
    const at = dom.indexOf.get(backendId);
    const id = at !== undefined ? dom.labId[at] : undefined;
    if (id !== undefined) hostIds.set(prefix, id);
  }
  return buildList(page.nodes, dom, viewport, textLayout, hostIds);
}

interface PageSources {
  documents: SnapshotDoc[];
  strings: string[];
  nodes: AXNode[];
}

/** One session's DOM snapshot and accessibility nodes (its same-origin frames' included). */
async function readSources(session: CdpSession): Promise<PageSources> {
  const [snapshot, ax] = await Promise.all([
    session.send('DOMSnapshot.captureSnapshot', { computedStyles: SNAPSHOT_STYLES }),
    session.send('Accessibility.getFullAXTree', {}),
  ]);
  // Same-origin frames: their accessibility trees come one frame at a time (only asked for when
  // the snapshot holds frame documents, so pages without frames pay nothing).
  const nodes = snapshot.documents.length > 1 ? [...ax.nodes, ...(await frameAXNodes(session))] : ax.nodes;
  // The protocol marks every array of a snapshot optional; Chromium sends those SnapshotDoc reads
  // whenever the snapshot is taken with computed styles, as here.
  return { documents: snapshot.documents as SnapshotDoc[], strings: snapshot.strings, nodes };
}

interface RemoteSources extends PageSources {
  frame: RemoteFrame;
  /** Backend node id of the frame's <iframe> element in its parent's document. */
  owner: number;
}

/** A cross-origin frame's snapshot and accessibility nodes; null when it went away meanwhile. */
async function readRemoteFrame(frame: RemoteFrame): Promise<RemoteSources | null> {
  try {
    const [sources, owner] = await Promise.all([
      readSources(frame.session),
      frame.parent.send('DOM.getFrameOwner', { frameId: frame.frameId }),
    ]);
    return { ...sources, frame, owner: owner.backendNodeId };
  } catch {
    return null;
  }
}

/**
 * Backend node ids count per renderer process, so a frame's ids are moved past every other
 * process's: frame k's by (k + 1) * this, in snapshot and accessibility tree alike.
 */
const BACKEND_ID_STRIDE = 1_000_000_000;

/**
 * Append each cross-origin frame's documents to the page's, hung below its <iframe> element as a
 * same-origin frame's document is (mergeDocuments then places it), with its strings, backend ids
 * and accessibility node ids moved out of the way. Returns each joined frame's prefix -> the
 * (moved) backend id of its <iframe> element.
 */
function joinRemoteFrames(page: PageSources, pageSession: CdpSession, frames: (RemoteSources | null)[]): Map<string, number> {
  const hosts = new Map<string, number>();
  if (!frames.length) return hosts;
  // The documents each session contributed, and how far its backend ids were moved.
  const read = new Map<CdpSession, { start: number; end: number; shift: number }>([[pageSession, { start: 0, end: page.documents.length, shift: 0 }]]);
  frames.forEach((f, k) => {
    const parent = f && read.get(f.frame.parent);
    if (!f || !parent) return; // gone, or inside a frame that could not be read
    const owner = f.owner + parent.shift;
    let hostDoc = -1;
    let hostNode = -1;
    for (let d = parent.start; d < parent.end && hostDoc < 0; d++) {
      hostNode = page.documents[d].nodes.backendNodeId.indexOf(owner);
      if (hostNode >= 0) hostDoc = d;
    }
    if (hostDoc < 0) return; // its <iframe> is not in the snapshot
    const shift = (k + 1) * BACKEND_ID_STRIDE;
    const start = page.documents.length;
    const strOffset = page.strings.length;
    page.strings.push(...f.strings);
    for (const doc of f.documents) page.documents.push(moveDocument(doc, strOffset, shift, start));
    const links = (page.documents[hostDoc].nodes.contentDocumentIndex ??= { index: [], value: [] });
    links.index.push(hostNode);
    links.value.push(start);
    const tag = (id: string) => `${f.frame.prefix}:${id}`;
    for (const n of f.nodes) {
      page.nodes.push({
        ...n,
        nodeId: tag(n.nodeId),
        parentId: n.parentId && tag(n.parentId),
        childIds: n.childIds?.map(tag),
        backendDOMNodeId: n.backendDOMNodeId === undefined ? undefined : n.backendDOMNodeId + shift,
      });
    }
    read.set(f.frame.session, { start, end: page.documents.length, shift });
    hosts.set(f.frame.prefix, owner);
  });
  return hosts;
}

/** A snapshot document with its string indices, backend ids and frame document indices moved. */
function moveDocument(doc: SnapshotDoc, strOffset: number, shift: number, docOffset: number): SnapshotDoc {
  const s = (i: number) => (i < 0 ? i : i + strOffset);
  const frames = doc.nodes.contentDocumentIndex;
  return {
    ...doc,
    nodes: {
      ...doc.nodes,
      nodeName: doc.nodes.nodeName.map(s),
      backendNodeId: doc.nodes.backendNodeId.map((b) => b + shift),
      attributes: doc.nodes.attributes.map((a) => a.map(s)),
      contentDocumentIndex: frames && { index: frames.index, value: frames.value.map((v) => v + docOffset) },
    },
    layout: { ...doc.layout, styles: doc.layout.styles.map((st) => st.map(s)) },
  };
}

interface FrameTree {
  frame: { id: string };
  childFrames?: FrameTree[];
}

/** The accessibility nodes of every child frame this session can read, node ids made unique per frame. */
async function frameAXNodes(session: CdpSession): Promise<AXNode[]> {
  const { frameTree } = await session.send('Page.getFrameTree');
  const ids: string[] = [];
  const walk = (t: FrameTree) => {
    for (const c of t.childFrames ?? []) {
      ids.push(c.frame.id);
      walk(c);
    }
  };
  walk(frameTree);
  const trees = await Promise.all(
    ids.map((frameId) => session.send('Accessibility.getFullAXTree', { frameId }).then((r) => r.nodes, () => [] as AXNode[])),
  );
  return trees.flatMap((list, k) => {
    const tag = (id: string) => `f${k}:${id}`;
    return list.map((n) => ({ ...n, nodeId: tag(n.nodeId), parentId: n.parentId && tag(n.parentId), childIds: n.childIds?.map(tag) }));
  });
}

function buildList(
  nodes: AXNode[],
  dom: DomInfo,
  viewport: { width: number; height: number },
  textLayout: TextLayout,
  /** Frame prefix -> lab id of the frame's <iframe> element. */
  frameHosts: ReadonlyMap<string, string>,
): ElementListResult {
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const elements: PageElement[] = [];
  const backendIds = new Map<string, number>();
  const seen = new Set<string>();
  const labels = unboundLabels(dom);

  /** The DOM element behind a node that carries a lab id (the parent element for a text node). */
  const elementIndex = (node: AXNode): number | undefined => {
    let i = node.backendDOMNodeId !== undefined ? dom.indexOf.get(node.backendDOMNodeId) : undefined;
    while (i !== undefined && i >= 0 && dom.labId[i] === undefined) i = dom.parent[i];
    return i !== undefined && i >= 0 ? i : undefined;
  };

  /** Box and visibility of an element, from its own node when it has a box, else the labelled one. */
  const place = (ownIndex: number | undefined, index: number): Pick<PageElement, 'box' | 'visible' | 'inViewport'> => {
    const rawBox = (ownIndex !== undefined ? dom.box[ownIndex] : undefined) ?? dom.box[index];
    const box = rawBox
      ? { x: round(rawBox[0] - dom.scrollX), y: round(rawBox[1] - dom.scrollY), width: round(rawBox[2]), height: round(rawBox[3]) }
      : { x: 0, y: 0, width: 0, height: 0 };
    const visible = !!rawBox && box.width > 0 && box.height > 0 && !dom.hiddenByStyle[ownIndex ?? index] && !dom.hiddenByStyle[index];
    const inViewport = visible && box.x < viewport.width && box.y < viewport.height && box.x + box.width > 0 && box.y + box.height > 0;
    return { box, visible, inViewport };
  };

  /** The DOM element of the nearest ancestor that already speaks this text (a link's label, a heading's text). */
  const coveringAncestor = (node: AXNode): number | undefined => {
    for (let p = node.parentId ? byId.get(node.parentId) : undefined; p; p = p.parentId ? byId.get(p.parentId) : undefined) {
      const role = String(p.role?.value ?? '');
      if (!NAMES_FROM_CONTENT.has(role) || p.ignored) continue;
      const at = p.backendDOMNodeId !== undefined ? dom.indexOf.get(p.backendDOMNodeId) : undefined;
      // An unbound label names nothing: its text is the page's.
      if (role === 'LabelText' && at !== undefined && labels.has(at)) continue;
      return at ?? -1;
    }
    return undefined;
  };

  // Controls and named content, from the accessibility tree.
  const listed = new Set<number>();
  const controls = new Set<number>();
  const axByIndex = new Map<number, AXNode>();
  for (const node of nodes) {
    if (node.backendDOMNodeId !== undefined) {
      const at = dom.indexOf.get(node.backendDOMNodeId);
      if (at !== undefined) axByIndex.set(at, node);
    }
    if (node.ignored) continue;
    const role = String(node.role?.value ?? '');
    const name = String(node.name?.value ?? '').replace(/\s+/g, ' ').trim();
    if (role === 'StaticText') continue;
    const interactive = INTERACTIVE.has(role) || isFocusable(node);
    if (!INTERACTIVE.has(role) && !(name && (CONTENT.has(role) || isFocusable(node)))) continue;
    // Options of a <select> are listed on the select itself.
    if (role === 'option' && isInsideCombobox(node, byId)) continue;
    const index = elementIndex(node);
    if (index === undefined) continue;
    const id = dom.labId[index]!;
    if (seen.has(id)) continue;
    seen.add(id);
    listed.add(index);
    // A list box's items are targets of their own (a script-built suggestion list).
    if (interactive && !CONTAINER_ROLES.has(role)) controls.add(index);
    const ownIndex = node.backendDOMNodeId !== undefined ? dom.indexOf.get(node.backendDOMNodeId) : undefined;
    const el: PageElement = { id, role, name, tag: dom.tag[index], ...place(ownIndex, index) };
    applyProperties(el, node, byId);
    elements.push(el);
    if (node.backendDOMNodeId !== undefined) backendIds.set(id, node.backendDOMNodeId);
  }

  // Elements made clickable by script, which the tree does not call controls.
  const clickables = findClickables(dom, axByIndex, listed, controls, viewport);
  const clickableSet = new Set(clickables.map((c) => c.index));
  const clickableAncestor = (i: number): number | undefined => {
    for (let p = dom.parent[i]; p >= 0; p = dom.parent[p]) if (clickableSet.has(p)) return p;
    return undefined;
  };
  const runs = collectRuns(nodes, dom, coveringAncestor, clickableAncestor);
  const runsOf = new Map<number, TextRun[]>();
  for (const r of runs) {
    if (r.coveredBy === undefined || !clickableSet.has(r.coveredBy)) continue;
    let list = runsOf.get(r.coveredBy);
    if (!list) runsOf.set(r.coveredBy, (list = []));
    list.push(r);
  }
  for (const c of clickables) {
    const id = dom.labId[c.index]!;
    if (seen.has(id)) continue;
    seen.add(id);
    const axName = c.ax && !c.ax.ignored ? String(c.ax.name?.value ?? '').replace(/\s+/g, ' ').trim() : '';
    const own = (runsOf.get(c.index) ?? []).sort((a, b) => a.node - b.node);
    // An icon has no text: its tooltip or label attribute names it, as the tree would for a control.
    const attrs = dom.attrs[c.index];
    const name = axName || joinRuns(dom, own) || (attrs?.['aria-label'] ?? attrs?.title ?? attrs?.alt ?? '').replace(/\s+/g, ' ').trim();
    const el: PageElement = { id, role: c.role, name, tag: dom.tag[c.index], ...place(c.index, c.index) };
    if (c.ax && !c.ax.ignored) applyProperties(el, c.ax, byId);
    elements.push(el);
    if (c.ax?.backendDOMNodeId !== undefined) backendIds.set(id, c.ax.backendDOMNodeId);
  }

  // Page text, one line per block, in the places the page shows it.
  const { lines, labelLines } = buildTextLines(dom, runs, labels, seen, place, textLayout);
  elements.push(...lines);
  // Ids were given in document order, so this is reading order for everything but late additions.
  sortByLabId(elements, frameHosts);
  nameControlsFromLabels(elements, labelLines);
  return { elements, backendIds };
}

/**
 * Page ids by number; a cross-origin frame's (`a3`) right after its <iframe> element's id, in
 * their own order.
 */
export function sortByLabId(elements: PageElement[], frameHosts: ReadonlyMap<string, string>): void {
  const keys = new Map<string, number[]>();
  const key = (id: string, depth = 0): number[] => {
    let k = keys.get(id);
    if (k) return k;
    const m = /^([a-z]*)(\d+)$/.exec(id);
    const host = m?.[1] ? frameHosts.get(m[1]) : undefined;
    k = !m ? [Number.MAX_SAFE_INTEGER] : host !== undefined && depth < 16 ? [...key(host, depth + 1), Number(m[2])] : [Number(m[2])];
    keys.set(id, k);
    return k;
  };
  elements.sort((a, b) => {
    const ka = key(a.id);
    const kb = key(b.id);
    for (let i = 0; i < Math.min(ka.length, kb.length); i++) if (ka[i] !== kb[i]) return ka[i] - kb[i];
    return ka.length - kb.length;
  });
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
