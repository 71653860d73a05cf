/**
 * Text in the library's own style: literals (True / true, None / null), type names, signatures
 * and example calls, and the changelog's sentences. Pages, search snippets, instructions and the
 * checker all print values through here, so what the task asks for is exactly what a page shows.
 */
import type { Style } from './vocabulary.ts';
import type { Literal, Param, ParamType } from './params.ts';
import type { ApiFunction, Change } from './library.ts';

const TYPE_NAMES: Record<Style, Record<ParamType, string>> = {
  python: { int: 'int', float: 'float', str: 'str', bool: 'bool', callable: 'Callable', dict: 'dict' },
  typescript: { int: 'number', float: 'number', str: 'string', bool: 'boolean', callable: 'Function', dict: 'object' },
};

export function typeName(type: ParamType, style: Style): string {
  return TYPE_NAMES[style][type];
}

/** A literal as code: 10, 0.5, "utf-8", True / true, None / null. */
export function literalCode(l: Literal, style: Style): string {
  switch (l.kind) {
    case 'num':
      return String(l.value);
    case 'str':
      return `"${l.value}"`;
    case 'bool':
      return style === 'python' ? (l.value ? 'True' : 'False') : String(l.value);
    case 'none':
      return style === 'python' ? 'None' : 'null';
  }
}

/** The value an answer must give: the literal without quotes ("utf-8", "10", "True"). */
export function literalAnswer(l: Literal, style: Style): string {
  return l.kind === 'str' ? l.value : literalCode(l, style);
}

export function signature(fn: ApiFunction, params: readonly Param[], style: Style): string {
  if (style === 'python') {
    const args = params.map((p) => `${p.name}: ${typeName(p.type, style)}${p.default ? ` = ${literalCode(p.default, style)}` : ''}`);
    return `${fn.id}(${args.join(', ')}) -> ${fn.returns}`;
  }
  const args = params.map((p) => `${p.name}${p.default ? '?' : ''}: ${typeName(p.type, style)}${p.default ? ` = ${literalCode(p.default, style)}` : ''}`);
  return `${fn.id}(${args.join(', ')}): ${fn.returns}`;
}

const PLACEHOLDERS: Record<ParamType, string> = { int: '7', float: '7.5', str: '"example"', bool: 'true', callable: 'handler', dict: 'payload' };

/** An example call passing the required arguments only. */
export function exampleCall(fn: ApiFunction, params: readonly Param[], style: Style): string {
  const args = params.filter((p) => !p.default).map((p) => PLACEHOLDERS[p.type]);
  const call = `${fn.id}(${args.join(', ')})`;
  return style === 'python' ? `result = ${call}` : `const result = ${call};`;
}

/** A changelog entry as a sentence; `style` picks one of three phrasings for additions. */
export function changeSentence(c: Change, style: Style, addedStyle: number): string {
  switch (c.kind) {
    case 'added':
      return [`Added ${c.fn}.`, `New function: ${c.fn}.`, `${c.fn} is new in this release.`][addedStyle];
    case 'default':
      return `Changed the default of ${c.param} in ${c.fn} from ${literalCode(c.from, style)} to ${literalCode(c.to, style)}.`;
    case 'param':
      return `Added the ${c.param} parameter to ${c.fn}.`;
    case 'deprecated':
      return `Deprecated ${c.fn}; use ${c.use} instead.`;
    case 'fixed':
      return `Fixed ${c.what} in ${c.fn}.`;
  }
}
