/**
 * A tiny, script-free browser for tests: it fetches pages from the real task server, derives the
 * element list an agent would see (role, accessible name, value) from the HTML, and performs
 * BrowserGym-style actions the way an HTML form would (links GET, forms serialise their controls
 * and submit with the submitter's name/value, Enter in a field submits its form). It lets the
 * oracles run end to end over real HTTP without Chromium. It does not run page JavaScript, so the
 * sites must work without it (they enhance progressively).
 */
import type { Observation, PageElement } from '../../../main/environment/types.ts';

interface Control {
  el: PageElement;
  tag: string;
  type: string;
  attrs: Record<string, string>;
  form: number;
  /** For selects: option labels and values, and the chosen index. */
  optionValues?: string[];
  selectedIndex?: number;
  labelId?: string;
}

interface FormInfo {
  action: string;
  method: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };
export function decode(s: string): string {
  return s.replace(/&(#\d+|#x[0-9a-f]+|\w+);/gi, (m, e: string) => {
    if (e in ENTITIES) return ENTITIES[e];
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return m;
  });
}

function parseAttrs(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of s.matchAll(/([^\s=>\/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    out[m[1].toLowerCase()] = decode(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return out;
}

const clean = (s: string) => s.replace(/\s+/g, ' ').trim();
const VOID = new Set(['input', 'br', 'img', 'meta', 'link', 'hr']);
const TEXT_TAGS = new Set(['p', 'li', 'td', 'dd', 'dt', 'th', 'legend', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre']);

export function parsePage(html: string): { title: string; controls: Control[]; forms: FormInfo[] } {
  const controls: Control[] = [];
  const forms: FormInfo[] = [];
  const labelsFor = new Map<string, string>();
  let title = '';
  let form = -1;
  let nextId = 1;
  // Open elements that collect their text content (links, buttons, labels, options, headings).
  const captures: Array<{ tag: string; text: string; onClose: (text: string) => void }> = [];
  let skip: string | null = null;
  let select: Control | null = null;
  let label: { controls: Control[] } | null = null;
  const add = (role: string, tag: string, attrs: Record<string, string>, type = ''): Control => {
    const c: Control = {
      el: { id: String(nextId++), role, name: '', tag, box: { x: 0, y: 0, width: 100, height: 20 }, visible: true, inViewport: true },
      tag,
      type,
      attrs,
      form,
    };
    if ('disabled' in attrs) c.el.disabled = true;
    if ('required' in attrs) c.el.required = true;
    if (attrs['aria-invalid'] === 'true') c.el.invalid = true;
    controls.push(c);
    if (label) label.controls.push(c);
    return c;
  };
  const re = /<!--[\s\S]*?-->|<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|([^<]+)/g;
  for (const m of html.matchAll(re)) {
    if (m[4] !== undefined) {
      if (skip) continue;
      const text = decode(m[4]);
      for (const c of captures) c.text += text;
      continue;
    }
    if (!m[2]) continue;
    const closing = m[1] === '/';
    const tag = m[2].toLowerCase();
    if (skip) {
      if (closing && tag === skip) skip = null;
      continue;
    }
    if (closing) {
      for (let i = captures.length - 1; i >= 0; i--) {
        if (captures[i].tag === tag) {
          const [c] = captures.splice(i, 1);
          c.onClose(clean(c.text));
          break;
        }
      }
      if (tag === 'form') form = -1;
      if (tag === 'select') select = null;
      if (tag === 'label') label = null;
      continue;
    }
    const attrs = parseAttrs(m[3]);
    if (tag === 'script' || tag === 'style') {
      skip = tag;
      continue;
    }
    if (tag === 'title') {
      captures.push({ tag, text: '', onClose: (t) => (title = t) });
      continue;
    }
    if ('hidden' in attrs || attrs['aria-hidden'] === 'true') {
      if (!VOID.has(tag)) skip = tag; // my sites never nest the same tag inside a hidden one
      continue;
    }
    if (tag === 'form') {
      forms.push({ action: attrs.action ?? '', method: (attrs.method ?? 'get').toLowerCase() });
      form = forms.length - 1;
    } else if (tag === 'a' && 'href' in attrs) {
      const c = add('link', tag, attrs);
      captures.push({ tag, text: '', onClose: (t) => (c.el.name ||= attrs['aria-label'] ?? t) });
    } else if (tag === 'button') {
      const c = add('button', tag, attrs, (attrs.type ?? 'submit').toLowerCase());
      if (attrs['aria-pressed']) c.el.checked = attrs['aria-pressed'] === 'true';
      captures.push({ tag, text: '', onClose: (t) => (c.el.name = attrs['aria-label'] ?? t) });
    } else if (tag === 'input') {
      const type = (attrs.type ?? 'text').toLowerCase();
      if (type === 'hidden') {
        controls.push({ el: { id: '', role: 'hidden', name: '', tag, box: { x: 0, y: 0, width: 0, height: 0 }, visible: false, inViewport: false }, tag, type, attrs, form });
        continue;
      }
      const role =
        type === 'submit' || type === 'button' ? 'button' : type === 'checkbox' ? 'checkbox' : type === 'radio' ? 'radio' : type === 'number' ? 'spinbutton' : type === 'search' ? 'searchbox' : 'textbox';
      const c = add(role, tag, attrs, type);
      if (role === 'checkbox' || role === 'radio') c.el.checked = 'checked' in attrs;
      else if (role === 'button') c.el.name = attrs.value ?? 'Submit';
      else c.el.value = attrs.value ?? '';
      if (attrs['aria-label']) c.el.name = attrs['aria-label'];
      c.labelId = attrs.id;
    } else if (tag === 'select') {
      const c = add('combobox', tag, attrs);
      c.el.options = [];
      c.optionValues = [];
      c.selectedIndex = 0;
      c.labelId = attrs.id;
      if (attrs['aria-label']) c.el.name = attrs['aria-label'];
      select = c;
    } else if (tag === 'option' && select) {
      const s = select;
      const selected = 'selected' in attrs;
      captures.push({
        tag,
        text: '',
        onClose: (t) => {
          s.el.options!.push(t);
          s.optionValues!.push(attrs.value ?? t);
          if (selected) s.selectedIndex = s.el.options!.length - 1;
        },
      });
    } else if (tag === 'textarea') {
      const c = add('textbox', tag, attrs, 'textarea');
      c.labelId = attrs.id;
      if (attrs['aria-label']) c.el.name = attrs['aria-label'];
      captures.push({ tag, text: '', onClose: () => undefined });
      // The raw text (not whitespace-collapsed) is the initial value.
      const end = html.indexOf('</textarea>', (m.index ?? 0) + m[0].length);
      c.el.value = decode(html.slice((m.index ?? 0) + m[0].length, end));
    } else if (tag === 'label') {
      const lc = { controls: [] as Control[] };
      label = lc;
      captures.push({
        tag,
        text: '',
        onClose: (t) => {
          if (attrs.for) labelsFor.set(attrs.for, t);
          for (const c of lc.controls) if (!c.el.name) c.el.name = t;
        },
      });
    } else if (TEXT_TAGS.has(tag)) {
      const c = add(/^h\d$/.test(tag) ? 'heading' : 'text', tag, attrs);
      captures.push({ tag, text: '', onClose: (t) => (c.el.name = t) });
    }
  }
  for (const c of controls) {
    if (c.labelId && !c.el.name && labelsFor.has(c.labelId)) c.el.name = labelsFor.get(c.labelId)!;
    if (!c.el.name && c.attrs.placeholder) c.el.name = c.attrs.placeholder;
    if (c.tag === 'select') c.el.value = c.el.options![c.selectedIndex!] ?? '';
  }
  // Empty text nodes (containers whose text was all inside links) carry nothing.
  return { title, controls: controls.filter((c) => c.el.role !== 'text' || c.el.name), forms };
}

/** Parse `name('a', "b", 3)` into its name and arguments. */
export function parseAction(action: string): { name: string; args: Array<string | number> } | null {
  const m = action.trim().match(/^([a-z_]+)\(([\s\S]*)\)$/);
  if (!m) return null;
  const args: Array<string | number> = [];
  const re = /\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(-?\d+(?:\.\d+)?))\s*(,|$)/gy;
  let rest = m[2];
  if (rest.trim() === '') return { name: m[1], args };
  let mm: RegExpExecArray | null;
  let last = 0;
  while (last < rest.length && (mm = re.exec(rest))) {
    if (mm[3] !== undefined) args.push(Number(mm[3]));
    else args.push((mm[1] ?? mm[2]).replace(/\\(.)/g, '$1'));
    last = re.lastIndex;
    if (!mm[4]) break;
  }
  rest = rest.slice(last);
  if (rest.trim()) return null;
  return { name: m[1], args };
}

export interface MiniStep {
  error: string | null;
  done: boolean;
}

export class MiniBrowser {
  url = '';
  title = '';
  status = 0;
  html = '';
  private controls: Control[] = [];
  private forms: FormInfo[] = [];
  private history: string[] = [];

  /** `messages` is the instance's ctx.agentMessages, which the real environment fills in too. */
  constructor(private readonly messages: string[] = []) {}

  async goto(url: string, init?: RequestInit, pushHistory = true): Promise<void> {
    if (pushHistory && this.url) this.history.push(this.url);
    const res = await fetch(url, { redirect: 'follow', ...init });
    this.status = res.status;
    this.url = res.url;
    this.html = await res.text();
    const page = parsePage(this.html);
    this.title = page.title;
    this.controls = page.controls;
    this.forms = page.forms;
  }

  observe(instruction = ''): Observation {
    return {
      url: this.url,
      title: this.title,
      instruction,
      elements: this.controls.filter((c) => c.el.id).map((c) => ({ ...c.el, ...(c.el.options ? { options: [...c.el.options] } : {}) })),
      lastActionError: null,
      messages: [...this.messages],
    };
  }

  element(id: string): Control | undefined {
    return this.controls.find((c) => c.el.id === id);
  }

  async submit(formIndex: number, submitter?: Control): Promise<void> {
    const f = this.forms[formIndex];
    const data = new URLSearchParams();
    for (const c of this.controls) {
      if (c.form !== formIndex || c.el.disabled) continue;
      const name = c.attrs.name;
      if (!name) continue;
      if (c.tag === 'input') {
        if (['submit', 'button', 'reset'].includes(c.type)) continue;
        if (c.type === 'checkbox' || c.type === 'radio') {
          if (c.el.checked === true) data.append(name, c.attrs.value ?? 'on');
        } else data.append(name, c.type === 'hidden' ? (c.attrs.value ?? '') : (c.el.value ?? ''));
      } else if (c.tag === 'select') data.append(name, c.optionValues![c.selectedIndex!] ?? '');
      else if (c.tag === 'textarea') data.append(name, c.el.value ?? '');
    }
    if (submitter?.attrs.name) data.append(submitter.attrs.name, submitter.attrs.value ?? '');
    // A submitter's formaction/formmethod override the form's, as in HTML.
    const action = new URL(submitter?.attrs.formaction || f.action || this.url, this.url);
    const method = (submitter?.attrs.formmethod || f.method).toLowerCase();
    if (method === 'post') {
      await this.goto(action.href, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: data.toString() });
    } else {
      action.search = data.toString();
      await this.goto(action.href);
    }
  }

  /** Execute one action string; errors are reported, not thrown, as the real environment does. */
  async step(action: string): Promise<MiniStep> {
    const a = parseAction(action);
    if (!a) return { error: 'malformed_action', done: false };
    const el = typeof a.args[0] === 'string' ? this.element(a.args[0]) : undefined;
    const needEl = ['click', 'fill', 'select_option', 'press'].includes(a.name);
    if (needEl && !el) return { error: 'unknown_element', done: false };
    if (needEl && el!.el.disabled) return { error: 'element_not_interactable', done: false };
    switch (a.name) {
      case 'click': {
        const c = el!;
        if (c.el.role === 'link') await this.goto(new URL(c.attrs.href, this.url).href);
        else if (c.el.role === 'checkbox') c.el.checked = c.el.checked !== true;
        else if (c.el.role === 'radio') {
          for (const o of this.controls) if (o.type === 'radio' && o.form === c.form && o.attrs.name === c.attrs.name) o.el.checked = false;
          c.el.checked = true;
        } else if (c.el.role === 'button' && c.type === 'submit' && c.form >= 0) await this.submit(c.form, c);
        return { error: null, done: false };
      }
      case 'fill': {
        const c = el!;
        if (!['textbox', 'searchbox', 'spinbutton'].includes(c.el.role)) return { error: 'element_not_interactable', done: false };
        c.el.value = String(a.args[1] ?? '');
        return { error: null, done: false };
      }
      case 'select_option': {
        const c = el!;
        if (c.tag !== 'select') return { error: 'element_not_interactable', done: false };
        const want = String(a.args[1]);
        let i = c.el.options!.indexOf(want);
        if (i < 0) i = c.optionValues!.indexOf(want);
        if (i < 0) return { error: 'invalid_argument', done: false };
        c.selectedIndex = i;
        c.el.value = c.el.options![i];
        return { error: null, done: false };
      }
      case 'press': {
        const c = el!;
        if (a.args[1] === 'Enter' && c.tag === 'input' && c.form >= 0) await this.submit(c.form);
        return { error: null, done: false };
      }
      case 'go_back': {
        const prev = this.history.pop();
        if (prev) await this.goto(prev, undefined, false);
        return { error: null, done: false };
      }
      case 'goto':
        await this.goto(String(a.args[0]));
        return { error: null, done: false };
      case 'scroll':
      case 'noop':
        return { error: null, done: false };
      case 'send_msg_to_user':
        this.messages.push(String(a.args[0] ?? ''));
        return { error: null, done: true };
      case 'report_infeasible':
        return { error: null, done: true };
      default:
        return { error: 'malformed_action', done: false };
    }
  }

  /** Find an element by role and accessible name (exact, case-insensitive; or a RegExp). */
  find(role: string, name: string | RegExp): PageElement {
    const els = this.observe().elements;
    const hit = els.find((e) => e.role === role && (typeof name === 'string' ? e.name.toLowerCase() === name.toLowerCase() : name.test(e.name)));
    if (!hit) throw new Error(`no ${role} named ${String(name)} on ${this.url}; have: ${els.filter((e) => e.role !== 'text').map((e) => `${e.role}:${e.name}`).join(' | ')}`);
    return hit;
  }

  has(role: string, name: string | RegExp): boolean {
    return this.observe().elements.some((e) => e.role === role && (typeof name === 'string' ? e.name.toLowerCase() === name.toLowerCase() : name.test(e.name)));
  }

  /** The page's visible text, tags stripped, for assertions about messages shown. */
  text(): string {
    return this.observe().elements.map((e) => e.name).join('\n');
  }

  private async must(action: string): Promise<void> {
    const r = await this.step(action);
    if (r.error) throw new Error(`${action} failed: ${r.error}`);
  }
  click(role: string, name: string | RegExp): Promise<void> {
    return this.must(`click('${this.find(role, name).id}')`);
  }
  fill(role: string, name: string | RegExp, value: string): Promise<void> {
    return this.must(`fill('${this.find(role, name).id}', ${JSON.stringify(value)})`);
  }
  select(name: string | RegExp, label: string): Promise<void> {
    return this.must(`select_option('${this.find('combobox', name).id}', ${JSON.stringify(label)})`);
  }
  press(role: string, name: string | RegExp, key: string): Promise<void> {
    return this.must(`press('${this.find(role, name).id}', '${key}')`);
  }
}
