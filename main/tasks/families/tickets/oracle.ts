/**
 * The ticketing oracle: finds the event, picks seats on the map, pays; answers questions from the
 * event page. Every control is found by the name this instance gave it (state.variant.words), so
 * it stays right under every wording, order and layout.
 */
import type { AgentTurn } from '../../agent.ts';
import type { Observation } from '../../../environment/types.ts';
import { OracleAgent, act, fillIfNeeded, find, instancePath } from '../common/oracle.ts';
import { adjacentFree, type TicketEvent, type TicketGoal } from './data.ts';
import { eventTitle, seatLabel, showTime, type Ctx } from './chrome.ts';
import { deliveryLabel } from './variant.ts';

type Buy = Extract<TicketGoal, { kind: 'buy' }>;

export class TicketsOracle extends OracleAgent {
  readonly name = 'oracle:tickets';
  constructor(private readonly ctx: Ctx) {
    super();
  }

  private get w() {
    return this.ctx.state.variant.words;
  }

  /** Click a control found by its name on this site, or go back to `fallback` where it is missing. */
  private click(obs: Observation, role: string, name: string, thought: string, fallback: string): AgentTurn {
    const el = find(obs, role, name);
    return el ? { thought, action: act.click(el) } : { thought: `No "${name}" here; reload.`, action: act.goto(this.ctx.baseUrl + fallback) };
  }

  /** Tick exactly the wanted seats on the map, then go on to checkout. */
  private seats(obs: Observation, e: TicketEvent, g: Buy): AgentTurn {
    // Wanted seats: the task's own, or (by row) the leftmost free pair the map shows now.
    const want = g.section ? (adjacentFree(e, g.section, 2) ?? g.seats) : g.seats;
    const names = new Set(want.map((seat) => seatLabel(this.w, e, seat)));
    for (const box of obs.elements.filter((x) => x.role === 'checkbox')) {
      const wanted = names.has(box.name);
      if ((box.checked === true) !== wanted && !box.disabled) return { thought: wanted ? `Choose ${box.name}.` : `Clear ${box.name}.`, action: act.click(box) };
    }
    return this.click(obs, 'button', this.w.toCheckout, 'Go to checkout.', `/event/${e.id}/seats`);
  }

  /** Check the held seats, then fill the form in the order the site shows it, accept and pay. */
  private checkout(obs: Observation, e: TicketEvent, g: Buy): AgentTurn {
    const w = this.w;
    const held = this.ctx.state.holds[e.id] ?? [];
    const good = g.section ? held.length === 2 && held.every((x) => x[0] === g.section) && Math.abs(Number(held[0].slice(1)) - Number(held[1].slice(1))) === 1 : held.join() === g.seats.join();
    if (!good) return this.click(obs, 'link', w.changeSeats, 'These are not the seats I want.', `/event/${e.id}/seats`);
    const delivery = deliveryLabel(w, g.delivery);
    const step: Record<'name' | 'email' | 'delivery', () => AgentTurn | null> = {
      name: () => this.fill(obs, w.name, g.name),
      email: () => this.fill(obs, w.email, g.email),
      delivery: () => {
        const radio = find(obs, 'radio', delivery);
        return radio && radio.checked !== true ? { thought: `${delivery}.`, action: act.click(radio) } : null;
      },
    };
    for (const k of this.ctx.state.variant.payFields) {
      const turn = step[k]();
      if (turn) return turn;
    }
    const agree = find(obs, 'checkbox', w.agree);
    if (agree && agree.checked !== true) return { thought: 'Accept the terms.', action: act.click(agree) };
    return this.click(obs, 'button', w.pay, 'Pay.', `/event/${e.id}/checkout`);
  }

  private fill(obs: Observation, label: string, value: string): AgentTurn | null {
    const a = fillIfNeeded(obs, 'textbox', label, value);
    return a ? { thought: `${label}: ${value}.`, action: a } : null;
  }

  protected decide(obs: Observation): AgentTurn {
    const s = this.ctx.state;
    const w = this.w;
    const g = s.goal;
    const e = s.events.find((x) => x.id === g.event)!;
    const { path } = instancePath(obs.url);
    const om = path.match(/^\/order\/([\w-]+)$/);
    if (g.kind === 'buy' && om && s.orders.some((o) => o.event === e.id)) return { thought: 'Bought.', action: act.say(`Bought ${s.orders.at(-1)!.seats.join(' and ')} for ${eventTitle(e)}; order ${om[1]}.`) };

    if (path === `/event/${e.id}`) {
      if (g.kind === 'fact') {
        const shown = g.label === 'start time' ? showTime(s.variant, g.answer) : g.answer;
        return { thought: `The ${g.label} is ${shown}.`, action: act.say(`The ${g.label} for ${e.name} is ${shown}.`) };
      }
      return this.click(obs, 'link', w.selectSeats, 'Pick seats.', `/event/${e.id}/seats`);
    }
    if (g.kind === 'buy' && path === `/event/${e.id}/seats`) return this.seats(obs, e, g);
    if (g.kind === 'buy' && path === `/event/${e.id}/checkout`) return this.checkout(obs, e, g);
    const link = find(obs, 'link', eventTitle(e));
    if (link) return { thought: `Open ${eventTitle(e)}.`, action: act.click(link) };
    const box = find(obs, ['searchbox', 'textbox'], w.search);
    if (box) {
      if ((box.value ?? '').trim() !== `${e.name} ${e.city}`) return { thought: `Search for ${e.name} in ${e.city}.`, action: act.fill(box, `${e.name} ${e.city}`) };
      return { thought: 'Search.', action: act.press(box, 'Enter') };
    }
    return { thought: 'Unexpected page; go home.', action: act.goto(this.ctx.baseUrl + '/') };
  }
}
