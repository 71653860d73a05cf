/**
 * A jQuery UI date picker, as choose-date and book-flight use it: a read-only field that opens a
 * month calendar with Prev / Next links and a link per day. The oracle reads the calendar's title
 * (`December 2016`), steps to the month, clicks the day, and knows it is done when the field
 * reads the date.
 */
import type { Observation, PageElement } from '../../../environment/types.ts';
import { byRole, click, named, press, stuck, visible, wait, type Step } from './base.ts';

export interface PickedDate {
  month: number;
  day: number;
  year: number;
}

/** `Select 10/26/2016 as the date` -> {month: 10, day: 26, year: 2016}. */
export function slashDate(text: string): PickedDate | undefined {
  const m = /(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(text);
  return m ? { month: Number(m[1]), day: Number(m[2]), year: Number(m[3]) } : undefined;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** A calendar's month title, `December 2016` -> months since year 0; undefined for other text. */
export function monthTitle(text: string): number | undefined {
  const m = /^([A-Za-z]+)\s+(\d{4})$/.exec(text.trim());
  const k = m ? MONTHS.indexOf(m[1].toLowerCase()) : -1;
  return m && k >= 0 ? Number(m[2]) * 12 + k : undefined;
}

export interface PickerMemory {
  opened: boolean;
  jumped: boolean;
  /** The month shown when the oracle last stepped, to notice a month still sliding in. */
  shown?: number;
  waited: number;
}
export const pickerMemory = (): PickerMemory => ({ opened: false, jumped: false, waited: 0 });

/** The field as the picker writes a date: 10/26/2016. */
export function pickerText(d: PickedDate): string {
  return `${String(d.month).padStart(2, '0')}/${String(d.day).padStart(2, '0')}/${d.year}`;
}

/** The next step towards the date in the field, or undefined once the field reads it. */
export function pickDate(obs: Observation, mem: PickerMemory, input: PageElement, want: PickedDate): Step | undefined {
  const title = visible(obs).map((e) => monthTitle(e.name)).find((m) => m !== undefined);
  // Done, even while the calendar slides shut: a button it still covers is pressed from the
  // keyboard (base.ts), which costs no more than waiting for it.
  if (input.value === pickerText(want)) return undefined;
  if (title === undefined) {
    if (!mem.opened) {
      mem.opened = true;
      return click(input, 'Open the date picker.');
    }
    if (mem.waited++ < 5) return wait(300, 'The calendar is still opening.');
    return stuck('the date picker does not open');
  }
  const target = want.year * 12 + (want.month - 1);
  if (title !== target) {
    // The month just asked for has not slid in yet: look again rather than step twice.
    if (mem.shown === title && mem.waited++ < 5) return wait(300, 'The calendar is still changing month.');
    mem.shown = title;
    mem.waited = 0;
    // Far back: the picker's Ctrl+PageUp goes a year back and stops at its first month.
    if (title - target > 5 && !mem.jumped) {
      mem.jumped = true;
      return press(input, 'Control+PageUp', 'The month is far back: jump a year (the picker stops at its first month).');
    }
    const go = named(obs, ['link', 'button'], title > target ? 'Prev' : 'Next');
    return go ? click(go, `The calendar shows another month: ${go.name}.`) : stuck('no way to the month asked for');
  }
  const day = byRole(obs, 'link').find((l) => l.name.trim() === String(want.day));
  if (!day) return stuck(`no day ${want.day} in the calendar`);
  mem.waited = 0;
  return click(day, `Pick day ${want.day}.`);
}
