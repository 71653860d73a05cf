/**
 * The calendar oracle: works through the goals in order (answers last), each a small state machine
 * on the page. Every control is found by the name this instance gave it (the variant's words in
 * the state), never by a fixed label, so it stays right under every wording, order and layout.
 */
import type { AgentTurn } from '../../agent.ts';
import type { Observation } from '../../../environment/types.ts';
import { OracleAgent, act, fillIfNeeded, find, instancePath, selectIfNeeded } from '../common/oracle.ts';
import { longDate } from '../common/dates.ts';
import { timeLabel, type CalEvent, type CalGoal } from './data.ts';
import { eventLabel, navLabel, type Ctx } from './chrome.ts';
import { fieldLabel } from './pages-event.ts';
import { disturbed, goalMet, strays } from './task.ts';
import type { FormField } from './variant.ts';

/** What the event form should end up holding (notes are left as they are). */
type EventFields = Pick<CalEvent, 'title' | 'date' | 'start' | 'end' | 'location'>;

export class CalendarOracle extends OracleAgent {
  readonly name = 'oracle:calendar';
  constructor(private readonly ctx: Ctx) {
    super();
  }

  private get w() {
    return this.ctx.state.variant.words;
  }

  /** Click a link or button by its name on this site; undefined where the page has none. */
  private click(obs: Observation, role: 'link' | 'button', name: string, thought: string): AgentTurn | undefined {
    const el = find(obs, role, name);
    return el ? { thought, action: act.click(el) } : undefined;
  }

  /** One step towards the day view (or month view) of a date. */
  private towards(obs: Observation, date: string, path: string, monthOnly = false): AgentTurn {
    const w = this.w;
    const ym = date.slice(0, 7);
    const current = path.match(/^\/month\/([\d-]+)$/)?.[1];
    const step =
      (current === ym && !monthOnly ? this.click(obs, 'link', longDate(date), `Open ${longDate(date)}.`) : undefined) ??
      (current && current !== ym ? this.click(obs, 'link', current < ym ? w.nextMonth : w.prevMonth, 'Go to the right month.') : undefined) ??
      (current !== ym ? this.click(obs, 'link', navLabel(w, 'month'), 'Open the month view.') : undefined);
    return step ?? { thought: 'Open the month view.', action: act.goto(`${this.ctx.baseUrl}/month/${ym}`) };
  }

  /** Fill the event form field by field, in the order this site shows them, then save. */
  private fillForm(obs: Observation, e: EventFields): AgentTurn {
    const w = this.w;
    const step: Partial<Record<FormField, () => [string, string | null]>> = {
      title: () => ['Title.', fillIfNeeded(obs, 'textbox', fieldLabel(w, 'title'), e.title)],
      date: () => ['Date.', fillIfNeeded(obs, 'textbox', fieldLabel(w, 'date'), e.date)],
      start: () => [`Starts ${timeLabel(e.start)}.`, selectIfNeeded(obs, fieldLabel(w, 'start'), timeLabel(e.start), e.start)],
      end: () => [`Ends ${timeLabel(e.end)}.`, selectIfNeeded(obs, fieldLabel(w, 'end'), timeLabel(e.end), e.end)],
      location: () => ['Location.', fillIfNeeded(obs, 'textbox', fieldLabel(w, 'location'), e.location)],
    };
    for (const k of this.ctx.state.variant.formFields) {
      const [thought, a] = step[k]?.() ?? ['', null];
      if (a) return { thought, action: a };
    }
    return { thought: 'Save the event.', action: act.click(find(obs, 'button', w.save)!) };
  }

  /** Open an event from the month view its date is in. */
  private openEvent(obs: Observation, path: string, e: CalEvent, why = `Open ${e.title}.`): AgentTurn {
    return this.click(obs, 'link', eventLabel(this.w, e), why) ?? this.towards(obs, e.date, path, true);
  }

  private deleteEvent(obs: Observation, path: string, e: CalEvent): AgentTurn {
    const w = this.w;
    if (path === `/event/${e.id}/delete`) return { thought: 'Confirm the deletion.', action: act.click(find(obs, 'button', w.confirmDelete)!) };
    if (path === `/event/${e.id}`) return { thought: 'Delete it.', action: act.click(find(obs, 'link', w.deleteEvent)!) };
    return this.openEvent(obs, path, e);
  }

  /** An event changed or deleted by a detour, put back as it was; undefined when none needs it. */
  private restore(obs: Observation, path: string): AgentTurn | undefined {
    const s = this.ctx.state;
    const lost = disturbed(s)[0];
    if (!lost) return undefined;
    const cur = s.events.find((e) => e.id === lost.id);
    const formPath = cur ? `/event/${lost.id}/edit` : '/event/new';
    if (path === formPath) return this.fillForm(obs, lost);
    if (cur && path === `/event/${cur.id}`) return { thought: 'Put this event back as it was.', action: act.click(find(obs, 'link', this.w.editEvent)!) };
    if (cur) return this.openEvent(obs, path, cur, `Open ${cur.title} to put it back.`);
    return this.click(obs, 'link', navLabel(this.w, 'new'), `${lost.title} was deleted by mistake; add it again.`);
  }

  protected decide(obs: Observation): AgentTurn {
    const s = this.ctx.state;
    const w = this.w;
    const { path } = instancePath(obs.url);
    const isAnswer = (g: CalGoal) => g.kind === 'start_time' || g.kind === 'free_slot';
    const order = [...s.goals.filter((g) => !isAnswer(g)), ...s.goals.filter(isAnswer)];
    const byId = (id: number) => s.events.find((e) => e.id === id) ?? s.initial.find((e) => e.id === id)!;
    // Undo detours first: delete stray events, put back events changed or deleted by mistake.
    const stray = strays(s)[0];
    if (stray) return this.deleteEvent(obs, path, stray);
    const restored = this.restore(obs, path);
    if (restored) return restored;
    const g: CalGoal | undefined = order.find((x) => !goalMet(this.ctx, x));
    if (!g) return { thought: 'Everything is done.', action: act.say('Done.') };

    if (g.kind === 'free_slot') {
      if (path === `/day/${g.date}`) return { thought: `The first free hour starts at ${timeLabel(g.answer)}.`, action: act.say(`Your first free hour on ${longDate(g.date)} starts at ${timeLabel(g.answer)}.`) };
      return this.towards(obs, g.date, path);
    }
    if (g.kind === 'start_time') {
      const e = byId(g.event);
      if (path === `/event/${e.id}` || find(obs, 'link', eventLabel(w, e))) return { thought: `It starts at ${timeLabel(g.answer)}.`, action: act.say(`${e.title} starts at ${timeLabel(g.answer)}.`) };
      return this.towards(obs, e.date, path, true);
    }
    if (g.kind === 'delete') return this.deleteEvent(obs, path, byId(g.event));
    if (g.kind === 'reschedule') {
      const e = byId(g.event);
      if (path === `/event/${e.id}/edit`) {
        const orig = s.initial.find((x) => x.id === e.id)!;
        return this.fillForm(obs, { ...orig, date: g.date, start: g.start, end: g.end });
      }
      return (path === `/event/${e.id}` ? this.click(obs, 'link', w.editEvent, 'Edit it.') : undefined) ?? this.openEvent(obs, path, e);
    }
    // Create: from the day's own "new event" button, or from the navigation when a location is to be typed anyway.
    if (path === '/event/new') return this.fillForm(obs, g);
    return (
      (path === `/day/${g.date}` ? this.click(obs, 'link', w.newOnDay, 'Add the event on this day.') : undefined) ??
      (g.location ? this.click(obs, 'link', navLabel(w, 'new'), 'Create a new event.') : undefined) ??
      this.towards(obs, g.date, path)
    );
  }
}
