/** A listing's own page: its facts, opening hours and description in the instance's order and layout, with "save" and a contact form. */
import type { SiteRequest } from '../../types.ts';
import { attr, html, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { DAY_NAMES, dayHoursText } from './hours.ts';
import { directoryPage, listingLink, stars, type Ctx } from './chrome.ts';
import { categoryOf, subOf, townOf, type Listing } from './data.ts';
import type { RecordSection } from './look.ts';
import { LISTING_BLURBS } from './vocabulary.ts';

export interface ContactForm {
  topic: string;
  message: string;
  errors: Partial<Record<'topic' | 'message', string>>;
}

export const EMPTY_CONTACT: ContactForm = { topic: '', message: '', errors: {} };

function factsBlock(ctx: Ctx, l: Listing): Raw {
  const s = ctx.state;
  const w = s.look.words;
  const rows: Array<[string, string]> = [
    [w.phone, l.phone],
    [w.address, `${l.street}, ${townOf(s, l.town)?.name ?? ''}`],
    [w.contact, l.contact],
    [w.type, l.type],
    [categoryOf(s, l.category)?.numericLabel ?? 'Size', l.numeric.toLocaleString('en-US')],
  ];
  const body =
    s.look.facts === 'table'
      ? html`<table class="facts"><tbody>${rows.map(([k, v]) => html`<tr><th scope="row">${k}</th><td>${v}</td></tr>`)}</tbody></table>`
      : s.look.facts === 'dl'
        ? html`<dl class="facts">${rows.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>`
        : html`<ul class="plain facts">${rows.map(([k, v]) => html`<li><b>${k}:</b> ${v}</li>`)}</ul>`;
  return html`<section aria-label="${w.factsHeading}"><h2>${w.factsHeading}</h2>${body}</section>`;
}

function hoursBlock(ctx: Ctx, l: Listing): Raw {
  const w = ctx.state.look.words;
  const text = (d: number) => dayHoursText(l.hours[d], w.closed);
  const body =
    ctx.state.look.hours === 'table'
      ? html`<table class="facts hours"><tbody>${DAY_NAMES.map((d, i) => html`<tr><th scope="row">${d}</th><td>${text(i)}</td></tr>`)}</tbody></table>`
      : html`<ul class="plain hours">${DAY_NAMES.map((d, i) => html`<li>${d}: ${text(i)}</li>`)}</ul>`;
  return html`<section aria-label="${w.hoursHeading}"><h2>${w.hoursHeading}</h2>${body}</section>`;
}

function aboutBlock(ctx: Ctx, l: Listing): Raw {
  const branches = ctx.state.listings.filter((x) => x.name === l.name && x.id !== l.id);
  return html`<section aria-label="About"><h2>About</h2><p>${LISTING_BLURBS[l.blurbStyle](l.name, townOf(ctx.state, l.town)?.name ?? '')}</p>${branches.length ? html`<p>Other branches:</p><ul class="plain">${branches.map((b) => html`<li>${listingLink(ctx, b)}</li>`)}</ul>` : ''}</section>`;
}

function actionsBlock(ctx: Ctx, l: Listing, form: ContactForm, sentNotice: boolean): Raw {
  const s = ctx.state;
  const w = s.look.words;
  const href = hrefs(ctx);
  const saved = s.saved.find((e) => e.id === l.id);
  const save = saved
    ? html`<form method="post" action="${href(`/place/${l.id}/unsave`)}" class="inline"><p class="notice" role="status">Saved to ${w.nav.saved.toLowerCase()}${saved.note ? ` with the note “${saved.note}”` : ''}. <button type="submit">${w.remove}</button></p></form>`
    : html`<form method="post" action="${href(`/place/${l.id}/save`)}" class="inline"><div class="field"><label for="save-note">${w.noteField}</label><input id="save-note" type="text" name="note" maxlength="200"></div><button type="submit">${w.save}</button></form>`;
  const err = (k: 'topic' | 'message') => (form.errors[k] ? html`<p class="field-error" id="contact-${k}-err">${form.errors[k]}</p>` : '');
  const invalid = (k: 'topic' | 'message') => (form.errors[k] ? html` aria-invalid="true" aria-describedby="contact-${k}-err"` : '');
  const errors = Object.values(form.errors).filter(Boolean);
  const contact = html`<section aria-label="${w.contactHeading}"><h2>${w.contactHeading}</h2>
${sentNotice ? html`<p class="notice" role="status">Your message was sent to ${l.name}. They usually answer within two working days.</p>` : ''}
${errors.length ? html`<div class="errors" role="alert"><p>Please correct the following:</p><ul>${errors.map((e) => html`<li>${e}</li>`)}</ul></div>` : ''}
<form class="booking" method="post" action="${href(`/place/${l.id}/contact`)}" novalidate>
<div class="field"><label for="contact-topic">${w.topicField}</label><select id="contact-topic" name="topic"${invalid('topic')}><option value="">${w.chooseTopic}</option>${s.topics.map((t) => html`<option value="${t}"${attr('selected', t === form.topic)}>${t}</option>`)}</select>${err('topic')}</div>
<div class="field"><label for="contact-message">${w.messageField}</label><textarea id="contact-message" name="message" rows="4"${invalid('message')}>${form.message}</textarea>${err('message')}</div>
<button type="submit" class="primary">${w.contactButton}</button>
</form></section>`;
  return html`<section aria-label="Actions">${save}</section>${contact}`;
}

export function recordPage(ctx: Ctx, req: SiteRequest, l: Listing, form: ContactForm = EMPTY_CONTACT): string {
  const s = ctx.state;
  const href = hrefs(ctx);
  const c = categoryOf(s, l.category)!;
  const sub = subOf(s, l.category, l.sub)!;
  const sent = req.method === 'GET' && req.query.get('sent') === '1';
  const sections: Record<RecordSection, () => Raw> = {
    facts: () => factsBlock(ctx, l),
    hours: () => hoursBlock(ctx, l),
    about: () => aboutBlock(ctx, l),
    actions: () => actionsBlock(ctx, l, form, sent),
  };
  return directoryPage(
    ctx,
    req,
    l.name,
    html`<p class="breadcrumb"><a href="${href('/')}">${s.siteName}</a> › <a href="${href(`/c/${c.slug}`)}">${c.name}</a> › <a href="${href(`/c/${c.slug}/${sub.slug}`)}">${sub.name}</a></p>
<article>
<h1>${l.name}</h1>
<p class="meta">${townOf(s, l.town)?.name} · ${l.type} · ${stars(s, l)}</p>
${s.look.recordOrder.map((k) => sections[k]())}
</article>`,
  );
}
