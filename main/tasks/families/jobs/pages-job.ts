/** One posting: its page (facts in the variant's order), the application form, and its confirmation. */
import type { SiteRequest } from '../../types.ts';
import { attr, html, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { salaryText, type Application, type Job } from './data.ts';
import { jobsPage, posted, type Ctx } from './chrome.ts';
import { applyHeading, jobLabel, moreLikeLabel, type ApplyField, type FactKey, type Words } from './variant.ts';

export const SOURCES = ['Choose one', 'Job board', 'Friend or colleague', 'Company website', 'Social media'];

function facts(w: Words, order: FactKey[], j: Job): Raw {
  const row: Record<FactKey, [string, string]> = {
    type: [w.type, j.type],
    level: [w.level, j.level],
    salary: [w.salary, salaryText(j)],
    required: [w.required, j.yearsRequired === 0 ? 'No experience required' : `At least ${j.yearsRequired} year${j.yearsRequired > 1 ? 's' : ''}`],
    posted: [w.posted, posted(j.postedDaysAgo)],
  };
  return html`<dl class="headers">${order.map((k) => html`<dt>${row[k][0]}</dt><dd>${row[k][1]}</dd>`)}</dl>`;
}

/** The apply link (or the note that this job was applied to) and the save toggle, in the variant's order. */
function toolbar(ctx: Ctx, j: Job): Raw {
  const s = ctx.state;
  const w = s.variant.words;
  const href = hrefs(ctx);
  const saved = s.saved.includes(j.id);
  const apply = s.applications.some((a) => a.job === j.id) ? html`<p class="notice">You applied to this job.</p>` : html`<a class="button primary" href="${href(`/job/${j.id}/apply`)}">${w.applyNow}</a>`;
  const save = html`<form method="post" action="${href(`/job/${j.id}/save`)}" class="inline"><button type="submit" aria-pressed="${saved ? 'true' : 'false'}">${saved ? w.unsave : w.save}</button></form>`;
  return html`<div class="toolbar">
${s.variant.saveFirst ? [save, apply] : [apply, save]}
</div>`;
}

export function jobPage(ctx: Ctx, req: SiteRequest, j: Job, notice?: string): string {
  const v = ctx.state.variant;
  const w = v.words;
  return jobsPage(
    ctx,
    req,
    jobLabel(w, j),
    html`<p><a href="${hrefs(ctx)('/jobs', { q: j.title })}">${moreLikeLabel(w, j.title)}</a></p>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
<article class="job">
<h1>${j.title}</h1>
<p class="brand-line">${j.company} · ${j.location}</p>
${facts(w, v.facts, j)}
${toolbar(ctx, j)}
<h2>${w.about}</h2>
<p>${j.company} is hiring a ${j.level.toLowerCase()} ${j.title} to join a growing team. You will work with ${j.skills.join(', ')} every day.</p>
<h2>${w.requirements}</h2>
<ul>${j.skills.map((s) => html`<li>Experience with ${s}</li>`)}</ul>
<h2>${w.benefits}</h2>
<ul>${j.benefits.map((b) => html`<li>${b}</li>`)}</ul>
</article>`,
  );
}

export interface ApplyForm {
  name: string;
  email: string;
  phone: string;
  years: string;
  authorized: string;
  source: string;
  cover: string;
  agree: boolean;
  errors: Partial<Record<'name' | 'email' | 'phone' | 'years' | 'authorized' | 'agree', string>>;
}

type ErrorKey = keyof ApplyForm['errors'];

/** aria attributes for a control whose value was refused. */
function invalid(f: ApplyForm, e: ErrorKey): Raw | '' {
  return f.errors[e] ? html` aria-invalid="true" aria-describedby="a-${e}-err"` : '';
}

function fieldError(f: ApplyForm, e: ErrorKey): Raw | '' {
  return f.errors[e] ? html`<p class="field-error" id="a-${e}-err">${f.errors[e]}</p>` : '';
}

/** One field of the application form, labelled in this board's words, with its error if refused. */
function applyField(w: Words, f: ApplyForm, k: ApplyField): Raw {
  const text = (e: 'name' | 'email' | 'phone', label: string) => html`<div class="field"><label for="a-${e}">${label}</label><input id="a-${e}" type="text" name="${e}" value="${f[e]}"${invalid(f, e)}>${fieldError(f, e)}</div>`;
  switch (k) {
    case 'name':
      return text('name', w.fullName);
    case 'email':
      return text('email', w.email);
    case 'phone':
      return text('phone', w.phone);
    case 'years':
      return html`<div class="field"><label for="a-years">${w.years}</label><input id="a-years" type="number" name="years" min="0" max="50" value="${f.years}"${invalid(f, 'years')}>${fieldError(f, 'years')}</div>`;
    case 'authorized':
      return html`<fieldset${f.errors.authorized ? html` aria-invalid="true"` : ''}><legend>${w.authorized}</legend>
<label class="check"><input type="radio" name="authorized" value="yes"${attr('checked', f.authorized === 'yes')}> ${w.yes}</label>
<label class="check"><input type="radio" name="authorized" value="no"${attr('checked', f.authorized === 'no')}> ${w.no}</label>
${fieldError(f, 'authorized')}</fieldset>`;
    case 'source':
      return html`<div class="field"><label for="a-source">${w.source}</label><select id="a-source" name="source">${SOURCES.map((s) => html`<option value="${s === 'Choose one' ? '' : s}"${attr('selected', s === f.source)}>${s}</option>`)}</select></div>`;
    case 'cover':
      return html`<div class="field"><label for="a-cover">${w.cover}</label><textarea id="a-cover" name="cover" rows="5">${f.cover}</textarea></div>`;
  }
}

export function applyPage(ctx: Ctx, req: SiteRequest, j: Job, f: ApplyForm): string {
  const href = hrefs(ctx);
  const v = ctx.state.variant;
  const w = v.words;
  const errs = Object.values(f.errors);
  return jobsPage(
    ctx,
    req,
    applyHeading(w, j.title),
    html`<p><a href="${href(`/job/${j.id}`)}">${w.backToJob}</a></p>
<h1>${applyHeading(w, j.title)}</h1>
<p class="brand-line">${j.company} · ${j.location}</p>
${errs.length ? html`<div class="errors" role="alert"><p>Please correct the following:</p><ul>${errs.map((e) => html`<li>${e}</li>`)}</ul></div>` : ''}
<form class="booking" method="post" action="${href(`/job/${j.id}/apply`)}" novalidate>
${v.applyFields.map((k) => applyField(w, f, k))}
<div class="field"><label class="check"><input type="checkbox" name="agree" value="1"${attr('checked', f.agree)}${invalid(f, 'agree')}> ${w.agree}</label>${fieldError(f, 'agree')}</div>
<button type="submit" class="primary">${w.submit}</button>
</form>`,
  );
}

export function applicationPage(ctx: Ctx, req: SiteRequest, a: Application): string {
  const href = hrefs(ctx);
  const w = ctx.state.variant.words;
  const j = ctx.state.jobs.find((x) => x.id === a.job)!;
  return jobsPage(
    ctx,
    req,
    w.sent,
    html`<h1>${w.sent}</h1>
<p class="notice" role="status">Your application for ${jobLabel(w, j)} was sent. Reference ${a.id}.</p>
<dl class="headers"><dt>${w.fullName}</dt><dd>${a.name}</dd><dt>${w.email}</dt><dd>${a.email}</dd><dt>${w.phone}</dt><dd>${a.phone}</dd><dt>${w.years}</dt><dd>${a.years}</dd></dl>
<p><a href="${href('/applications')}">${w.navApplications}</a> · <a href="${href('/jobs')}">${w.findMore}</a></p>`,
  );
}
