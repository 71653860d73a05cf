/**
 * Oracles for MiniWoB++'s text-entry tasks: type what the instruction quotes (sometimes changed:
 * another case, a date or time in the input's own format) into the right field, then submit.
 */
import type { Observation, PageElement } from '../../../environment/types.ts';
import { byRole, clean, click, fill, named, oracle, quoted, stuck, submitButton, visible, wait, type OracleMaker, type Step } from './base.ts';
import { pickDate, pickerMemory, slashDate, type PickerMemory } from './date-picker.ts';

const submit = (obs: Observation, thought: string, label = 'Submit'): Step => {
  const b = submitButton(obs, label);
  return b ? click(b, thought) : stuck(`no ${label} button`);
};

/**
 * Fill each field once, in order, then take the step after. A password field's value is not in
 * the observation (the accessibility tree keeps it out), so `typed` remembers which fields were
 * filled; a fill that failed is forgotten again and retried.
 */
interface Typing {
  typed: string[];
  last?: string;
}
const typing = (): Typing => ({ typed: [] });

function fillThen(obs: Observation, mem: Typing, fields: Array<[PageElement | undefined, string, string]>, then: () => Step): Step {
  if (obs.lastActionError && mem.last) mem.typed = mem.typed.filter((id) => id !== mem.last);
  mem.last = undefined;
  for (const [el, text, what] of fields) {
    if (!el) return stuck(`no field for ${what}`);
    if (mem.typed.includes(el.id) || el.value === text) continue;
    mem.typed.push(el.id);
    mem.last = el.id;
    return fill(el, text, `Type ${what}.`);
  }
  return then();
}

/** enter-text-2: `Type "anna" in all upper case letters ...` -> ANNA. */
export function textToType(instruction: string): string | undefined {
  const text = quoted(instruction)[0];
  if (text === undefined) return undefined;
  if (/all upper case/i.test(instruction)) return text.toUpperCase();
  if (/all lower case/i.test(instruction)) return text.toLowerCase();
  return text;
}

const enterText = oracle((obs, mem) => {
  const text = textToType(obs.instruction);
  if (text === undefined) return stuck('the instruction quotes no text');
  return fillThen(obs, mem, [[byRole(obs, 'textbox')[0], text, `"${text}"`]], () => submit(obs, 'The text is in; submit.'));
}, typing);

const enterPassword = oracle((obs, mem) => {
  const [password] = quoted(obs.instruction);
  const [a, b] = byRole(obs, 'textbox');
  return fillThen(obs, mem, [[a, password, 'the password'], [b, password, 'the password again']], () => submit(obs, 'Both fields hold the password; submit.'));
}, typing);

/**
 * login-user: username and password, then Login. login-user-popup may open a "session expiring"
 * box when a field takes focus; its Cancel keeps the form (OK leaves it), so that is the answer.
 */
const loginUser = oracle((obs, mem) => {
  const [user, password] = quoted(obs.instruction);
  const cancel = named(obs, ['button'], 'Cancel');
  if (cancel && visible(obs).some((e) => /exit to home page/i.test(e.name))) {
    // The popup disabled the form while a field was being typed into: type both again after it.
    mem.typed = [];
    return click(cancel, 'A popup asks to leave the page: stay.');
  }
  return fillThen(
    obs,
    mem,
    [[named(obs, ['textbox'], 'Username'), user, 'the username'], [named(obs, ['textbox'], 'Password'), password, 'the password']],
    // The login button reads Login, or OK on the popup variant's form (no popup is open by now).
    () => submit(obs, 'Username and password are in; log in.', submitButton(obs, 'Login') ? 'Login' : 'OK'),
  );
}, typing);

/** `Enter 03/19/2018 as the date` -> 2018-03-19, the value format of <input type=date>. */
export function isoDate(instruction: string): string | undefined {
  const m = /(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(instruction);
  return m ? `${m[3]}-${m[1].padStart(2, '0')}-${m[2].padStart(2, '0')}` : undefined;
}

/** `Enter 8:59 PM as the time` -> 20:59, the value format of <input type=time>. */
export function time24(instruction: string): string | undefined {
  const m = /(\d{1,2}):(\d{2})\s*([AP]M)/i.exec(instruction);
  if (!m) return undefined;
  const h = (Number(m[1]) % 12) + (m[3].toUpperCase() === 'PM' ? 12 : 0);
  return `${String(h).padStart(2, '0')}:${m[2]}`;
}

function typedInput(role: string, parse: (s: string) => string | undefined, what: string): OracleMaker {
  return oracle<{ typed: boolean }>(
    (obs, mem) => {
      const value = parse(obs.instruction);
      const input = byRole(obs, role)[0];
      if (!value || !input) return stuck(`no ${what} or no ${what} input`);
      // Date and time inputs show their value as the locale writes it: remember the typing instead.
      if (!mem.typed) {
        mem.typed = true;
        return fill(input, value, `A ${what} input takes ${value}.`);
      }
      return submit(obs, `The ${what} is in; submit.`);
    },
    () => ({ typed: false }),
  );
}

/**
 * choose-date: the field is read-only; the date goes in through its calendar (date-picker.ts),
 * then Submit.
 */
const chooseDate = oracle<PickerMemory>((obs, mem) => {
  const want = slashDate(obs.instruction);
  const input = byRole(obs, 'textbox')[0];
  if (!want || !input) return stuck('no date or no date field');
  return pickDate(obs, mem, input, want) ?? submit(obs, `The field reads ${want.month}/${want.day}/${want.year}; submit.`);
}, pickerMemory);

/** multi-layouts / multi-orderings: `Search for X movies directed by Y from year Z.` */
export function movieSearch(instruction: string): { genre: string; director: string; year: string } | undefined {
  const m = /Search for (.+?) movies directed by (.+?) from year (\d+)/i.exec(instruction);
  return m ? { genre: m[1], director: m[2], year: m[3] } : undefined;
}

/** Which movie field a label names, or undefined for text that is not a label. */
function fieldOf(label: string): 'genre' | 'director' | 'year' | undefined {
  const l = clean(label);
  if (/^(movie )?genre$/.test(l)) return 'genre';
  if (/^director( name)?$/.test(l)) return 'director';
  if (/^(year|released date)$/.test(l)) return 'year';
  return undefined;
}

/**
 * The labelled text fields, whatever the layout: a label before its field (beside or above it),
 * or, where the first field comes before the first label, a label after its field.
 */
function labelledFields(obs: Observation): Map<string, PageElement> {
  const items = visible(obs).filter((e) => e.role === 'textbox' || (e.role !== 'textbox' && fieldOf(e.name)));
  const labelsAfter = items[0]?.role === 'textbox';
  const out = new Map<string, PageElement>();
  items.forEach((e, k) => {
    if (e.role !== 'textbox') return;
    const label = labelsAfter ? items[k + 1] : items[k - 1];
    const field = label && label.role !== 'textbox' ? fieldOf(label.name) : undefined;
    if (field) out.set(field, e);
  });
  return out;
}

const movieForm = oracle((obs, mem) => {
  const want = movieSearch(obs.instruction);
  if (!want) return stuck('the instruction names no movie search');
  const fields = labelledFields(obs);
  return fillThen(
    obs,
    mem,
    [[fields.get('genre'), want.genre, 'the genre'], [fields.get('director'), want.director, 'the director'], [fields.get('year'), want.year, 'the year']],
    () => {
      const go = byRole(obs, 'button', 'generic').find((b) => /^(submit|search|go!?)$/i.test(b.name.trim()));
      return go ? click(go, 'The form is filled; search.') : stuck('no search button');
    },
  );
}, typing);

/** use-autocomplete: `starts with "Slov" and ends with "kia"` -> ['Slov', 'kia'] (the end may be absent). */
export function autocompleteBounds(instruction: string): { start: string; end?: string } | undefined {
  const start = /starts with "([^"]*)"/.exec(instruction)?.[1];
  if (start === undefined) return undefined;
  const end = /ends with "([^"]*)"/.exec(instruction)?.[1];
  return end === undefined ? { start } : { start, end };
}

const useAutocomplete = oracle<{ typed: boolean; picked: boolean; waited: number }>(
  (obs, mem) => {
    const want = autocompleteBounds(obs.instruction);
    const box = byRole(obs, 'textbox', 'combobox')[0];
    if (!want || !box) return stuck('no text field or nothing asked for');
    const fits = (s: string) => s.startsWith(want.start) && (want.end === undefined || s.endsWith(want.end));
    // A suggestion is taken even when the typed start would do: the open list covers Submit.
    if (mem.picked && fits(box.value ?? '')) return submit(obs, `"${box.value}" fits; submit.`);
    if (!mem.typed) {
      mem.typed = true;
      return fill(box, want.start, `Type "${want.start}" to see the suggestions.`);
    }
    const pick = byRole(obs, 'menuitem', 'option', 'generic', 'listitem').find((e) => fits(e.name.trim()));
    if (pick) {
      mem.picked = true;
      return click(pick, `"${pick.name}" fits the start and the end.`);
    }
    if (mem.waited++ < 5) return wait(300, 'The suggestions have not appeared yet.');
    return stuck('no suggestion fits');
  },
  () => ({ typed: false, picked: false, waited: 0 }),
);

/** `... click the 9th search result.` -> 9. */
export function resultNumber(instruction: string): number | undefined {
  const m = /\b(\d+)(?:st|nd|rd|th) search result/i.exec(instruction);
  return m ? Number(m[1]) : undefined;
}

/** search-engine shows 3 results a page; the pager's numbered links open the others. */
const RESULTS_PER_PAGE = 3;

const searchEngine = oracle<{ searched: boolean; page: number }>(
  (obs, mem) => {
    const [query] = quoted(obs.instruction);
    const n = resultNumber(obs.instruction);
    const box = byRole(obs, 'textbox')[0];
    if (query === undefined || n === undefined || !box) return stuck('no query, no result number or no search box');
    if (!mem.searched) {
      if ((box.value ?? '') !== query) return fill(box, query, `Type "${query}".`);
      mem.searched = true;
      return submit(obs, 'Search.', 'Search');
    }
    const page = Math.ceil(n / RESULTS_PER_PAGE);
    const links = byRole(obs, 'link');
    const pager = links.filter((l) => /^\d+$/.test(l.name.trim()) || /^(prev|next|first|last)$/i.test(l.name.trim()));
    const results = links.filter((l) => !pager.includes(l));
    if (mem.page !== page) {
      const to = pager.find((l) => l.name.trim() === String(page)) ?? named(obs, ['link'], 'Next');
      if (!to) return stuck(`no way to page ${page}`);
      if (/^\d+$/.test(to.name.trim())) mem.page = Number(to.name.trim());
      else mem.page++;
      return click(to, `Result ${n} is on page ${page}.`);
    }
    const r = results[(n - 1) % RESULTS_PER_PAGE];
    return r ? click(r, `Result ${n} is number ${((n - 1) % RESULTS_PER_PAGE) + 1} on page ${page}.`) : stuck(`no result ${n}`);
  },
  () => ({ searched: false, page: 1 }),
);

export const FORM_ORACLES: Record<string, OracleMaker> = {
  'enter-text': enterText,
  'enter-text-2': enterText,
  'enter-text-dynamic': enterText,
  'enter-password': enterPassword,
  'login-user': loginUser,
  'login-user-popup': loginUser,
  'enter-date': typedInput('Date', isoDate, 'date'),
  'enter-time': typedInput('InputTime', time24, 'time'),
  'choose-date': chooseDate,
  'choose-date-easy': chooseDate,
  'choose-date-medium': chooseDate,
  'choose-date-nodelay': chooseDate,
  'multi-layouts': movieForm,
  'multi-orderings': movieForm,
  'use-autocomplete': useAutocomplete,
  'use-autocomplete-nodelay': useAutocomplete,
  'search-engine': searchEngine,
};
