/** A home's page (facts, save button, tour request form), the tour confirmation, and the saved and tour lists. */
import { attr, html, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { dayMonthYear } from '../common/dates.ts';
import { TOUR_TIMES, timeLabel, type Home, type Tour } from './data.ts';
import { dollars, rePage, type Ctx } from './chrome.ts';
import { fill, type FactKey, type TourField, type Words } from './variant.ts';

export interface TourForm {
  date: string;
  time: string;
  name: string;
  email: string;
  phone: string;
  errors: Partial<Record<TourField, string>>;
}

/** A fact's label on this site and its value for one home. */
function fact(w: Words, h: Home, k: FactKey): [string, string] {
  const facts: Record<FactKey, [string, string]> = {
    type: [w.factType, h.type],
    beds: [w.factBeds, String(h.beds)],
    baths: [w.factBaths, String(h.baths)],
    sqft: [w.factSqft, h.sqft.toLocaleString('en-US')],
    year: [w.factYear, String(h.yearBuilt)],
    hoa: [w.factHoa, h.hoa ? `${dollars(h.hoa)} per month` : 'None'],
    neighborhood: [w.factNeighborhood, h.neighborhood],
    agent: [w.factAgent, h.agent],
  };
  return facts[k];
}

function factsBlock(ctx: Ctx, h: Home): Raw {
  const v = ctx.state.variant;
  const rows = v.facts.map((k) => fact(v.words, h, k));
  const body =
    v.factsView === 'table'
      ? html`<table class="cart facts"><tbody>${rows.map(([k, x]) => html`<tr><th scope="row">${k}</th><td>${x}</td></tr>`)}</tbody></table>`
      : html`<dl class="facts-list">${rows.map(([k, x]) => html`<dt>${k}</dt><dd>${x}</dd>`)}</dl>`;
  return html`<section aria-labelledby="h-facts"><h2 id="h-facts">${v.words.factsHeading}</h2>${body}</section>`;
}

/** One tour-form field with its label in this site's words and its error, if any. */
function tourField(w: Words, f: TourForm, k: TourField): Raw {
  const inv = f.errors[k] ? html` aria-invalid="true" aria-describedby="t-${k}-err"` : '';
  const err = f.errors[k] ? html`<p class="field-error" id="t-${k}-err">${f.errors[k]}</p>` : '';
  const label = { date: w.tourDate, time: w.tourTime, name: w.yourName, email: w.email, phone: w.phone }[k];
  const control =
    k === 'time'
      ? html`<select id="t-time" name="time"${inv}><option value="">${w.chooseTime}</option>${TOUR_TIMES.map((t) => html`<option value="${t}"${attr('selected', t === f.time)}>${timeLabel(t)}</option>`)}</select>`
      : html`<input id="t-${k}" type="text" name="${k}" value="${f[k]}"${k === 'date' ? html` placeholder="YYYY-MM-DD"` : ''}${inv}>`;
  return html`<div class="field"><label for="t-${k}">${label}</label>${control}${err}</div>`;
}

function tourSection(ctx: Ctx, h: Home, f: TourForm): Raw {
  const v = ctx.state.variant;
  const errs = Object.values(f.errors);
  return html`<section class="reserve" aria-label="${v.words.tourHeading}">
<h2>${v.words.tourHeading}</h2>
${errs.length ? html`<div class="errors" role="alert"><p>Please correct the following:</p><ul>${errs.map((e) => html`<li>${e}</li>`)}</ul></div>` : ''}
<form class="booking" method="post" action="${hrefs(ctx)(`/home/${h.id}/tour`)}" novalidate>
${v.tourFields.map((k) => tourField(v.words, f, k))}
<button type="submit" class="primary">${v.words.requestTour}</button>
</form>
</section>`;
}

export function detailPage(ctx: Ctx, h: Home, f: TourForm, notice?: string): string {
  const href = hrefs(ctx);
  const v = ctx.state.variant;
  const w = v.words;
  const saved = ctx.state.saved.includes(h.id);
  const parts = [factsBlock(ctx, h), tourSection(ctx, h, f)];
  return rePage(
    ctx,
    `${h.address}, ${h.city}`,
    html`<p><a href="${href('/homes', { q: h.city })}">${fill(w.moreIn, { city: h.city })}</a></p>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
<article class="home">
<h1>${h.address}, ${h.city}</h1>
<p class="price">${dollars(h.price)}</p>
<form method="post" action="${href(`/home/${h.id}/save`)}" class="inline"><button type="submit" aria-pressed="${saved ? 'true' : 'false'}">${saved ? w.unsaveHome : w.saveHome}</button></form>
${v.tourFirst ? parts.reverse() : parts}
</article>`,
  );
}

export function tourPage(ctx: Ctx, t: Tour): string {
  const href = hrefs(ctx);
  const w = ctx.state.variant.words;
  const h = ctx.state.homes.find((x) => x.id === t.home)!;
  return rePage(
    ctx,
    w.tourDone,
    html`<h1>${w.tourDone}</h1>
<p class="notice" role="status">${h.agent} will meet you at ${h.address} on ${dayMonthYear(t.date)} at ${timeLabel(t.time)}. Reference ${t.code}.</p>
<p><a href="${href('/tours')}">${w.navTours}</a> · <a href="${href('/homes')}">${w.keepLooking}</a></p>`,
  );
}

export function simpleList(ctx: Ctx, title: string, body: Raw): string {
  return rePage(ctx, title, html`<h1>${title}</h1>${body}`);
}
