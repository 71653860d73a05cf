/** The calendar oracle: works through the goals in order (answers last), each a small state machine on the page. */
import type { AgentTurn } from '../../agent.ts';
import type { Observation } from '../../../environment/types.ts';
import { OracleAgent, act, fillIfNeeded, find, instancePath, selectIfNeeded } from '../common/oracle.ts';
import { longDate } from '../common/dates.ts';
import { timeLabel, type CalGoal } from './data.ts';
import { eventLabel, type Ctx } from './pages.ts';
import { disturbed, goalMet, strays } from './task.ts';

export class CalendarOracle extends OracleAgent {
  readonly name = 'oracle:calendar';
  constructor(private readonly ctx: Ctx) {
    super();
  }

  /** One step towards the day view (or month view) of a date. */
  private towards(obs: Observation, date: string, path: string, monthOnly = false): AgentTurn {
    const ym = date.slice(0, 7);
    const current = path.match(/^\/month\/([\d-]+)$/)?.[1];
    if (current === ym && !monthOnly) {
      const day = find(obs, 'link', longDate(date));
      if (day) return { thought: `Open ${longDate(date)}.`, action: act.click(day) };
    }
    if (current && current !== ym) {
      const nav = find(obs, 'link', current < ym ? 'Next month' : 'Previous month');
      if (nav) return { thought: 'Go to the right month.', action: act.click(nav) };
    }
    const month = find(obs, 'link', 'This month');
    if (month && current !== ym) return { thought: 'Open the month view.', action: act.click(month) };
    return { thought: 'Open the month view.', action: act.goto(`${this.ctx.baseUrl}/month/${ym}`) };
  }

  private fillForm(obs: Observation, e: { title: string; date: string; start: string; end: string; location: string }): AgentTurn {
    const steps: Array<[string, string | null]> = [
      ['Title.', fillIfNeeded(obs, 'textbox', 'Title', e.title)],
      ['Date.', fillIfNeeded(obs, 'textbox', 'Date', e.date)],
      [`Starts ${timeLabel(e.start)}.`, selectIfNeeded(obs, 'Start time', timeLabel(e.start), e.start)],
      [`Ends ${timeLabel(e.end)}.`, selectIfNeeded(obs, 'End time', timeLabel(e.end), e.end)],
      ['Location.', fillIfNeeded(obs, 'textbox', /^Location/, e.location)],
    ];
    for (const [thought, a] of steps) if (a) return { thought, action: a };
    return { thought: 'Save the event.', action: act.click(find(obs, 'button', 'Save event')!) };
  }

  private deleteEvent(obs: Observation, path: string, id: number, byId: (id: number) => { title: string; date: string; start: string; end: string; location: string; id: number }): AgentTurn {
    const e = byId(id);
    if (path === `/event/${id}/delete`) return { thought: 'Confirm the deletion.', action: act.click(find(obs, 'button', 'Yes, delete')!) };
    if (path === `/event/${id}`) return { thought: 'Delete it.', action: act.click(find(obs, 'link', 'Delete event')!) };
    const link = find(obs, 'link', eventLabel(e as never));
    if (link) return { thought: `Open ${e.title}.`, action: act.click(link) };
    return this.towards(obs, e.date, path, true);
  }

  protected decide(obs: Observation): AgentTurn {
    const s = this.ctx.state;
    const { path } = instancePath(obs.url);
    const order = [...s.goals.filter((g) => g.kind !== 'start_time' && g.kind !== 'free_slot'), ...s.goals.filter((g) => g.kind === 'start_time' || g.kind === 'free_slot')];
    const byId = (id: number) => s.events.find((e) => e.id === id) ?? s.initial.find((e) => e.id === id)!;
    // Undo detours first: delete stray events, put back events changed or deleted by mistake.
    const stray = strays(s)[0];
    if (stray) return this.deleteEvent(obs, path, stray.id, byId);
    const lost = disturbed(s)[0];
    if (lost) {
      const cur = s.events.find((e) => e.id === lost.id);
      const formPath = cur ? `/event/${lost.id}/edit` : '/event/new';
      if (path === formPath) return this.fillForm(obs, lost);
      if (cur && path === `/event/${cur.id}`) return { thought: 'Put this event back as it was.', action: act.click(find(obs, 'link', 'Edit event')!) };
      if (cur) {
        const link = find(obs, 'link', eventLabel(cur));
        if (link) return { thought: `Open ${cur.title} to put it back.`, action: act.click(link) };
        return this.towards(obs, cur.date, path, true);
      }
      const nav = find(obs, 'link', 'New event');
      if (nav) return { thought: `${lost.title} was deleted by mistake; add it again.`, action: act.click(nav) };
    }
    const g: CalGoal | undefined = order.find((x) => !goalMet(this.ctx, x));
    if (!g) return { thought: 'Everything is done.', action: act.say('Done.') };

    if (g.kind === 'free_slot') {
      if (path === `/day/${g.date}`) return { thought: `The first free hour starts at ${timeLabel(g.answer)}.`, action: act.say(`Your first free hour on ${longDate(g.date)} starts at ${timeLabel(g.answer)}.`) };
      return this.towards(obs, g.date, path);
    }
    if (g.kind === 'start_time') {
      const e = byId(g.event);
      if (path === `/event/${e.id}` || find(obs, 'link', eventLabel(e))) return { thought: `It starts at ${timeLabel(g.answer)}.`, action: act.say(`${e.title} starts at ${timeLabel(g.answer)}.`) };
      return this.towards(obs, e.date, path, true);
    }
    if (g.kind === 'delete' || g.kind === 'reschedule') {
      const e = byId(g.event);
      if (g.kind === 'delete' && path === `/event/${e.id}/delete`) return { thought: 'Confirm the deletion.', action: act.click(find(obs, 'button', 'Yes, delete')!) };
      if (g.kind === 'reschedule' && path === `/event/${e.id}/edit`) {
        const orig = s.initial.find((x) => x.id === e.id)!;
        return this.fillForm(obs, { ...orig, date: g.date, start: g.start, end: g.end });
      }
      if (path === `/event/${e.id}`) {
        const b = find(obs, 'link', g.kind === 'delete' ? 'Delete event' : 'Edit event');
        if (b) return { thought: g.kind === 'delete' ? 'Delete it.' : 'Edit it.', action: act.click(b) };
      }
      const link = find(obs, 'link', eventLabel(e));
      if (link) return { thought: `Open ${e.title}.`, action: act.click(link) };
      return this.towards(obs, e.date, path, true);
    }
    // Create.
    if (path === '/event/new') return this.fillForm(obs, g);
    const onDay = path === `/day/${g.date}` && find(obs, 'link', 'New event on this day');
    if (onDay) return { thought: 'Add the event on this day.', action: act.click(onDay) };
    if (g.location) {
      const nav = find(obs, 'link', 'New event');
      if (nav) return { thought: 'Create a new event.', action: act.click(nav) };
    }
    return this.towards(obs, g.date, path);
  }
}
