/**
 * Oracles for MiniWoB++'s choose-from-a-list tasks: a drop-down, a multi-select scroll list,
 * radio buttons, checkboxes and a spinner, each followed by Submit.
 */
import type { Observation } from '../../../environment/types.ts';
import { byRole, click, fill, oracle, select, stuck, submitButton, type OracleMaker, type Step } from './base.ts';

/** `Select A, B and click Submit.` / `Select A from the list and click Submit.` -> ['A', 'B']; `nothing` -> []. */
export function itemsToSelect(instruction: string): string[] {
  const m = /^Select\s+(.*?)(?:\s+from the (?:scroll )?list)?\s+and click Submit\.?$/i.exec(instruction.trim());
  if (!m) return [];
  const list = m[1].trim();
  if (list === 'nothing') return [];
  return list.split(/,\s*/).map((s) => s.trim()).filter(Boolean);
}

const submit = (obs: Observation, thought: string): Step => {
  const b = submitButton(obs);
  return b ? click(b, thought) : stuck('no Submit button');
};

const chooseList = oracle((obs) => {
  const [item] = itemsToSelect(obs.instruction);
  const list = byRole(obs, 'combobox', 'listbox')[0];
  if (!list || item === undefined) return stuck('no list or no item asked for');
  if (list.value !== item) return select(list, item, `Choose ${item} in the list.`);
  return submit(obs, `${item} is chosen; submit.`);
});

/** click-scroll-list: a multi-select; choose every item asked for at once (select_option takes several). */
const clickScrollList = oracle<{ chosen: boolean }>(
  (obs, mem) => {
    const items = itemsToSelect(obs.instruction);
    const list = byRole(obs, 'listbox')[0];
    if (!list) return stuck('no scroll list on the page');
    if (!mem.chosen) {
      mem.chosen = true;
      return { thought: `Choose ${items.join(', ')} in the scroll list.`, action: `select_option('${list.id}', [${items.map((i) => `'${i.replace(/'/g, "\\'")}'`).join(', ')}])` };
    }
    return submit(obs, 'The items are chosen; submit.');
  },
  () => ({ chosen: false }),
);

/** Checkboxes and radios: tick exactly the named ones (untick any other), then submit. */
const tickNamed = oracle((obs) => {
  const want = itemsToSelect(obs.instruction);
  for (const box of byRole(obs, 'checkbox', 'radio')) {
    const asked = want.includes(box.name.trim());
    if (asked !== (box.checked === true)) return click(box, `${asked ? 'Tick' : 'Untick'} ${box.name}.`);
  }
  return submit(obs, want.length ? `${want.join(', ')} ticked; submit.` : 'Nothing to tick; submit.');
});

/** `Select -3 with the spinner and hit Submit.` -> -3. */
export function spinnerValue(instruction: string): number | undefined {
  const m = /Select\s+(-?\d+)\s+with the spinner/i.exec(instruction);
  return m ? Number(m[1]) : undefined;
}

/**
 * use-spinner: type the number, then submit. The spinner's accessible value is its aria-valuenow,
 * which jQuery UI updates only when it spins, so the oracle remembers that it typed.
 */
const useSpinner = oracle<{ typed: boolean }>(
  (obs, mem) => {
    const n = spinnerValue(obs.instruction);
    const box = byRole(obs, 'spinbutton', 'textbox')[0];
    if (n === undefined || !box) return stuck('no number or no spinner');
    if (!mem.typed && Number(box.value ?? 'NaN') !== n) {
      mem.typed = true;
      return fill(box, String(n), `Type ${n} into the spinner.`);
    }
    return submit(obs, `The spinner holds ${n}; submit.`);
  },
  () => ({ typed: false }),
);

export const CHOICE_ORACLES: Record<string, OracleMaker> = {
  'choose-list': chooseList,
  'click-scroll-list': clickScrollList,
  'click-option': tickNamed,
  'click-checkboxes': tickNamed,
  'click-checkboxes-large': tickNamed,
  'click-checkboxes-transfer': tickNamed,
  'use-spinner': useSpinner,
};


