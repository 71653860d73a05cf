/**
 * Oracles for MiniWoB++'s click tasks: one target named by the instruction (a button, a link word,
 * a tab, a widget kind, a file in a tree), sometimes behind something to open first (a tab, a
 * section, a menu, a folder).
 */
import type { Observation, PageElement } from '../../../environment/types.ts';
import { byRole, centre, click, named, oracle, quoted, stuck, visible, wait, type OracleMaker } from './base.ts';

/** The instruction's one quoted target, or the word after a lead-in: `Click button ONE.` -> ONE. */
export function clickTarget(instruction: string): string | undefined {
  return quoted(instruction)[0] ?? /\bbutton\s+(\S+?)\.?$/i.exec(instruction.trim())?.[1];
}

/** Buttons in the order `Click button ONE, then click button TWO.` names them. */
export function buttonSequence(instruction: string): string[] {
  return [...instruction.matchAll(/button\s+([A-Z0-9]+)/g)].map((m) => m[1]);
}

/**
 * A link word of the page, by its exact text: the pages compare the clicked word's text with the
 * target's, so "nulla," is not "nulla." (both may be links).
 */
function linkWord(obs: Observation, word: string): PageElement | undefined {
  return byRole(obs, 'generic', 'link').find((e) => e.name === word.trim());
}

const clickNamedButton = oracle((obs) => {
  const target = clickTarget(obs.instruction);
  const b = target === undefined ? undefined : named(obs, ['button'], target);
  return b ? click(b, `The instruction names the "${target}" button.`) : stuck(`no button "${target}" on the page`);
});

const clickButtonSequence = oracle<{ done: number }>(
  (obs, mem) => {
    const order = buttonSequence(obs.instruction);
    const name = order[mem.done];
    const b = name === undefined ? undefined : named(obs, ['button'], name);
    if (!b) return stuck(`no button ${name} on the page`);
    mem.done++;
    return click(b, `Button ${name} is number ${mem.done} of ${order.length} in the order asked.`);
  },
  () => ({ done: 0 }),
);

const clickTest = oracle((obs) => {
  const b = byRole(obs, 'button')[0];
  return b ? click(b, 'The page has one button; click it.') : stuck('no button on the page');
});

const clickLink = oracle((obs) => {
  const word = quoted(obs.instruction)[0];
  const link = word === undefined ? undefined : linkWord(obs, word);
  return link ? click(link, `"${word}" is a link in the text.`) : stuck(`no link "${word}" in the text`);
});

/** click-dialog: the dialog's close button (the "x", named Close); click-dialog-2: the button labelled as asked. */
const clickDialog = oracle((obs) => {
  const label = quoted(obs.instruction)[0] ?? 'x';
  const want = label.toLowerCase() === 'x' ? 'Close' : label;
  const b = named(obs, ['button'], want);
  return b ? click(b, `The dialog's "${label}" button is named ${b.name}.`) : stuck(`no "${label}" button in the dialog`);
});

const clickTab = oracle((obs) => {
  const tab = /Tab #?\d+/i.exec(obs.instruction)?.[0];
  const t = tab && (named(obs, ['link'], tab) ?? named(obs, ['tab'], tab));
  return t ? click(t, `Open ${tab}.`) : stuck(`no ${tab} on the page`);
});

/**
 * Pages that hide the target behind one of several panels (tabs, accordion sections): click the
 * link word when it shows, else open the next panel not yet opened. `panels` lists the openers;
 * `slides` says the panels animate open (an accordion), so a word is clicked once it stays put.
 */
function searchPanels(panels: (obs: Observation) => PageElement[], slides = false): OracleMaker {
  return oracle<{ opened: string[]; waited: number; seen?: string }>(
    (obs, mem) => {
      const word = quoted(obs.instruction)[0];
      if (word === undefined) return stuck('the instruction names no link');
      const link = linkWord(obs, word);
      // A section slides open and moves its words: click once the word stays where it was seen.
      const at = link && `${link.id}@${link.box.x},${link.box.y}`;
      if (slides && link && at !== mem.seen && mem.opened.length && mem.waited++ < 3) {
        mem.seen = at;
        return wait(200, `"${word}" shows; let the panel settle.`);
      }
      if (link) return click(link, `"${word}" shows in the open panel.`);
      const next = panels(obs).find((p) => !mem.opened.includes(p.id));
      if (next) {
        mem.opened.push(next.id);
        mem.waited = 0;
        return click(next, `"${word}" is not in view: open ${next.name || 'the next panel'}.`);
      }
      // A section still opening (the accordion animates): look again before giving up.
      if (mem.waited++ < 3) return wait(300, 'The panel may still be opening.');
      return stuck(`"${word}" is in no panel`);
    },
    () => ({ opened: [], waited: 0 }),
  );
}

const tabLinks = (obs: Observation) => byRole(obs, 'link').filter((l) => byRole(obs, 'tab').some((t) => t.name === l.name));
const sectionHeaders = (obs: Observation) => byRole(obs, 'tab').filter((t) => t.tag !== 'p');

const clickCollapsible = oracle<{ opened: boolean; waited: number; lastY?: number }>(
  (obs, mem) => {
    const submit = named(obs, ['button'], 'Submit');
    // The section slides open and moves the button with it: click once it has stopped moving.
    if (mem.opened && submit && submit.box.y !== mem.lastY && mem.waited++ < 5) {
      mem.lastY = submit.box.y;
      return wait(200, 'The section is still opening.');
    }
    if (mem.opened && submit) return click(submit, 'The section is open; submit.');
    const header = sectionHeaders(obs)[0];
    if (!mem.opened && header) {
      mem.opened = true;
      return click(header, 'Expand the section first.');
    }
    if (mem.waited++ < 3) return wait(300, 'The section is still opening.');
    return stuck('the section shows no Submit button');
  },
  () => ({ opened: false, waited: 0 }),
);

/** click-widget's kinds, as the element list shows them. */
const WIDGET_KINDS: Record<string, (e: PageElement) => boolean> = {
  button: (e) => e.role === 'button',
  checkbox: (e) => e.role === 'checkbox',
  radio: (e) => e.role === 'radio',
  text: (e) => e.role === 'textbox' && e.tag === 'input',
  textarea: (e) => e.tag === 'textarea',
};

const clickWidget = oracle((obs) => {
  const kind = quoted(obs.instruction)[0] ?? '';
  const is = WIDGET_KINDS[kind];
  const w = is && visible(obs).find(is);
  return w ? click(w, `A "${kind}" widget is a ${w.tag} (${w.role}).`) : stuck(`no "${kind}" widget on the page`);
});

/** `the 2nd input textbox` -> 2; `the textbox` -> 1. */
export function ordinal(instruction: string): number {
  const m = /\b(\d+)(?:st|nd|rd|th)\b/.exec(instruction);
  return m ? Number(m[1]) : 1;
}

const focusText = oracle((obs) => {
  const n = ordinal(obs.instruction);
  // The boxes are numbered top to bottom, as the page shows them.
  const boxes = byRole(obs, 'textbox').sort((a, b) => a.box.y - b.box.y);
  const box = boxes[n - 1];
  return box ? click(box, `Textbox number ${n} from the top.`) : stuck(`no textbox number ${n}`);
});

/** identify-shape: the figure is a letter, a digit, or an SVG circle, rect or polygon (a triangle). */
const identifyShape = oracle((obs) => {
  const buttons = byRole(obs, 'button');
  const figure = visible(obs).find((e) => ['text', 'circle', 'rect', 'polygon'].includes(e.tag));
  if (!figure) return stuck('no figure on the page');
  const kind =
    figure.tag === 'text' ? (/^\d$/.test(figure.name.trim()) ? 'Number' : 'Letter') : figure.tag === 'circle' ? 'Circle' : figure.tag === 'rect' ? 'Rectangle' : 'Triangle';
  const b = buttons.find((x) => x.name === kind);
  return b ? click(b, `The figure is an SVG ${figure.tag}${figure.tag === 'text' ? ` "${figure.name}"` : ''}: a ${kind.toLowerCase()}.`) : stuck(`no ${kind} button`);
});

/**
 * grid-coordinate: the axes' tick labels say where each coordinate is on screen; the point is the
 * circle nearest to the tick of x on the horizontal axis and of y on the vertical one.
 */
export function parseCoordinate(instruction: string): [number, number] | undefined {
  const m = /\((-?\d+)\s*,\s*(-?\d+)\)/.exec(instruction);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

const gridCoordinate = oracle((obs) => {
  const at = parseCoordinate(obs.instruction);
  if (!at) return stuck('no coordinate in the instruction');
  const circles = byRole(obs, 'graphics-symbol', 'generic').filter((e) => e.tag === 'circle');
  const ticks = byRole(obs, 'text').filter((t) => /^-?\d+$/.test(t.name.trim()));
  const origin = ticks.find((t) => t.name.trim() === '0');
  if (!origin || !circles.length) return stuck('no grid on the page');
  const o = centre(origin);
  // Tick labels of the horizontal axis sit on the origin's row; those of the vertical one do not.
  const onX = ticks.filter((t) => Math.abs(centre(t).y - o.y) < 4 && t !== origin);
  const onY = ticks.filter((t) => Math.abs(centre(t).y - o.y) >= 4);
  const tick = (list: PageElement[], v: number) => list.find((t) => Number(t.name.trim()) === v);
  // The origin's own label sits beside the centre: its column and row come from circles' spacing.
  const cols = [...new Set(circles.map((c) => centre(c).x))].sort((a, b) => a - b);
  const rows = [...new Set(circles.map((c) => centre(c).y))].sort((a, b) => a - b);
  const nearest = (list: number[], v: number) => list.reduce((best, x) => (Math.abs(x - v) < Math.abs(best - v) ? x : best), list[0]);
  const tx = tick(onX, at[0]);
  const ty = tick(onY, at[1]);
  const x = at[0] === 0 ? cols[Math.floor(cols.length / 2)] : tx && nearest(cols, centre(tx).x);
  const y = at[1] === 0 ? rows[Math.floor(rows.length / 2)] : ty && nearest(rows, centre(ty).y);
  if (x === undefined || y === undefined) return stuck(`no tick for (${at[0]},${at[1]})`);
  const c = circles.find((e) => centre(e).x === x && centre(e).y === y);
  return c ? click(c, `(${at[0]},${at[1]}) lines up with those tick labels.`) : stuck('no point there');
});

/**
 * navigate-tree: the name when it is in view, else the next closed folder's toggle (an unnamed
 * control before a folder's name).
 */
const navigateTree = oracle<{ opened: string[] }>(
  (obs, mem) => {
    const name = quoted(obs.instruction)[0];
    if (name === undefined) return stuck('the instruction names no file');
    const hit = byRole(obs, 'generic', 'treeitem', 'link').find((e) => e.name === name);
    if (hit) return click(hit, `"${name}" is in view.`);
    const toggle = byRole(obs, 'generic').find((e) => !e.name && !mem.opened.includes(e.id));
    if (!toggle) return stuck(`"${name}" is in no folder`);
    mem.opened.push(toggle.id);
    return click(toggle, `"${name}" is not in view: open the next folder.`);
  },
  () => ({ opened: [] }),
);

/** click-menu: `Select A>B>C`: hover each parent so its submenu opens, then click the leaf. */
export function menuPath(instruction: string): string[] {
  return (/^Select\s+(.+?)\.?$/.exec(instruction.trim())?.[1] ?? '').split('>').map((s) => s.trim()).filter(Boolean);
}

const clickMenu = oracle<{ at: number; waited: number }>(
  (obs, mem) => {
    const path = menuPath(obs.instruction);
    // The deepest item of the path in view: hover it if it is a parent, click it if it is the leaf.
    for (let k = path.length - 1; k >= 0; k--) {
      const item = named(obs, ['menuitem'], path[k]);
      if (!item) continue;
      if (k === path.length - 1) return click(item, `${path[k]} is the item asked for.`);
      if (mem.at <= k) {
        mem.at = k + 1;
        mem.waited = 0;
        return { thought: `Open ${path[k]}'s submenu.`, action: `hover('${item.id}')` };
      }
      if (mem.waited++ < 3) return wait(300, 'The submenu is still opening.');
      return stuck(`${path[k + 1]} does not show under ${path[k]}`);
    }
    return stuck(`no ${path[0]} in the menu`);
  },
  () => ({ at: 0, waited: 0 }),
);

/**
 * click-pie: the menu opens from its centre "+" and its items grow from a point to full size as it
 * does; an item is clicked once it shows at full size.
 */
const clickPie = oracle<{ opened: boolean; waited: number }>(
  (obs, mem) => {
    const label = quoted(obs.instruction)[0];
    if (label === undefined) return stuck('the instruction names no item');
    const item = byRole(obs, 'generic').find((e) => e.tag === 'text' && e.name === label && e.box.height >= 10);
    if (item) return click(item, `"${label}" shows in the open menu.`);
    const plus = byRole(obs, 'generic').find((e) => e.tag === 'text' && e.name === '+');
    if (!mem.opened && plus) {
      mem.opened = true;
      return click(plus, 'Open the pie menu at its centre.');
    }
    if (mem.waited++ < 5) return wait(300, 'The menu is still opening.');
    return stuck(`no item "${label}" in the menu`);
  },
  () => ({ opened: false, waited: 0 }),
);

export const CLICK_ORACLES: Record<string, OracleMaker> = {
  'click-test': clickTest,
  'click-test-2': clickNamedButton,
  'click-test-transfer': clickNamedButton,
  'click-button': clickNamedButton,
  'unicode-test': clickNamedButton,
  'click-button-sequence': clickButtonSequence,
  'click-link': clickLink,
  'click-dialog': clickDialog,
  'click-dialog-2': clickDialog,
  'click-tab': clickTab,
  'click-tab-2': searchPanels(tabLinks),
  'click-tab-2-easy': searchPanels(tabLinks),
  'click-tab-2-medium': searchPanels(tabLinks),
  'click-tab-2-hard': searchPanels(tabLinks),
  'click-collapsible': clickCollapsible,
  'click-collapsible-nodelay': clickCollapsible,
  'click-collapsible-2': searchPanels(sectionHeaders, true),
  'click-collapsible-2-nodelay': searchPanels(sectionHeaders),
  'click-widget': clickWidget,
  'focus-text': focusText,
  'focus-text-2': focusText,
  'identify-shape': identifyShape,
  'grid-coordinate': gridCoordinate,
  'navigate-tree': navigateTree,
  'click-menu': clickMenu,
  'click-pie': clickPie,
  'click-pie-nodelay': clickPie,
};
