/**
 * Plain pages: help, and the pages the distractor links lead to (deals, baggage, flight status,
 * gift cards). They hold no flight, no form and no answer; they help with nothing a task asks.
 */
import type { SiteRequest } from '../../types.ts';
import { html } from '../common/html.ts';
import { flightsPage, type Ctx } from './chrome.ts';

const HELP = 'Search by choosing where you fly from and to and a departure date. Prices are per passenger and include taxes. Bookings can be changed up to 24 hours before departure.';

const INFO: Record<string, { title: string; text: string }> = {
  '/deals': { title: 'Deals', text: 'Deals and member prices are shown in our mobile app. Prices on this site already include every discount.' },
  '/baggage': { title: 'Baggage', text: 'Every fare includes one cabin bag of up to 8 kg. Checked bags can be added at the airport.' },
  '/status': { title: 'Flight status', text: 'Departure and arrival times are published here from 24 hours before departure.' },
  '/gift-cards': { title: 'Gift cards', text: 'Gift cards are sold at our airport desks and cannot be redeemed online.' },
};

/** The help page or a distractor page, or undefined for any other path. */
export function infoPage(ctx: Ctx, req: SiteRequest): string | undefined {
  const w = ctx.state.variant.words;
  const page = req.path === '/help' ? { title: w.navHelp, text: HELP } : INFO[req.path];
  if (!page) return undefined;
  return flightsPage(ctx, req, page.title, html`<h1>${page.title}</h1><p>${page.text}</p>`);
}
