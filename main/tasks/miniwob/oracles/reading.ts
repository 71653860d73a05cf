/**
 * Oracles for MiniWoB++ tasks that ask for something read off the page and typed back: a text
 * area's text, the nth word of a paragraph, a table's value, a sum, an equation's x, characters
 * drawn one by one.
 */
import type { Observation, PageElement } from '../../../environment/types.ts';
import { byRole, click, fill, oracle, stuck, submitButton, visible, type OracleMaker, type Step } from './base.ts';
import { ordinal } from './clicks.ts';

/** Type the answer into the one text input (the first that is not a text area), then Submit. */
function answer(read: (obs: Observation) => string | undefined, what: string): OracleMaker {
  return oracle<{ typed: boolean }>(
    (obs, mem): Step => {
      const text = read(obs);
      if (text === undefined) return stuck(`cannot read ${what} on the page`);
      const input = byRole(obs, 'textbox', 'spinbutton').find((e) => e.tag === 'input');
      if (!input) return stuck('no text field for the answer');
      if (!mem.typed) {
        mem.typed = true;
        return fill(input, text, `${what} reads "${text}".`);
      }
      const submit = submitButton(obs);
      return submit ? click(submit, 'The answer is in; submit.') : stuck('no Submit button');
    },
    () => ({ typed: false }),
  );
}

const textAreas = (obs: Observation): PageElement[] => byRole(obs, 'textbox').filter((e) => e.tag === 'textarea');

/** The words of a text as the pages count them: split on spaces, punctuation dropped. */
export function words(text: string): string[] {
  return text
    .split(/\s+/)
    .map((w) => w.replace(/[^a-zA-Z0-9]/g, ''))
    .filter(Boolean);
}

/** `8 + 8 =` -> 16; `6 x 7 =` -> 42; undefined for anything else. */
export function arithmetic(text: string): number | undefined {
  const m = /^\s*(-?\d+)\s*([-+x*])\s*(-?\d+)\s*=\s*$/.exec(text);
  if (!m) return undefined;
  const [a, b] = [Number(m[1]), Number(m[3])];
  return m[2] === '+' ? a + b : m[2] === '-' ? a - b : a * b;
}

/** `x + 8 = 88` -> 80; `12 - x = 5` -> 7; `x - 3 = 4` -> 7. */
export function solveForX(text: string): number | undefined {
  const t = text.replace(/\s+/g, '');
  let m = /^x([-+])(-?\d+)=(-?\d+)$/.exec(t);
  if (m) return m[1] === '+' ? Number(m[3]) - Number(m[2]) : Number(m[3]) + Number(m[2]);
  m = /^(-?\d+)([-+])x=(-?\d+)$/.exec(t);
  if (m) return m[2] === '+' ? Number(m[3]) - Number(m[1]) : Number(m[1]) - Number(m[3]);
  return undefined;
}

/** read-table: the value beside the key the instruction names (`Enter the value of Gender ...`). */
export function tableValue(obs: Observation, key: string): string | undefined {
  const cells = byRole(obs, 'cell', 'gridcell', 'rowheader', 'columnheader');
  const at = cells.findIndex((c) => c.name.trim() === key);
  return at >= 0 ? cells[at + 1]?.name.trim() : undefined;
}

export const READING_ORACLES: Record<string, OracleMaker> = {
  'copy-paste': answer((obs) => textAreas(obs)[0]?.value, 'The text area'),
  'copy-paste-2': answer((obs) => textAreas(obs)[ordinal(obs.instruction) - 1]?.value, 'That text area'),
  'find-word': answer((obs) => {
    const n = ordinal(obs.instruction);
    const para = visible(obs).find((e) => e.role === 'text' && e.tag === 'p');
    return para ? words(para.name)[n - 1] : undefined;
  }, 'That word of the paragraph'),
  'scroll-text': answer((obs) => {
    const area = textAreas(obs)[0];
    return area?.value ? words(area.value).at(-1) : undefined;
  }, 'The last word of the text area'),
  'read-table': answer((obs) => {
    const key = /value of (.+?) into/i.exec(obs.instruction)?.[1];
    return key === undefined ? undefined : tableValue(obs, key);
  }, 'The table'),
  'simple-arithmetic': answer((obs) => {
    const sum = visible(obs).map((e) => arithmetic(e.name)).find((v) => v !== undefined);
    return sum === undefined ? undefined : String(sum);
  }, 'The sum'),
  'simple-algebra': answer((obs) => {
    const x = visible(obs).map((e) => solveForX(e.name)).find((v) => v !== undefined);
    return x === undefined ? undefined : String(x);
  }, 'x'),
  // The characters are drawn one per span, each turned and sized its own way; the list reads them in order.
  'text-transform': answer((obs) => {
    const chars = byRole(obs, 'text').filter((e) => e.tag === 'span' && /^\S$/.test(e.name.trim()));
    return chars.length ? chars.map((e) => e.name.trim()).join('') : undefined;
  }, 'The drawn text'),
};
