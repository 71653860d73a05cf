/** Flight site pages after choosing a flight: passenger details, confirmation, and the trips list. */
import type { SiteRequest } from '../../types.ts';
import { html } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { airportLabel, durationText, flightsFor, hhmm, priceFor, type Booking, type Draft } from './data.ts';
import { longDate } from '../common/dates.ts';
import { errorSummary, fieldError, flightsPage, invalid, type Ctx } from './chrome.ts';
import { fill, nameLabel, type NameField } from './variant.ts';

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
  const v = ctx.state.variant;
  const w = v.words;
  const field = (i: number, part: NameField) => {
    const key = `${part}${i}`;
    const e = f.errors[key];
    return html`<div class="field"><label for="${key}">${nameLabel(w, part, i)}</label>
<input id="${key}" name="${part}" type="text" value="${f[part][i] ?? ''}" required${invalid(e, key)}>
${fieldError(e, key)}</div>`;
  };
  const passenger = (i: number) => html`<fieldset><legend>${fill(w.legend, { n: i + 1 })}</legend>${v.nameFields.map((part) => field(i, part))}</fieldset>`;
  return flightsPage(
    ctx,
    req,
    w.passengersHeading,
    html`<h1>${w.passengersHeading}</h1>
${flightSummary(ctx, d)}
${errorSummary(Object.values(f.errors))}
<form method="post" action="${href(`/passengers/${d.id}`)}" novalidate>
${Array.from({ length: d.passengers }, (_, i) => passenger(i))}
<p class="hint">Names must match the passenger's ID.</p>
<button type="submit" class="primary">${w.confirm}</button>
</form>
<p><a href="${href('/results', { from: d.from, to: d.to, date: d.date, passengers: String(d.passengers), class: d.fareClass })}">${w.backToResults}</a></p>`,
  );
}

export function confirmationPage(ctx: Ctx, req: SiteRequest, b: Booking): string {
  const href = hrefs(ctx);
  const w = ctx.state.variant.words;
  return flightsPage(
    ctx,
    req,
    w.confirmedHeading,
    html`<h1>${w.confirmedHeading}</h1>
<p role="status">${w.codeIs} <strong>${b.code}</strong>.</p>
${flightSummary(ctx, b)}
<h2>${w.travellersHeading}</h2>
<ul>${b.names.map((n) => html`<li>${n.first} ${n.last}</li>`)}</ul>
<p><a href="${href('/trips')}">${w.viewTrips}</a> · <a href="${href('/')}">${w.bookAnother}</a></p>`,
  );
}

export function tripsPage(ctx: Ctx, req: SiteRequest): string {
  const href = hrefs(ctx);
  const s = ctx.state;
  const bs = s.bookings;
  return flightsPage(
    ctx,
    req,
    s.variant.words.navTrips,
    html`<h1>${s.variant.words.navTrips}</h1>
${bs.length ? html`<ul>${bs.map((b) => html`<li><a href="${href(`/booking/${b.code}`)}">${b.code}: ${airportLabel(b.from)} to ${airportLabel(b.to)}, ${longDate(b.date)}</a></li>`)}</ul>` : html`<p>You have no upcoming trips.</p>`}`,
  );
}
