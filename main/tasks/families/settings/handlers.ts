/**
 * Routes of the settings site. Pages are GETs; every change is a POST of one form to the page it
 * sits on, named by its hidden "form" field, then a redirect back with a notice. A form saves only
 * its own fields: what was edited in another form and not submitted is simply lost, as on a real site.
 */
import type { SiteRequest, SiteResponse } from '../../types.ts';
import { handleCookies } from '../common/site.ts';
import { appKey, blockedKey, sessionKey } from './data.ts';
import { EXPORT_FIELD, exportOptions, invoicesPath, pagePath, pagesOf, valueForms } from './forms.ts';
import { homePage, invoicesPage, type Ctx } from './pages.ts';
import { sectionPage } from './sections.ts';
import { passwordErrors, readForm } from './validate.ts';
import type { Draft } from './value-form.ts';
import type { ExportFormat, PageKey } from './vocabulary.ts';

const page = (body: string): SiteResponse => ({ kind: 'html', body });

const DONE_NOTICES: Record<string, string> = {
  password: 'Your password has been changed.',
  signout: 'That device has been signed out.',
  unblock: 'The person has been unblocked.',
  export: 'Export requested. We will email you a link when it is ready.',
  removeApp: 'Access removed.',
};

function pageAt(ctx: Ctx, path: string): PageKey | undefined {
  const look = ctx.state.look;
  return pagesOf(look).find((p) => pagePath(look, p) === path);
}

function noticeFor(ctx: Ctx, q: URLSearchParams): string | undefined {
  if (q.get('saved') === '1') return ctx.state.look.savedNotice;
  return DONE_NOTICES[q.get('done') ?? ''];
}

function back(ctx: Ctx, p: PageKey, query: string): SiteResponse {
  return { kind: 'redirect', location: pagePath(ctx.state.look, p) + (query ? `?${query}` : '') };
}

/** A POST to a page: the form it names, if that form is on this page; anything else just goes back to the page. */
function post(req: SiteRequest, ctx: Ctx, p: PageKey): SiteResponse {
  const s = ctx.state;
  const look = s.look;
  const formId = req.form.get('form') ?? '';
  const redraw = (draft: Draft) => page(sectionPage(ctx, req, p, draft));

  const vf = valueForms(s).find((f) => f.id === formId && f.page === p);
  if (vf) {
    const { values, errors } = readForm(vf, req.form);
    if (Object.keys(errors).length) return redraw({ form: vf.id, view: { values, errors } });
    Object.assign(s.values, values);
    return back(ctx, p, 'saved=1');
  }
  if (formId === 'password' && p === 'security') {
    const g = (k: string) => req.form.get(k) ?? '';
    const errors = passwordErrors(s.password, g('current'), g('new'), g('confirm'));
    if (Object.keys(errors).length) return redraw({ form: 'password', view: { values: {}, errors } });
    s.password = g('new');
    return back(ctx, p, 'done=password');
  }
  if (formId === 'signout' && p === 'security') {
    const x = s.sessions.find((v) => v.id === req.form.get('session'));
    if (x && !x.current) s.values[sessionKey(x.id)] = 'signed-out';
    return back(ctx, p, x && !x.current ? 'done=signout' : '');
  }
  if (formId === 'unblock' && p === 'privacy') {
    const u = s.blocked.find((v) => v.id === req.form.get('user'));
    if (u) s.values[blockedKey(u.id)] = 'unblocked';
    return back(ctx, p, u ? 'done=unblock' : '');
  }
  if (formId === 'export' && p === 'privacy') {
    const format = (req.form.get(EXPORT_FIELD) ?? '').trim();
    if (!exportOptions(look).some((o) => o.value === format)) return redraw({ form: 'export', view: { values: { [EXPORT_FIELD]: format }, errors: { [EXPORT_FIELD]: 'Choose a file format for your export.' } } });
    s.exports.push({ format: format as ExportFormat, on: s.today });
    return back(ctx, p, 'done=export');
  }
  if (formId === 'removeApp' && look.distractors.some((d) => d.key === 'apps' && d.host === p)) {
    const a = s.apps.find((v) => v.id === req.form.get('app'));
    if (a) s.values[appKey(a.id)] = 'removed';
    return back(ctx, p, a ? 'done=removeApp' : '');
  }
  return back(ctx, p, '');
}

export function handleSettings(req: SiteRequest, ctx: Ctx): SiteResponse {
  const s = ctx.state;
  const p = pageAt(ctx, req.path);
  if (req.method === 'GET') {
    if (req.path === '/') return page(homePage(ctx, req));
    if (p) return page(sectionPage(ctx, req, p, undefined, noticeFor(ctx, req.query)));
    if (req.path === invoicesPath(s.look)) return page(invoicesPage(ctx, req));
    return { kind: 'not_found' };
  }
  if (req.path === '/cookies') return handleCookies(req, s.ui);
  return p ? post(req, ctx, p) : { kind: 'not_found' };
}
