/** The ticketing oracle: finds the event, picks seats on the map, pays; answers questions from the event page. */
import type { AgentTurn } from '../../agent.ts';
import type { Observation } from '../../../environment/types.ts';
import { OracleAgent, act, fillIfNeeded, find, instancePath } from '../common/oracle.ts';
import { adjacentFree, timeLabel } from './data.ts';
import { eventTitle, seatLabel, type Ctx } from './site.ts';

export class TicketsOracle extends OracleAgent {
  readonly name = 'oracle:tickets';
  constructor(private readonly ctx: Ctx) {
    super();
  }

  protected decide(obs: Observation): AgentTurn {
    const s = this.ctx.state;
    const g = s.goal;
    const e = s.events.find((x) => x.id === g.event)!;
    const { path } = instancePath(obs.url);
    const om = path.match(/^\/order\/([\w-]+)$/);
    if (g.kind === 'buy' && om && s.orders.some((o) => o.event === e.id)) return { thought: 'Bought.', action: act.say(`Bought ${s.orders.at(-1)!.seats.join(' and ')} for ${eventTitle(e)}; order ${om[1]}.`) };

    if (path === `/event/${e.id}`) {
      if (g.kind === 'fact') {
        const shown = g.label === 'start time' ? timeLabel(g.answer) : g.answer;
        return { thought: `The ${g.label} is ${shown}.`, action: act.say(`The ${g.label} for ${e.name} is ${shown}.`) };
      }
      return { thought: 'Pick seats.', action: act.click(find(obs, 'link', 'Select seats')!) };
    }
    if (g.kind === 'buy' && path === `/event/${e.id}/seats`) {
      // Wanted seats: the task's own, or (by row) the leftmost free pair the map shows now.
      const want = g.section ? (adjacentFree(e, g.section, 2) ?? g.seats) : g.seats;
      for (const box of obs.elements.filter((x) => x.role === 'checkbox')) {
        const seat = want.find((w) => box.name === seatLabel(e, w));
        const wanted = !!seat;
        if ((box.checked === true) !== wanted && !box.disabled) return { thought: wanted ? `Choose ${box.name}.` : `Clear ${box.name}.`, action: act.click(box) };
      }
      return { thought: 'Go to checkout.', action: act.click(find(obs, 'button', 'Continue to checkout')!) };
    }
    if (g.kind === 'buy' && path === `/event/${e.id}/checkout`) {
      const held = s.holds[e.id] ?? [];
      const good = g.section ? held.length === 2 && held.every((x) => x[0] === g.section) && Math.abs(Number(held[0].slice(1)) - Number(held[1].slice(1))) === 1 : held.join() === g.seats.join();
      if (!good) return { thought: 'These are not the seats I want.', action: act.click(find(obs, 'link', 'Change seats')!) };
      const steps: Array<[string, string | null]> = [
        ['Name.', fillIfNeeded(obs, 'textbox', 'Full name', g.name)],
        ['Email.', fillIfNeeded(obs, 'textbox', 'Email', g.email)],
      ];
      for (const [thought, a] of steps) if (a) return { thought, action: a };
      const radio = find(obs, 'radio', g.delivery);
      if (radio && radio.checked !== true) return { thought: `${g.delivery}.`, action: act.click(radio) };
      const agree = find(obs, 'checkbox', 'I accept the terms of sale');
      if (agree && agree.checked !== true) return { thought: 'Accept the terms.', action: act.click(agree) };
      return { thought: 'Pay.', action: act.click(find(obs, 'button', 'Pay now')!) };
    }
    const link = find(obs, 'link', eventTitle(e));
    if (link) return { thought: `Open ${eventTitle(e)}.`, action: act.click(link) };
    const box = find(obs, ['searchbox', 'textbox'], 'Search events');
    if (box) {
      if ((box.value ?? '').trim() !== `${e.name} ${e.city}`) return { thought: `Search for ${e.name} in ${e.city}.`, action: act.fill(box, `${e.name} ${e.city}`) };
      return { thought: 'Search.', action: act.press(box, 'Enter') };
    }
    return { thought: 'Unexpected page; go home.', action: act.goto(this.ctx.baseUrl + '/') };
  }
}
