/**
 * BrowserGym-style action strings: parse and validate. `click('12')`, `fill('7', 'Boston')`, ...
 * A policy's output may carry a thought before the action; `extractAction` finds the action part.
 * Coordinates (`mouse_click(120, 48)`) are CSS pixels from the viewport's top-left corner, the
 * frame of the element boxes and of a screenshot taken at full size. Which actions an environment
 * allows is a matter of action sets (./action-sets.ts).
 */

export type MouseButton = 'left' | 'right' | 'middle';

export type Action =
  | { type: 'click'; id: string; button: MouseButton }
  | { type: 'dblclick'; id: string }
  | { type: 'hover'; id: string }
  | { type: 'focus'; id: string }
  | { type: 'fill'; id: string; text: string }
  | { type: 'clear'; id: string }
  | { type: 'select_option'; id: string; options: string[] }
  | { type: 'check'; id: string }
  | { type: 'uncheck'; id: string }
  | { type: 'press'; id: string; key: string }
  | { type: 'keyboard_press'; key: string }
  | { type: 'scroll'; dx: number; dy: number }
  | { type: 'go_back' }
  | { type: 'go_forward' }
  | { type: 'goto'; url: string }
  | { type: 'noop'; ms: number }
  | { type: 'send_msg_to_user'; text: string }
  | { type: 'report_infeasible'; reason: string }
  | { type: 'mouse_move'; x: number; y: number }
  | { type: 'mouse_click'; x: number; y: number; button: MouseButton }
  | { type: 'mouse_dblclick'; x: number; y: number; button: MouseButton }
  | { type: 'mouse_down'; x: number; y: number; button: MouseButton }
  | { type: 'mouse_up'; x: number; y: number; button: MouseButton }
  | { type: 'mouse_drag_and_drop'; fromX: number; fromY: number; toX: number; toY: number }
  | { type: 'keyboard_type'; text: string };

/** Actions at viewport coordinates: the points they act at, for the environment to check against the viewport. */
export function actionPoints(a: Action): Array<{ x: number; y: number }> {
  switch (a.type) {
    case 'mouse_move':
    case 'mouse_click':
    case 'mouse_dblclick':
    case 'mouse_down':
    case 'mouse_up':
      return [{ x: a.x, y: a.y }];
    case 'mouse_drag_and_drop':
      return [{ x: a.fromX, y: a.fromY }, { x: a.toX, y: a.toY }];
    default:
      return [];
  }
}

export type ActionType = Action['type'];

type ArgKind = 'id' | 'string' | 'number' | 'strings';
interface Signature {
  args: ArgKind[];
  /** How many trailing args may be left out. */
  optional?: number;
  build: (a: any[]) => Action;
}

function mouseButton(action: string, button: string): MouseButton {
  if (!['left', 'right', 'middle'].includes(button)) throw new ActionParseError(`${action} button must be left, right or middle, got '${button}'`);
  return button as MouseButton;
}

const SIGNATURES: Record<ActionType, Signature> = {
  click: { args: ['id', 'string'], optional: 1, build: ([id, button = 'left']) => ({ type: 'click', id, button: mouseButton('click', button) }) },
  dblclick: { args: ['id'], build: ([id]) => ({ type: 'dblclick', id }) },
  hover: { args: ['id'], build: ([id]) => ({ type: 'hover', id }) },
  focus: { args: ['id'], build: ([id]) => ({ type: 'focus', id }) },
  fill: { args: ['id', 'string'], build: ([id, text]) => ({ type: 'fill', id, text }) },
  clear: { args: ['id'], build: ([id]) => ({ type: 'clear', id }) },
  select_option: { args: ['id', 'strings'], build: ([id, options]) => ({ type: 'select_option', id, options }) },
  check: { args: ['id'], build: ([id]) => ({ type: 'check', id }) },
  uncheck: { args: ['id'], build: ([id]) => ({ type: 'uncheck', id }) },
  press: { args: ['id', 'string'], build: ([id, key]) => ({ type: 'press', id, key }) },
  keyboard_press: { args: ['string'], build: ([key]) => ({ type: 'keyboard_press', key }) },
  scroll: { args: ['number', 'number'], build: ([dx, dy]) => ({ type: 'scroll', dx, dy }) },
  go_back: { args: [], build: () => ({ type: 'go_back' }) },
  go_forward: { args: [], build: () => ({ type: 'go_forward' }) },
  goto: { args: ['string'], build: ([url]) => ({ type: 'goto', url }) },
  noop: { args: ['number'], optional: 1, build: ([ms = 1000]) => ({ type: 'noop', ms }) },
  send_msg_to_user: { args: ['string'], build: ([text]) => ({ type: 'send_msg_to_user', text }) },
  report_infeasible: { args: ['string'], build: ([reason]) => ({ type: 'report_infeasible', reason }) },
  mouse_move: { args: ['number', 'number'], build: ([x, y]) => ({ type: 'mouse_move', x, y }) },
  mouse_click: { args: ['number', 'number', 'string'], optional: 1, build: ([x, y, b = 'left']) => ({ type: 'mouse_click', x, y, button: mouseButton('mouse_click', b) }) },
  mouse_dblclick: { args: ['number', 'number', 'string'], optional: 1, build: ([x, y, b = 'left']) => ({ type: 'mouse_dblclick', x, y, button: mouseButton('mouse_dblclick', b) }) },
  mouse_down: { args: ['number', 'number', 'string'], optional: 1, build: ([x, y, b = 'left']) => ({ type: 'mouse_down', x, y, button: mouseButton('mouse_down', b) }) },
  mouse_up: { args: ['number', 'number', 'string'], optional: 1, build: ([x, y, b = 'left']) => ({ type: 'mouse_up', x, y, button: mouseButton('mouse_up', b) }) },
  mouse_drag_and_drop: {
    args: ['number', 'number', 'number', 'number'],
    build: ([fromX, fromY, toX, toY]) => ({ type: 'mouse_drag_and_drop', fromX, fromY, toX, toY }),
  },
  keyboard_type: { args: ['string'], build: ([text]) => ({ type: 'keyboard_type', text }) },
};

export const ACTION_TYPES = Object.keys(SIGNATURES) as ActionType[];

/** Whether an action's first argument is an element id (click, fill, select_option, ...). */
export function takesElement(type: ActionType): boolean {
  return SIGNATURES[type].args[0] === 'id';
}

export class ActionParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ActionParseError';
  }
}

type Token =
  | { kind: 'name'; text: string; at: number }
  | { kind: 'string'; value: string; at: number }
  | { kind: 'number'; value: number; at: number }
  | { kind: 'punct'; text: '(' | ')' | ',' | '[' | ']' | '='; at: number };

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
    } else if (/[A-Za-z_]/.test(c)) {
      const start = i;
      while (i < src.length && /[A-Za-z0-9_]/.test(src[i])) i++;
      tokens.push({ kind: 'name', text: src.slice(start, i), at: start });
    } else if (/[-+0-9.]/.test(c)) {
      const m = src.slice(i).match(/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/);
      if (!m) throw new ActionParseError(`unexpected '${c}' at column ${i + 1}`);
      tokens.push({ kind: 'number', value: Number(m[0]), at: i });
      i += m[0].length;
    } else if (c === '"' || c === "'") {
      const start = i;
      let value = '';
      i++;
      for (;;) {
        if (i >= src.length) throw new ActionParseError(`unterminated string starting at column ${start + 1}`);
        const d = src[i];
        if (d === c) {
          i++;
          break;
        }
        if (d === '\\') {
          const e = src[i + 1];
          if (e === undefined) throw new ActionParseError(`unterminated string starting at column ${start + 1}`);
          value += e === 'n' ? '\n' : e === 't' ? '\t' : e === 'r' ? '\r' : e;
          i += 2;
        } else {
          value += d;
          i++;
        }
      }
      tokens.push({ kind: 'string', value, at: start });
    } else if ('(),[]='.includes(c)) {
      tokens.push({ kind: 'punct', text: c as '(', at: i });
      i++;
    } else {
      throw new ActionParseError(`unexpected '${c}' at column ${i + 1}`);
    }
  }
  return tokens;
}

/** Parse one action string. Throws ActionParseError naming what is wrong and where. */
export function parseAction(text: string): Action {
  const src = text.trim();
  if (!src) throw new ActionParseError('empty action');
  const tokens = tokenize(src);
  let pos = 0;
  const peek = () => tokens[pos];
  const describe = (t: Token | undefined) =>
    !t ? 'end of input' : t.kind === 'punct' || t.kind === 'name' ? `'${t.text}' at column ${t.at + 1}` : `${t.kind} at column ${t.at + 1}`;
  const expectPunct = (p: string) => {
    const t = tokens[pos];
    if (!t || t.kind !== 'punct' || t.text !== p) throw new ActionParseError(`expected '${p}' but found ${describe(t)}`);
    pos++;
  };

  const head = tokens[pos++];
  if (!head || head.kind !== 'name') throw new ActionParseError(`expected an action name but found ${describe(head)}`);
  const sig = SIGNATURES[head.text as ActionType];
  if (!sig) {
    throw new ActionParseError(`unknown action '${head.text}' (known: ${ACTION_TYPES.join(', ')})`);
  }
  expectPunct('(');
  const values: Array<string | number | string[]> = [];
  while (peek() && !(peek()!.kind === 'punct' && (peek() as any).text === ')')) {
    if (values.length) expectPunct(',');
    // Tolerate keyword arguments (button='right'), which models often write: drop the keyword.
    if (peek()?.kind === 'name' && tokens[pos + 1]?.kind === 'punct' && (tokens[pos + 1] as any).text === '=') pos += 2;
    const t = tokens[pos];
    if (t?.kind === 'punct' && t.text === '[') {
      pos++;
      const list: string[] = [];
      while (!(peek()?.kind === 'punct' && (peek() as any).text === ']')) {
        if (list.length) expectPunct(',');
        const item = tokens[pos++];
        if (!item || item.kind !== 'string') throw new ActionParseError(`expected a string in the list but found ${describe(item)}`);
        list.push(item.value);
      }
      pos++;
      values.push(list);
    } else if (t?.kind === 'string' || t?.kind === 'number') {
      values.push(t.value);
      pos++;
    } else {
      throw new ActionParseError(`expected an argument but found ${describe(t)}`);
    }
  }
  expectPunct(')');
  if (pos !== tokens.length) throw new ActionParseError(`unexpected ${describe(tokens[pos])} after the action`);

  const min = sig.args.length - (sig.optional ?? 0);
  if (values.length < min || values.length > sig.args.length) {
    const want = min === sig.args.length ? `${min}` : `${min} to ${sig.args.length}`;
    throw new ActionParseError(`${head.text} takes ${want} argument(s), got ${values.length}`);
  }
  const args = values.map((v, i) => coerce(head.text, i, sig.args[i], v));
  return sig.build(args);
}

function coerce(action: string, index: number, kind: ArgKind, v: string | number | string[]): unknown {
  const where = `${action} argument ${index + 1}`;
  switch (kind) {
    case 'id':
      // Element ids are strings; accept a bare number too (click(12)).
      if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return String(v);
      // A cross-origin frame's ids carry its letters (`a12`, ./remote-frames.ts).
      if (typeof v === 'string' && /^[a-z]*\d+$/.test(v)) return v;
      throw new ActionParseError(`${where} must be an element id like '12' (or 'a12' inside a frame of another site), got ${JSON.stringify(v)}`);
    case 'string':
      if (typeof v === 'string') return v;
      if (typeof v === 'number') return String(v);
      throw new ActionParseError(`${where} must be a string, got a list`);
    case 'number':
      if (typeof v === 'number' && Number.isFinite(v)) return v;
      throw new ActionParseError(`${where} must be a number, got ${JSON.stringify(v)}`);
    case 'strings':
      if (typeof v === 'string') return [v];
      if (Array.isArray(v) && v.length) return v;
      throw new ActionParseError(`${where} must be a string or a non-empty list of strings`);
  }
}

/**
 * Find the action in a policy's output: the last line that parses as an action, or a fenced
 * ```action block. Returns the thought (everything before it) and the action text.
 */
export function extractAction(output: string): { thought: string; actionText: string } {
  const fenced = output.match(/```(?:action)?\s*\n?([\s\S]*?)```/);
  if (fenced) return { thought: output.slice(0, fenced.index).trim(), actionText: fenced[1].trim() };
  const lines = output.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i].trim().replace(/^action\s*:\s*/i, '');
    const m = line.match(/^([a-z_]+)\s*\(/);
    if (m && m[1] in SIGNATURES) return { thought: lines.slice(0, i).join('\n').trim(), actionText: line };
  }
  return { thought: '', actionText: output.trim() };
}

/** Canonical string for an action (what the episode records and a model is trained on). */
export function formatAction(a: Action): string {
  const q = (s: string) => JSON.stringify(s).replace(/^"|"$/g, '').replace(/\\"/g, '"').replace(/'/g, "\\'");
  const s = (x: string) => `'${q(x)}'`;
  switch (a.type) {
    case 'click':
      return a.button === 'left' ? `click(${s(a.id)})` : `click(${s(a.id)}, ${s(a.button)})`;
    case 'fill':
      return `fill(${s(a.id)}, ${s(a.text)})`;
    case 'select_option':
      return a.options.length === 1 ? `select_option(${s(a.id)}, ${s(a.options[0])})` : `select_option(${s(a.id)}, [${a.options.map(s).join(', ')}])`;
    case 'press':
      return `press(${s(a.id)}, ${s(a.key)})`;
    case 'keyboard_press':
      return `keyboard_press(${s(a.key)})`;
    case 'scroll':
      return `scroll(${a.dx}, ${a.dy})`;
    case 'goto':
      return `goto(${s(a.url)})`;
    case 'noop':
      return `noop(${a.ms})`;
    case 'send_msg_to_user':
      return `send_msg_to_user(${s(a.text)})`;
    case 'report_infeasible':
      return `report_infeasible(${s(a.reason)})`;
    case 'go_back':
    case 'go_forward':
      return `${a.type}()`;
    case 'mouse_move':
      return `mouse_move(${a.x}, ${a.y})`;
    case 'mouse_click':
    case 'mouse_dblclick':
    case 'mouse_down':
    case 'mouse_up':
      return a.button === 'left' ? `${a.type}(${a.x}, ${a.y})` : `${a.type}(${a.x}, ${a.y}, ${s(a.button)})`;
    case 'mouse_drag_and_drop':
      return `mouse_drag_and_drop(${a.fromX}, ${a.fromY}, ${a.toX}, ${a.toY})`;
    case 'keyboard_type':
      return `keyboard_type(${s(a.text)})`;
    default:
      return `${a.type}(${s(a.id)})`;
  }
}
