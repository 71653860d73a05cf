/** The "report an issue" form (title, page, description) with its validation, and the page that confirms a filed issue. */
import { attr, html } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { pageExists, pagePath, pageTitle, reportablePages } from './site-map.ts';
import { docsPage } from './pages-frame.ts';
import type { Ctx, Issue } from './state.ts';

export interface ReportForm {
  title: string;
  page: string;
  description: string;
  major: number;
  errors: Partial<Record<'title' | 'page' | 'description', string>>;
}

export const TITLE_MAX = 120;
export const DESCRIPTION_MIN = 10;
export const DESCRIPTION_MAX = 2000;

/** Checks a submitted report; the errors name what to fix. */
export function validateReport(ctx: Ctx, f: ReportForm): ReportForm['errors'] {
  const errors: ReportForm['errors'] = {};
  if (!f.title) errors.title = 'Enter a title for the issue.';
  else if (f.title.length > TITLE_MAX) errors.title = `Keep the title under ${TITLE_MAX} characters.`;
  if (!reportablePages(ctx.state).includes(f.page)) errors.page = 'Choose the page the issue is about.';
  if (!f.description) errors.description = 'Describe the problem.';
  else if (f.description.length < DESCRIPTION_MIN) errors.description = `Describe the problem in at least ${DESCRIPTION_MIN} characters.`;
  else if (f.description.length > DESCRIPTION_MAX) errors.description = `Keep the description under ${DESCRIPTION_MAX} characters.`;
  return errors;
}

export function reportPage(ctx: Ctx, f: ReportForm): string {
  const s = ctx.state;
  const { ui } = s;
  const errs = Object.values(f.errors);
  const inv = (k: keyof ReportForm['errors']) => (f.errors[k] ? html` aria-invalid="true" aria-describedby="i-${k}-err"` : '');
  const err = (k: keyof ReportForm['errors']) => (f.errors[k] ? html`<p class="field-error" id="i-${k}-err">${f.errors[k]}</p>` : '');
  return docsPage(ctx, {
    title: ui.reportHeading,
    major: f.major,
    main: html`<h1>${ui.reportHeading}</h1>
<p>Tell the maintainers what is wrong or missing. Issues are public.</p>
${errs.length ? html`<div class="errors" role="alert"><p>Please correct the following:</p><ul>${errs.map((e) => html`<li>${e}</li>`)}</ul></div>` : ''}
<form class="booking" method="post" action="${hrefs(ctx)('/report')}" novalidate>
<input type="hidden" name="v" value="${f.major}">
<div class="field"><label for="i-title">${ui.issueTitle}</label><input id="i-title" type="text" name="title" value="${f.title}"${inv('title')}>${err('title')}</div>
<div class="field"><label for="i-page">${ui.issuePage}</label><select id="i-page" name="page"${inv('page')}><option value="">Choose a page</option>${reportablePages(s).map((k) => html`<option value="${k}"${attr('selected', k === f.page)}>${pageTitle(s, k)}</option>`)}</select>${err('page')}</div>
<div class="field"><label for="i-description">${ui.issueDescription}</label><textarea id="i-description" name="description" rows="5"${inv('description')}>${f.description}</textarea>${err('description')}</div>
<button type="submit" class="primary">${ui.submitIssue}</button>
</form>`,
  });
}

export function issuePage(ctx: Ctx, issue: Issue): string {
  const s = ctx.state;
  const href = hrefs(ctx);
  const back = pageExists(s, issue.page, issue.version) ? issue.version : s.lib.latest;
  return docsPage(ctx, {
    title: `Issue ${issue.code}`,
    major: issue.version,
    main: html`<h1>Issue ${issue.code} filed</h1>
<p class="notice" role="status">Thank you. "${issue.title}" was filed against ${pageTitle(s, issue.page)}.</p>
<p><a href="${href(pagePath(s, issue.page, back))}">Back to ${pageTitle(s, issue.page)}</a></p>`,
  });
}
