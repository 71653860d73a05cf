/** Pages of one event: its details (in the variant's order), the delete confirmation, and the event form (fields in the variant's order). */
import { attr, html, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { dayMonthYear, longDate } from '../common/dates.ts';
import { TIMES, timeLabel, type CalEvent } from './data.ts';
import { calPage, type Ctx } from './chrome.ts';
import { fill, type DetailKey, type FormField, type Words } from './variant.ts';

function detail(w: Words, e: CalEvent, k: DetailKey): Raw | string {
  switch (k) {
    case 'date':
      return html`<dt>${w.date}</dt><dd>${longDate(e.date)}</dd>`;
    case 'time':
      return html`<dt>${w.time}</dt><dd>${timeLabel(e.start)} to ${timeLabel(e.end)}</dd>`;
    case 'location':
      return html`<dt>${w.location}</dt><dd>${e.location || 'None'}</dd>`;
    case 'notes':
      return e.notes ? html`<dt>${w.notes}</dt><dd>${e.notes}</dd>` : '';
  }
}

export function eventPage(ctx: Ctx, e: CalEvent, notice?: string): string {
  const href = hrefs(ctx);
  const v = ctx.state.variant;
  const w = v.words;
  return calPage(
    ctx,
    e.title,
    html`<p><a href="${href(`/day/${e.date}`)}">${fill(w.backToDay, { date: dayMonthYear(e.date) })}</a></p>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
<article class="event">
<h1>${e.title}</h1>
<dl class="headers">${v.details.map((k) => detail(w, e, k))}</dl>
<div class="toolbar"><a class="button" href="${href(`/event/${e.id}/edit`)}">${w.editEvent}</a> <a class="button" href="${href(`/event/${e.id}/delete`)}">${w.deleteEvent}</a></div>
</article>`,
  );
}

export function deletePage(ctx: Ctx, e: CalEvent): string {
  const href = hrefs(ctx);
  const w = ctx.state.variant.words;
  return calPage(
    ctx,
    `${w.deleteHeading} ${e.title}`,
    html`<h1>${w.deleteHeading}</h1>
<p>${e.title}, ${longDate(e.date)}, ${timeLabel(e.start)} to ${timeLabel(e.end)}. This cannot be undone.</p>
<form method="post" action="${href(`/event/${e.id}/delete`)}" class="inline"><button type="submit" class="primary">${w.confirmDelete}</button></form>
<a href="${href(`/event/${e.id}`)}">${w.cancelDelete}</a>`,
  );
}

export interface EventForm {
  id?: number;
  title: string;
  date: string;
  start: string;
  end: string;
  location: string;
  notes: string;
  errors: Partial<Record<'title' | 'date' | 'end', string>>;
}

/** The form's label of each field on this site. */
export function fieldLabel(w: Words, k: FormField): string {
  return k === 'location' || k === 'notes' ? `${w[k]} ${w.optional}` : w[k];
}

function formField(w: Words, f: EventForm, k: FormField): Raw {
  const id = `e-${k}`;
  const error = k === 'title' || k === 'date' || k === 'end' ? f.errors[k] : undefined;
  const inv = error ? html` aria-invalid="true" aria-describedby="${id}-err"` : '';
  let control: Raw;
  if (k === 'start' || k === 'end') control = html`<select id="${id}" name="${k}"${inv}>${TIMES.map((t) => html`<option value="${t}"${attr('selected', t === f[k])}>${timeLabel(t)}</option>`)}</select>`;
  else if (k === 'notes') control = html`<textarea id="${id}" name="notes" rows="3">${f.notes}</textarea>`;
  else control = html`<input id="${id}" type="text" name="${k}" value="${f[k]}"${k === 'date' ? html` placeholder="YYYY-MM-DD"` : ''}${inv}>`;
  return html`<div class="field"><label for="${id}">${fieldLabel(w, k)}</label>${control}${error ? html`<p class="field-error" id="${id}-err">${error}</p>` : ''}</div>`;
}

export function formPage(ctx: Ctx, f: EventForm): string {
  const href = hrefs(ctx);
  const v = ctx.state.variant;
  const w = v.words;
  const action = f.id ? `/event/${f.id}/edit` : '/event/new';
  const errs = Object.values(f.errors);
  const heading = f.id ? w.editEvent : w.navNew;
  return calPage(
    ctx,
    heading,
    html`<h1>${heading}</h1>
${errs.length ? html`<div class="errors" role="alert"><p>The event was not saved:</p><ul>${errs.map((e) => html`<li>${e}</li>`)}</ul></div>` : ''}
<form class="booking" method="post" action="${href(action)}" novalidate>
${v.formFields.map((k) => formField(w, f, k))}
<button type="submit" class="primary">${w.save}</button>
<a href="${href(f.id ? `/event/${f.id}` : `/month/${ctx.state.today.slice(0, 7)}`)}">${w.cancelForm}</a>
</form>`,
  );
}
