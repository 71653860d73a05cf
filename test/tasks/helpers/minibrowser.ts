/**
 * A tiny, script-free browser for tests. The oracles must be checked end to end over real HTTP
 * against the real task server, and Chromium is too slow to do that for every family and seed, so
 * this fetches the pages itself, derives the element list an agent would see (role, accessible
 * name, value) from the HTML, and performs BrowserGym-style actions the way an HTML form would:
 * links GET, forms serialise their controls and submit with the submitter's name/value, Enter in a
 * field submits its form. It runs no page JavaScript, so the sites must work without it (they
 * enhance progressively). parse5 builds the tree a browser would (implied end tags, entities).
 */
import assert from 'node:assert/strict';
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { parseAction, type Action } from '../../../main/environment/actions.ts';
import type { Observation, PageElement } from '../../../main/environment/types.ts';

type Element = DefaultTreeAdapterMap['element'];
type ChildNode = DefaultTreeAdapterMap['childNode'];
type ParentNode = DefaultTreeAdapterMap['parentNode'];

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

/** What an element inherits from its ancestors: its form, the controls its <label> names, its <select>. */
type Scope = { form: number; label: Control[] | null; select: Control | null };

const clean = (s: string) => s.replace(/\s+/g, ' ').trim();
const TEXT_TAGS = new Set(['p', 'li', 'td', 'dd', 'dt', 'th', 'legend', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre']);
const INPUT_ROLES: Record<string, string> = { submit: 'button', button: 'button', checkbox: 'checkbox', radio: 'radio', number: 'spinbutton', search: 'searchbox' };
const TEXT_ROLES = new Set(['textbox', 'searchbox', 'spinbutton']);
/** What a form="id" attribute can attach to a form elsewhere on the page. */
const FORM_ASSOCIATED = new Set(['input', 'select', 'textarea', 'button']);

const isElement = (n: ChildNode): n is Element => 'tagName' in n;

/** Not rendered: neither its controls nor its text are seen. */
function isSkipped(el: Element): boolean {
  if (el.tagName === 'script' || el.tagName === 'style') return true;
  return el.attrs.some((a) => a.name === 'hidden' || (a.name === 'aria-hidden' && a.value === 'true'));
}

/** Raw text content, without unrendered subtrees (nor <template> content, which is not a child). */
function textOf(node: ParentNode): string {
  return node.childNodes.map((n) => ('value' in n ? n.value : isElement(n) && !isSkipped(n) ? textOf(n) : '')).join('');
}

const nameOf = (el: Element) => clean(textOf(el));

/** Walks the parsed document depth-first, numbering elements in document order. */
class PageParser {
  private title = '';
  private readonly controls: Control[] = [];
  private readonly forms: FormInfo[] = [];
  private readonly formIds = new Map<string, number>();
  private readonly labelsFor = new Map<string, string>();
  private nextId = 1;

  walk(node: ParentNode, scope: Scope): void {
    for (const child of node.childNodes) if (isElement(child)) this.visit(child, scope);
  }

  private visit(el: Element, scope: Scope): void {
    const tag = el.tagName;
    if (tag === 'title') this.title = nameOf(el);
    if (tag === 'title' || isSkipped(el)) return;
    const attrs = Object.fromEntries(el.attrs.map((a) => [a.name, a.value]));
    if (tag === 'form') return this.walk(el, { ...scope, form: this.addForm(attrs) });
    if (tag === 'select') return this.walk(el, { ...scope, select: this.select(attrs, scope) });
    if (tag === 'label') return this.label(el, attrs, scope);
    if (tag === 'input') return this.input(attrs, scope);
    if (tag === 'option' && scope.select) this.option(el, attrs, scope.select);
    // A textarea's raw text, not whitespace-collapsed, is its initial value.
    else if (tag === 'textarea') this.field('textbox', tag, attrs, scope, 'textarea').el.value = textOf(el);
    else if (tag === 'a' && 'href' in attrs) this.add('link', tag, attrs, scope).el.name = attrs['aria-label'] ?? nameOf(el);
    else if (tag === 'button') this.button(el, attrs, scope);
    else if (TEXT_TAGS.has(tag)) this.add(/^h\d$/.test(tag) ? 'heading' : 'text', tag, attrs, scope).el.name = nameOf(el);
    this.walk(el, scope);
  }

  private add(role: string, tag: string, attrs: Record<string, string>, scope: Scope, type = ''): Control {
    const el: PageElement = { id: String(this.nextId++), role, name: '', tag, box: { x: 0, y: 0, width: 100, height: 20 }, visible: true, inViewport: true };
    if ('disabled' in attrs) el.disabled = true;
    if ('required' in attrs) el.required = true;
    if (attrs['aria-invalid'] === 'true') el.invalid = true;
    const c: Control = { el, tag, type, attrs, form: scope.form };
    this.controls.push(c);
    scope.label?.push(c);
    return c;
  }

  /** A form field, named by aria-label, else by a label (wrapping or `for=`), else by its placeholder. */
  private field(role: string, tag: string, attrs: Record<string, string>, scope: Scope, type = ''): Control {
    const c = this.add(role, tag, attrs, scope, type);
    c.labelId = attrs.id;
    c.el.name = attrs['aria-label'] ?? '';
    return c;
  }

  private button(el: Element, attrs: Record<string, string>, scope: Scope): void {
    const c = this.add('button', 'button', attrs, scope, (attrs.type ?? 'submit').toLowerCase());
    c.el.name = attrs['aria-label'] ?? nameOf(el);
    if (attrs['aria-pressed']) c.el.checked = attrs['aria-pressed'] === 'true';
  }

  private addForm(attrs: Record<string, string>): number {
    this.forms.push({ action: attrs.action ?? '', method: (attrs.method ?? 'get').toLowerCase() });
    if (attrs.id && !this.formIds.has(attrs.id)) this.formIds.set(attrs.id, this.forms.length - 1);
    return this.forms.length - 1;
  }

  /** A wrapping label names the controls inside it; a `for=` label names its target at the end. */
  private label(el: Element, attrs: Record<string, string>, scope: Scope): void {
    const inside: Control[] = [];
    this.walk(el, { ...scope, label: inside });
    const text = nameOf(el);
    if (attrs.for) this.labelsFor.set(attrs.for, text);
    for (const c of inside) c.el.name ||= text;
  }

  private input(attrs: Record<string, string>, scope: Scope): void {
    const type = (attrs.type ?? 'text').toLowerCase();
    if (type === 'hidden') {
      // Not in the element list (no id), but submitted with its form.
      const el: PageElement = { id: '', role: 'hidden', name: '', tag: 'input', box: { x: 0, y: 0, width: 0, height: 0 }, visible: false, inViewport: false };
      this.controls.push({ el, tag: 'input', type, attrs, form: scope.form });
      return;
    }
    const c = this.field(INPUT_ROLES[type] ?? 'textbox', 'input', attrs, scope, type);
    if (c.el.role === 'checkbox' || c.el.role === 'radio') c.el.checked = 'checked' in attrs;
    else if (c.el.role === 'button') c.el.name = attrs['aria-label'] || (attrs.value ?? 'Submit');
    else c.el.value = attrs.value ?? '';
  }

  private select(attrs: Record<string, string>, scope: Scope): Control {
    const c = this.field('combobox', 'select', attrs, scope);
    c.el.options = [];
    return Object.assign(c, { optionValues: [], selectedIndex: 0 });
  }

  private option(el: Element, attrs: Record<string, string>, select: Control): void {
    const label = nameOf(el);
    select.el.options!.push(label);
    select.optionValues!.push(attrs.value ?? label);
    if ('selected' in attrs) select.selectedIndex = select.el.options!.length - 1;
  }

  finish(): { title: string; controls: Control[]; forms: FormInfo[] } {
    for (const c of this.controls) {
      if (c.attrs.form !== undefined && FORM_ASSOCIATED.has(c.tag)) c.form = this.formIds.get(c.attrs.form) ?? -1;
      if (c.labelId) c.el.name ||= this.labelsFor.get(c.labelId) ?? '';
      c.el.name ||= c.attrs.placeholder ?? '';
      if (c.tag === 'select') c.el.value = c.el.options![c.selectedIndex!] ?? '';
    }
    // Empty text elements (containers whose text was all inside links) carry nothing.
    return { title: this.title, controls: this.controls.filter((c) => c.el.role !== 'text' || c.el.name), forms: this.forms };
  }
}

export function parsePage(html: string): { title: string; controls: Control[]; forms: FormInfo[] } {
  const parser = new PageParser();
  // Without scripting, <noscript> content is markup, as a browser with JavaScript off shows it.
  parser.walk(parse(html, { scriptingEnabled: false }), { form: -1, label: null, select: null });
  return parser.finish();
}

export interface MiniStep {
  error: string | null;
  done: boolean;
}

const result = (error: string | null = null, done = false): MiniStep => ({ error, done });
const matches = (e: PageElement, role: string, name: string | RegExp) =>
  e.role === role && (typeof name === 'string' ? e.name.toLowerCase() === name.toLowerCase() : name.test(e.name));

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
    ({ title: this.title, controls: this.controls, forms: this.forms } = parsePage(this.html));
  }

  /**
   * Each of an instance's pages as HTML with its own prefix written as /i/X, so that two renders
   * (two instances of one seed) compare byte for byte; every page must answer 200.
   */
  async instancePages(baseUrl: string, paths: readonly string[]): Promise<string[]> {
    const prefix = new URL(baseUrl).pathname;
    const pages: string[] = [];
    for (const path of paths) {
      await this.goto(baseUrl + path);
      assert.equal(this.status, 200, path);
      pages.push(this.html.replaceAll(prefix, '/i/X'));
    }
    return pages;
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

  /** The form's successful controls, as HTML serialises them. */
  private formData(formIndex: number): URLSearchParams {
    const data = new URLSearchParams();
    for (const c of this.controls) {
      const name = c.attrs.name;
      if (c.form !== formIndex || c.el.disabled || !name) continue;
      if (c.tag === 'input') {
        if (['submit', 'button', 'reset'].includes(c.type)) continue;
        if (c.type === 'checkbox' || c.type === 'radio') {
          if (c.el.checked === true) data.append(name, c.attrs.value ?? 'on');
        } else data.append(name, c.type === 'hidden' ? (c.attrs.value ?? '') : (c.el.value ?? ''));
      } else if (c.tag === 'select') data.append(name, c.optionValues![c.selectedIndex!] ?? '');
      else if (c.tag === 'textarea') data.append(name, c.el.value ?? '');
    }
    return data;
  }

  async submit(formIndex: number, submitter?: Control): Promise<void> {
    const data = this.formData(formIndex);
    if (submitter?.attrs.name) data.append(submitter.attrs.name, submitter.attrs.value ?? '');
    // A submitter's formaction/formmethod override the form's, as in HTML.
    const f = this.forms[formIndex];
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
    let a: Action;
    try {
      a = parseAction(action); // the environment's own parser, so both accept the same strings
    } catch {
      return result('malformed_action');
    }
    if (!('id' in a)) return this.onPage(a);
    const c = this.element(a.id);
    if (!c) return result('unknown_element');
    if (c.el.disabled) return result('element_not_interactable');
    return result(await this.onElement(a, c));
  }

  /** Returns the error, if any. */
  private async onElement(a: Extract<Action, { id: string }>, c: Control): Promise<string | null> {
    switch (a.type) {
      case 'click':
        await this.activate(c);
        return null;
      case 'fill':
        if (!TEXT_ROLES.has(c.el.role)) return 'element_not_interactable';
        c.el.value = a.text;
        return null;
      case 'select_option':
        return this.choose(c, a.options);
      case 'press':
        // Enter in a field submits its form (HTML's implicit submission).
        if (a.key === 'Enter' && c.tag === 'input' && c.form >= 0) await this.submit(c.form);
        return null;
      default:
        return 'malformed_action'; // not modelled (hover, check, ...): no oracle or random agent uses them
    }
  }

  private async onPage(a: Exclude<Action, { id: string }>): Promise<MiniStep> {
    if (a.type === 'send_msg_to_user') this.messages.push(a.text);
    if (a.type === 'send_msg_to_user' || a.type === 'report_infeasible') return result(null, true);
    if (a.type === 'goto') await this.goto(a.url);
    else if (a.type === 'go_back') {
      const prev = this.history.pop();
      if (prev) await this.goto(prev, undefined, false);
    } else if (a.type !== 'scroll' && a.type !== 'noop') return result('malformed_action'); // not modelled: go_forward, keyboard_press
    return result();
  }

  /** A click: links navigate, checkboxes toggle, a radio unchecks its group, submit buttons submit. */
  private async activate(c: Control): Promise<void> {
    const { role } = c.el;
    if (role === 'link') await this.goto(new URL(c.attrs.href, this.url).href);
    else if (role === 'checkbox') c.el.checked = c.el.checked !== true;
    else if (role === 'radio') {
      for (const o of this.controls) if (o.type === 'radio' && o.form === c.form && o.attrs.name === c.attrs.name) o.el.checked = false;
      c.el.checked = true;
    } else if (role === 'button' && c.type === 'submit' && c.form >= 0) await this.submit(c.form, c);
  }

  /** Pick an option by label, else by value; the sites' selects take one choice. */
  private choose(c: Control, options: string[]): string | null {
    if (c.tag !== 'select') return 'element_not_interactable';
    const [want] = options;
    let i = c.el.options!.indexOf(want);
    if (i < 0) i = c.optionValues!.indexOf(want);
    if (i < 0 || options.length > 1) return 'invalid_argument';
    c.selectedIndex = i;
    c.el.value = c.el.options![i];
    return null;
  }

  /** Find an element by role and accessible name (exact, case-insensitive; or a RegExp). */
  find(role: string, name: string | RegExp): PageElement {
    const els = this.observe().elements;
    const hit = els.find((e) => matches(e, role, name));
    if (!hit) throw new Error(`no ${role} named ${String(name)} on ${this.url}; have: ${els.filter((e) => e.role !== 'text').map((e) => `${e.role}:${e.name}`).join(' | ')}`);
    return hit;
  }

  has(role: string, name: string | RegExp): boolean {
    return this.observe().elements.some((e) => matches(e, role, name));
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
