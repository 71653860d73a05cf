/**
 * Things a person could click that the accessibility tree does not call controls: spans, divs,
 * list items and table cells made clickable by script (MiniWoB++'s links, tree nodes, inbox rows,
 * game cells). Like BrowserGym's `bid`s, each gets an id in the element list, with its own role
 * when the tree gives a better one than `generic`.
 *
 * The signals are all in the DOM snapshot the observation takes anyway, so they cost no extra
 * round trip: listeners of the node's own (`isClickable`: click, mousedown or mouseup handlers,
 * inline or added with addEventListener), `cursor: pointer` where it starts (not where a child
 * inherits it), a tabindex, an ARIA widget role. Handlers delegated to an ancestor are seen only
 * through the cursor.
 *
 * Only elements nothing else covers qualify, so pages built from native controls read as before:
 * not <html>/<body>, not a container larger than a third of the viewport, not an element that is,
 * sits inside or holds a listed control (a link's inner span, a card around its buttons).
 */
import type { AXNode, DomInfo } from './observe-sources.ts';

/** ARIA roles whose elements are acted on; an element carrying one explicitly is a candidate. */
const WIDGET_ROLES = new Set([
  'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option',
  'treeitem', 'gridcell', 'slider', 'spinbutton', 'textbox', 'searchbox', 'combobox',
]);
/** Roles that say no more than `generic`. */
const PLAIN_ROLES = new Set(['', 'generic', 'none', 'presentation', 'GenericContainer', 'StaticText', 'paragraph', 'Section', 'LayoutTable', 'LayoutTableRow', 'LayoutTableCell', 'group', 'Canvas', 'Pre']);
/** Never listed as clickables: the page itself, labels (they act for their control), hidden machinery. */
const NOT_CANDIDATES = new Set(['html', 'body', 'head', 'label', 'option', 'script', 'style', 'template', 'br', 'lab-marks']);
/** Containers larger than this share of the viewport are layout, not targets. */
const MAX_VIEWPORT_SHARE = 1 / 3;

export interface Clickable {
  /** Snapshot index of the element. */
  index: number;
  role: string;
  /** Its accessibility tree node, when it has one. */
  ax?: AXNode;
}

/**
 * Clickable elements not yet listed, in document order. `listed`: snapshot indexes of every
 * element already in the list (headings and cells too); `controls`: those listed as controls,
 * whose insides and containers are left out.
 */
export function findClickables(
  dom: DomInfo,
  axByIndex: Map<number, AXNode>,
  listed: Set<number>,
  controls: Set<number>,
  viewport: { width: number; height: number },
): Clickable[] {
  const n = dom.parent.length;
  // Elements that hold a listed control somewhere inside.
  const holdsControl = new Uint8Array(n);
  for (const i of controls) for (let p = dom.parent[i]; p >= 0 && !holdsControl[p]; p = dom.parent[p]) holdsControl[p] = 1;
  const maxArea = viewport.width * viewport.height * MAX_VIEWPORT_SHARE;
  const out: Clickable[] = [];
  for (let i = 0; i < n; i++) {
    if (dom.nodeType[i] !== 1 || dom.labId[i] === undefined || NOT_CANDIDATES.has(dom.tag[i])) continue;
    if (!hasClickSignal(dom, i)) continue;
    if (listed.has(i) || holdsControl[i]) continue;
    const box = dom.box[i];
    if (!box || box[2] <= 0 || box[3] <= 0 || box[2] * box[3] > maxArea || dom.hiddenByStyle[i]) continue;
    if (insideControl(dom, i, controls)) continue;
    const ax = axByIndex.get(i);
    if (ax?.ignored && ax.ignoredReasons?.some((r) => r.name.startsWith('ariaHidden') || r.name === 'inertElement' || r.name === 'inertSubtree')) continue;
    const axRole = ax && !ax.ignored ? String(ax.role?.value ?? '') : '';
    out.push({ index: i, role: PLAIN_ROLES.has(axRole) ? 'generic' : axRole, ax });
  }
  return withoutDelegators(dom, out);
}

/**
 * A list that handles its items' clicks (one listener, delegated) holds clickables and no text
 * of its own: the items are the targets, not the list. A row with its own text and a star icon
 * inside keeps both.
 */
function withoutDelegators(dom: DomInfo, found: Clickable[]): Clickable[] {
  const at = new Set(found.map((c) => c.index));
  const nearest = (i: number): number => {
    for (let p = dom.parent[i]; p >= 0; p = dom.parent[p]) if (at.has(p)) return p;
    return -1;
  };
  const holdsClickable = new Set<number>();
  for (const c of found) {
    const p = nearest(c.index);
    if (p >= 0) holdsClickable.add(p);
  }
  if (!holdsClickable.size) return found;
  const hasOwnText = new Set<number>();
  for (let i = 0; i < dom.parent.length; i++) {
    const b = dom.box[i];
    if (dom.nodeType[i] !== 3 || !b || b[2] <= 0 || b[3] <= 0) continue;
    const p = nearest(i);
    if (p >= 0) hasOwnText.add(p);
  }
  return found.filter((c) => !holdsClickable.has(c.index) || hasOwnText.has(c.index));
}

function hasClickSignal(dom: DomInfo, i: number): boolean {
  if (dom.clickable.has(i)) return true;
  const attrs = dom.attrs[i];
  if (attrs) {
    if (attrs.onclick !== undefined) return true;
    if (attrs.tabindex !== undefined && Number(attrs.tabindex) >= 0) return true;
    if (attrs.role !== undefined && attrs.role.split(/\s+/).some((r) => WIDGET_ROLES.has(r))) return true;
  }
  // Where pointer starts: its children inherit the cursor and are the same target.
  const p = dom.parent[i];
  return dom.cursor[i] === 'pointer' && !(p >= 0 && dom.cursor[p] === 'pointer');
}

function insideControl(dom: DomInfo, i: number, controls: Set<number>): boolean {
  for (let p = dom.parent[i]; p >= 0; p = dom.parent[p]) if (controls.has(p)) return true;
  return false;
}
