/** Flight site pages after choosing a flight: passenger details, confirmation, and the trips list. */
import type { SiteRequest } from '../../types.ts';
import { html } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { airportLabel, durationText, flightsFor, hhmm, priceFor, type Booking, type Draft } from './data.ts';
import { longDate } from '../common/dates.ts';
import { flightsPage, type Ctx } from './pages-search.ts';

export interface PassengerForm {
  first: string[];
  last: string[];
  errors: Record<string, string>;
}

function flightSummary(ctx: Ctx, d: Draft) {
  const f = flightsFor(ctx.seed, d.from, d.to, d.date).find((x) => x.number === d.flight);
  if (!f) return html`<p>Flight ${d.flight}</p>`;
  return html`<div class="flight-summary">
<p><strong>${f.airline} ${f.number}</strong>: ${airportLabel(d.from)} to ${airportLabel(d.to)}</p>
<p>${longDate(d.date)}, departs ${hhmm(f.depart)}, ${durationText(f.duration)}, ${f.stops === 0 ? 'nonstop' : `${f.stops} stop(s)`}</p>
<p>${d.fareClass} · ${d.passengers} ${d.passengers === 1 ? 'passenger' : 'passengers'} · $${(priceFor(f, d.fareClass) * d.passengers).toLocaleString('en-US')} total</p>
</div>`;
}

export function passengersPage(ctx: Ctx, req: SiteRequest, d: Draft, f: PassengerForm): string {
  const href = hrefs(ctx);
  const errs = Object.values(f.errors);
  const field = (i: number, part: 'first' | 'last', label: string) => {
    const key = `${part}${i}`;
    const e = f.errors[key];
    return html`<div class="field"><label for="${key}">Passenger ${i + 1} ${label}</label>
<input id="${key}" name="${part}" type="text" value="${f[part][i] ?? ''}" required${e ? html` aria-invalid="true" aria-describedby="${key}-err"` : ''}>
${e ? html`<p class="field-error" id="${key}-err">${e}</p>` : ''}</div>`;
  };
  return flightsPage(
    ctx,
    req,
    'Passenger details',
    html`<h1>Passenger details</h1>
${flightSummary(ctx, d)}
${errs.length ? html`<div class="errors" role="alert"><p>Please fix the following:</p><ul>${errs.map((x) => html`<li>${x}</li>`)}</ul></div>` : ''}
<form method="post" action="${href(`/passengers/${d.id}`)}" novalidate>
${Array.from({ length: d.passengers }, (_, i) => html`<fieldset><legend>Passenger ${i + 1} (adult)</legend>${field(i, 'first', 'first name')}${field(i, 'last', 'last name')}</fieldset>`)}
<p class="hint">Names must match the passenger's ID.</p>
<button type="submit" class="primary">Confirm booking</button>
</form>
<p><a href="${href('/results', { from: d.from, to: d.to, date: d.date, passengers: String(d.passengers), class: d.fareClass })}">Back to results</a></p>`,
  );
}

export function confirmationPage(ctx: Ctx, req: SiteRequest, b: Booking): string {
  const href = hrefs(ctx);
  return flightsPage(
    ctx,
    req,
    'Booking confirmed',
    html`<h1>Booking confirmed</h1>
<p role="status">Your confirmation code is <strong>${b.code}</strong>.</p>
${flightSummary(ctx, b)}
<h2>Passengers</h2>
<ul>${b.names.map((n) => html`<li>${n.first} ${n.last}</li>`)}</ul>
<p><a href="${href('/trips')}">View my trips</a> · <a href="${href('/')}">Book another flight</a></p>`,
  );
}

export function tripsPage(ctx: Ctx, req: SiteRequest): string {
  const href = hrefs(ctx);
  const bs = ctx.state.bookings;
  return flightsPage(
    ctx,
    req,
    'My trips',
    html`<h1>My trips</h1>
${bs.length ? html`<ul>${bs.map((b) => html`<li><a href="${href(`/booking/${b.code}`)}">${b.code}: ${airportLabel(b.from)} to ${airportLabel(b.to)}, ${longDate(b.date)}</a></li>`)}</ul>` : html`<p>You have no upcoming trips.</p>`}`,
  );
}

export function helpPage(ctx: Ctx, req: SiteRequest): string {
  return flightsPage(
    ctx,
    req,
    'Help',
    html`<h1>Help</h1><p>Search by choosing where you fly from and to and a departure date. Prices are per passenger and include taxes. Bookings can be changed up to 24 hours before departure.</p>`,
  );
}
