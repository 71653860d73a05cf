/**
 * book-flight: `Book the shortest one-way flight from: STS to: Medford, OR on 12/20/2016.` Type
 * each airport and take its suggestion (the field wants the whole `City, ST (CODE)`), pick the
 * date in the calendar, search, and book the cheapest or shortest of the results.
 */
import type { Observation, PageElement } from '../../../environment/types.ts';
import { byRole, click, fill, named, oracle, stuck, wait, type OracleMaker, type Step } from './base.ts';
import { pickDate, pickerMemory, slashDate, type PickedDate, type PickerMemory } from './date-picker.ts';

export interface FlightSearch {
  want: 'cheapest' | 'shortest';
  from: string;
  to: string;
  date: PickedDate;
}

export function parseFlightSearch(instruction: string): FlightSearch | undefined {
  const m = /Book the (cheapest|shortest) one-way flight from:\s*(.+?)\s+to:\s*(.+?)\s+on\s+(\d{1,2}\/\d{1,2}\/\d{4})/i.exec(instruction);
  const date = m && slashDate(m[4]);
  return m && date ? { want: m[1].toLowerCase() as FlightSearch['want'], from: m[2], to: m[3], date } : undefined;
}

/** A suggestion `Medford, OR (MFR)` fits `Medford, OR` (its city) or `MFR` (its code). */
export function airportFits(suggestion: string, text: string): boolean {
  const m = /^(.*) \(([A-Z]{3})\)$/.exec(suggestion.trim());
  return !!m && (m[1] === text || m[2] === text);
}

/** `5h 3m` -> 303 minutes. */
export function durationMinutes(text: string): number | undefined {
  const m = /(\d+)h\s*(\d+)m/.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}

interface Memory {
  picker: PickerMemory;
  /** Per airport field: typed, then its suggestion taken. */
  typed: string[];
  taken: string[];
  waited: number;
  searched: boolean;
}

/** One airport field: type the text, then click the suggestion that fits it. */
function airport(obs: Observation, mem: Memory, field: PageElement | undefined, text: string): Step | undefined {
  if (!field) return stuck('no airport field');
  if (mem.taken.includes(field.id)) return undefined;
  if (!mem.typed.includes(field.id)) {
    mem.typed.push(field.id);
    return fill(field, text, `Type ${text} and let the field suggest airports.`);
  }
  const hit = byRole(obs, 'listitem', 'menuitem', 'option').find((e) => airportFits(e.name, text));
  if (hit) {
    mem.taken.push(field.id);
    mem.waited = 0;
    return click(hit, `"${hit.name}" is ${text}.`);
  }
  if (mem.waited++ < 5) return wait(300, 'The suggestions have not appeared yet.');
  return stuck(`no airport suggestion fits ${text}`);
}

/** The results: each flight's duration and its Book button (`Book flight for $123`). */
function flights(obs: Observation): Array<{ book: PageElement; price: number; minutes: number }> {
  const out: Array<{ book: PageElement; price: number; minutes: number }> = [];
  let minutes: number | undefined;
  for (const e of obs.elements) {
    const d = e.role === 'text' ? durationMinutes(e.name) : undefined;
    if (d !== undefined) minutes = d;
    const price = e.role === 'button' ? /Book flight for \$(\d+)/.exec(e.name)?.[1] : undefined;
    if (price !== undefined && minutes !== undefined) {
      out.push({ book: e, price: Number(price), minutes });
      minutes = undefined;
    }
  }
  return out;
}

const bookFlight: OracleMaker = oracle<Memory>(
  (obs, mem) => {
    const task = parseFlightSearch(obs.instruction);
    if (!task) return stuck('the instruction is not a flight search');
    if (mem.searched) {
      const found = flights(obs);
      if (!found.length) return stuck('no flights in the results');
      const key = (f: (typeof found)[number]) => (task.want === 'cheapest' ? f.price : f.minutes);
      const best = found.reduce((a, b) => (key(b) < key(a) ? b : a));
      return click(best.book, `The ${task.want} flight: $${best.price}, ${Math.floor(best.minutes / 60)}h ${best.minutes % 60}m.`);
    }
    const from = named(obs, ['textbox'], 'From:');
    const to = named(obs, ['textbox'], 'To:');
    const step = airport(obs, mem, from, task.from) ?? airport(obs, mem, to, task.to);
    if (step) return step;
    const date = byRole(obs, 'textbox').find((e) => e !== from && e !== to);
    if (!date) return stuck('no date field');
    const picking = pickDate(obs, mem.picker, date, task.date);
    if (picking) return picking;
    const search = named(obs, ['button'], 'Search');
    if (!search) return stuck('no Search button');
    mem.searched = true;
    return click(search, 'From, to and date are in: search.');
  },
  () => ({ picker: pickerMemory(), typed: [], taken: [], waited: 0, searched: false }),
);

export const FLIGHT_ORACLES: Record<string, OracleMaker> = {
  'book-flight': bookFlight,
  'book-flight-nodelay': bookFlight,
};
