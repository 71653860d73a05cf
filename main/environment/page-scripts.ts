/**
 * Code the environment runs inside the page. Kept as plain functions so TypeScript checks them;
 * they are serialised with Function.prototype.toString and must not close over anything.
 */

/**
 * Installed before any page script runs (Page.addScriptToEvaluateOnNewDocument). Tracks DOM
 * mutations and in-flight fetch/XHR so the environment can tell when the page has settled.
 */
export function installSettleTracker(): void {
  const w = window as any;
  if (w.__lab) return;
  const lab = { pending: 0, lastChange: performance.now(), settle: null as unknown };
  Object.defineProperty(w, '__lab', { value: lab, enumerable: false, configurable: false, writable: false });
  const touch = () => {
    lab.lastChange = performance.now();
  };
  new MutationObserver(touch).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const fetch0 = w.fetch;
  if (typeof fetch0 === 'function') {
    w.fetch = function (this: unknown, ...args: unknown[]) {
      lab.pending++;
      return fetch0.apply(this, args).finally(() => {
        lab.pending--;
        touch();
      });
    };
  }
  const send0 = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, ...args: any[]) {
    lab.pending++;
    this.addEventListener(
      'loadend',
      () => {
        lab.pending--;
        touch();
      },
      { once: true },
    );
    return send0.apply(this, args as any);
  };
  // Short timers the page starts (a debounced autocomplete, a menu that opens after 300 ms): the
  // settle wait lets the ones an action started fire. Longer ones (a session timeout, MiniWoB++'s
  // episode clock) and repeating ones are not waited for.
  const SHORT_TIMER_MS = 1000;
  const timers = new Map<number, number>(); // id -> when it was started
  const setTimeout0 = w.setTimeout;
  const clearTimeout0 = w.clearTimeout;
  w.setTimeout = function (this: unknown, fn: unknown, ms?: number, ...args: unknown[]) {
    const delay = Number(ms) || 0;
    if (typeof fn !== 'function' || delay > SHORT_TIMER_MS) return setTimeout0.call(this, fn, ms, ...args);
    const id: number = setTimeout0.call(
      this,
      function (this: unknown, ...a: unknown[]) {
        timers.delete(id);
        return (fn as (...x: unknown[]) => unknown).apply(this, a);
      },
      ms,
      ...args,
    );
    timers.set(id, performance.now());
    return id;
  };
  w.clearTimeout = function (this: unknown, id: number) {
    timers.delete(id);
    return clearTimeout0.call(this, id);
  };
  // Transitions and animations of known, short length that are running (a menu sliding open).
  const animating = (): boolean => {
    if (typeof document.getAnimations !== 'function') return false;
    return document.getAnimations().some((a) => {
      if (a.playState !== 'running') return false;
      const end = a.effect?.getComputedTiming().endTime;
      return typeof end === 'number' && Number.isFinite(end) && end <= SHORT_TIMER_MS;
    });
  };
  // Resolves once no request is pending, no short timer started in the last `sinceMs` (by the
  // action) is waiting, no short animation runs, and the DOM has been quiet for quietMs; or after
  // maxMs. `fromNow`: count quiet from the start of the wait too (same document after an action,
  // where a navigation or request may follow a moment later); a freshly loaded document counts
  // from its last change only.
  lab.settle = (quietMs: number, maxMs: number, fromNow: boolean, sinceMs = 0) =>
    new Promise<boolean>((resolve) => {
      const start = performance.now();
      const floor = fromNow ? start : 0;
      const from = start - sinceMs;
      const timerPending = () => {
        for (const at of timers.values()) if (at >= from && at <= start) return true;
        return false;
      };
      const tick = () => {
        const now = performance.now();
        const busy = sinceMs > 0 && (timerPending() || animating());
        if (lab.pending === 0 && !busy && now - Math.max(lab.lastChange, floor) >= quietMs) resolve(true);
        else if (now - start >= maxMs) resolve(false);
        else setTimeout0(tick, busy ? 10 : Math.max(2, Math.min(quietMs - (now - Math.max(lab.lastChange, floor)), 10)));
      };
      tick();
    });
}

/**
 * Give every element that has none a `data-lab-id`, in document order; ids already given stay.
 * Elements inside open shadow roots get ids too, in the order they are shown (inside their host).
 * The counter lives on the document so ids never repeat within one page load. A cross-origin
 * frame's ids carry its prefix (`a12`), so they never meet the page's (./remote-frames.ts).
 */
export function markElements(prefix = ''): number {
  const d = document as any;
  let next: number = d.__labNextId ?? 0;
  const all = document.getElementsByTagName('*');
  const mark = (el: Element) => {
    if (!el.hasAttribute('data-lab-id')) el.setAttribute('data-lab-id', prefix + next++);
  };
  // A same-origin frame's document (null for other origins: their content is not ours to read).
  const frameDoc = (el: Element): Document | null => {
    if (el.tagName !== 'IFRAME' && el.tagName !== 'FRAME') return null;
    try {
      return (el as HTMLIFrameElement).contentDocument;
    } catch {
      return null;
    }
  };
  let nested = false;
  for (let i = 0; i < all.length && !nested; i++) if (all[i].shadowRoot || frameDoc(all[i])?.documentElement) nested = true;
  if (!nested) {
    for (let i = 0; i < all.length; i++) mark(all[i]);
  } else {
    // Depth first through light trees, shadow trees and frame documents alike, each in its place.
    const stack: Element[] = [document.documentElement];
    while (stack.length) {
      const el = stack.pop()!;
      mark(el);
      const inner = frameDoc(el)?.documentElement;
      const kids = [...(inner ? [inner] : []), ...(el.shadowRoot ? Array.from(el.shadowRoot.children) : []), ...Array.from(el.children)];
      for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
    }
  }
  d.__labNextId = next;
  return next;
}

/** The element with this lab id: in the document, an open shadow root or a same-origin frame; null if none. */
export function findLabElement(id: string): Element | null {
  const selector = `[data-lab-id="${CSS.escape(id)}"]`;
  const direct = document.querySelector(selector);
  if (direct) return direct;
  const roots: ParentNode[] = [document];
  while (roots.length) {
    const root = roots.pop()!;
    for (const el of Array.from(root.querySelectorAll('*'))) {
      let inner: Document | null = null;
      if (el.tagName === 'IFRAME' || el.tagName === 'FRAME') {
        try {
          inner = (el as HTMLIFrameElement).contentDocument;
        } catch {
          inner = null;
        }
      }
      for (const sub of [el.shadowRoot, inner]) {
        if (!sub) continue;
        const found = sub.querySelector(selector);
        if (found) return found;
        roots.push(sub);
      }
    }
  }
  return null;
}

/** Called on the target element after it was scrolled into view: where to click and whether we can. */
export function inspectTarget(this: Element): {
  x: number;
  y: number;
  width: number;
  height: number;
  tag: string;
  type: string;
  disabled: boolean;
  editable: boolean;
  checked: boolean | null;
  coveredBy: string | null;
} {
  const el = this as HTMLElement;
  const r = el.getBoundingClientRect();
  // Where a person would click: the middle of the box, or, for an inline element that wraps over
  // several lines (a long link), the middle of one of its line boxes; the first point that
  // actually hits the element wins.
  const candidates: Array<[number, number]> = [[r.left + r.width / 2, r.top + r.height / 2]];
  for (const line of Array.from(el.getClientRects())) {
    if (line.width > 0 && line.height > 0) candidates.push([line.left + line.width / 2, line.top + line.height / 2]);
  }
  // Inside a shadow root the document's hit test stops at the host; ask the target's own root.
  const root = el.getRootNode() as Document | ShadowRoot;
  const hits = (x: number, y: number): Element | null => {
    const hit = typeof root.elementFromPoint === 'function' ? root.elementFromPoint(x, y) : document.elementFromPoint(x, y);
    // A label for the target counts as the target (clicking it activates the control).
    const viaLabel = hit instanceof HTMLLabelElement && hit.control === el;
    return !hit || hit === el || el.contains(hit) || viaLabel ? null : hit;
  };
  let [cx, cy] = candidates[0];
  let coveredBy: string | null = null;
  if (r.width > 0 && r.height > 0) {
    const clear = candidates.find(([x, y]) => hits(x, y) === null);
    if (clear) [cx, cy] = clear;
    else {
      const h = hits(cx, cy) as HTMLElement;
      coveredBy = `<${h.tagName.toLowerCase()}${h.id ? ' id="' + h.id + '"' : ''}${
        h.className && typeof h.className === 'string' ? ' class="' + h.className + '"' : ''
      }>`;
    }
  }
  // Inside a frame the box is the frame's: move the click point into the page's viewport.
  let fx = 0;
  let fy = 0;
  for (let win: Window | null = el.ownerDocument.defaultView; win && win !== window.top && win.frameElement; win = win.parent) {
    const frame = win.frameElement as HTMLElement;
    const fr = frame.getBoundingClientRect();
    fx += fr.left + frame.clientLeft;
    fy += fr.top + frame.clientTop;
  }
  cx += fx;
  cy += fy;
  const tag = el.tagName.toLowerCase();
  const type = (el.getAttribute('type') || '').toLowerCase();
  const textInput = tag === 'input' && !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'image', 'range', 'color', 'hidden'].includes(type);
  return {
    x: cx,
    y: cy,
    width: r.width,
    height: r.height,
    tag,
    type,
    disabled: (el as HTMLInputElement).disabled === true || el.getAttribute('aria-disabled') === 'true',
    editable: textInput || tag === 'textarea' || el.isContentEditable,
    checked: tag === 'input' && (type === 'checkbox' || type === 'radio') ? (el as HTMLInputElement).checked : null,
    coveredBy,
  };
}

/** Whether the pointer is over the element (or one of its descendants), as its own document sees it. */
export function isHovered(this: Element): boolean {
  return this.matches(':hover');
}

/** Select the element's whole content so typed text replaces it. */
export function selectAllText(this: Element): void {
  const el = this as HTMLInputElement;
  if (typeof el.select === 'function') {
    el.select();
    return;
  }
  const range = document.createRange();
  range.selectNodeContents(el);
  const sel = window.getSelection();
  sel?.removeAllRanges();
  sel?.addRange(range);
}

/** Date, time, color and range inputs ignore typed text in Chromium: set the value as a user agent would. */
export function setValueWithEvents(this: Element, value: string): string {
  const el = this as HTMLInputElement;
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  setter.call(el, value);
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return el.value;
}

/**
 * Choose options of a <select> by label or value (exact, then case-insensitive), as a user picking
 * from the list would; fires input and change. Returns the chosen labels or an error message.
 */
export function selectOptions(this: Element, wanted: string[]): { ok: true; chosen: string[] } | { ok: false; message: string } {
  const el = this as HTMLSelectElement;
  if (el.tagName.toLowerCase() !== 'select') return { ok: false, message: `element is a <${el.tagName.toLowerCase()}>, not a <select>` };
  const options = Array.from(el.options);
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
  const picked: HTMLOptionElement[] = [];
  for (const w of wanted) {
    const o =
      options.find((o) => o.label.trim() === w.trim() || o.value === w) ?? options.find((o) => norm(o.label) === norm(w) || norm(o.value) === norm(w));
    if (!o) return { ok: false, message: `no option '${w}' (options: ${options.map((o) => `'${o.label.trim()}'`).join(', ')})` };
    if (o.disabled) return { ok: false, message: `option '${w}' is disabled` };
    picked.push(o);
  }
  if (picked.length > 1 && !el.multiple) return { ok: false, message: 'this <select> takes a single option' };
  for (const o of options) o.selected = picked.includes(o);
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { ok: true, chosen: picked.map((o) => o.label.trim()) };
}

/** Draw set-of-marks boxes in a closed shadow root above the page; returns nothing. */
export function drawMarks(marks: Array<[string, number, number, number, number]>): void {
  const host = document.createElement('lab-marks');
  host.setAttribute('data-lab-overlay', '');
  const root = host.attachShadow({ mode: 'closed' });
  const palette = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#008080', '#9a6324', '#800000'];
  let html = '<div style="position:fixed;inset:0;pointer-events:none;z-index:2147483647">';
  marks.forEach(([id, x, y, w, h], i) => {
    const c = palette[i % palette.length];
    html +=
      `<div style="position:absolute;left:${x}px;top:${y}px;width:${w}px;height:${h}px;outline:2px solid ${c};box-sizing:border-box"></div>` +
      `<div style="position:absolute;left:${x}px;top:${Math.max(0, y - 14)}px;background:${c};color:#fff;font:bold 11px/14px monospace;padding:0 3px">${id}</div>`;
  });
  root.innerHTML = html + '</div>';
  document.documentElement.appendChild(host);
  (window as any).__labMarks = host;
}

export function removeMarks(): void {
  const w = window as any;
  w.__labMarks?.remove();
  w.__labMarks = undefined;
}

// Transpilers may wrap named functions in a `__name(...)` helper that does not exist in the page;
// define a harmless one in the wrapper's scope.
const NAME_SHIM = 'const __name = (f) => f;';

/** Source for Runtime.evaluate: calls `fn` with JSON-serialised arguments. */
export function callExpression(fn: (...args: any[]) => unknown, ...args: unknown[]): string {
  return `(() => { ${NAME_SHIM} return (${fn.toString()})(${args.map((a) => JSON.stringify(a)).join(',')}); })()`;
}

/** Source for Runtime.callFunctionOn: `this` is the remote object, arguments come from the call. */
export function functionDeclaration(fn: (...args: any[]) => unknown): string {
  return `function (...args) { ${NAME_SHIM} return (${fn.toString()}).apply(this, args); }`;
}
