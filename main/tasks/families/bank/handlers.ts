/**
 * Routes of the bank: pages (GET) and form posts, each post answered with a redirect or with its
 * form shown again with errors. Nothing changes state except a confirmed transfer, a saved payee,
 * a cancellation, and dismissing the cookie banner or notice.
 */
import type { SiteRequest, SiteResponse } from '../../types.ts';
import { handleCookies, safeReturn } from '../common/site.ts';
import { sourceAccounts } from './data.ts';
import { cancelTransfer, confirmDraft, validatePayee, validateTransfer, type PayeeForm, type TransferForm } from './rules.ts';
import type { Ctx } from './chrome.ts';
import { homePage, infoPage } from './pages-home.ts';
import { accountPage } from './pages-account.ts';
import { donePage, reviewPage, transferPage } from './pages-transfer.ts';
import { newPayeePage, payeesPage } from './pages-payees.ts';
import { cancelPage, scheduledDetailPage, scheduledPage } from './pages-scheduled.ts';

const page = (body: string): SiteResponse => ({ kind: 'html', body });
const redirect = (location: string): SiteResponse => ({ kind: 'redirect', location });
const field = (form: URLSearchParams, k: string, max = 200) => (form.get(k) ?? '').trim().slice(0, max);

/** The transfer form as first shown: blank, prefilled from a link (?to=, ?from=, ?amount=), or the draft to edit. */
function freshTransferForm(ctx: Ctx, req: SiteRequest): TransferForm {
  const s = ctx.state;
  const d = s.draft;
  if (req.query.get('edit') === '1' && d) return { from: d.from, to: d.to, amount: (d.amount / 100).toFixed(2), date: d.date, memo: d.memo, errors: {} };
  const from = req.query.get('from') ?? '';
  return {
    from: sourceAccounts(s).some((a) => a.id === from) ? from : '',
    to: field(req.query, 'to', 40),
    amount: field(req.query, 'amount', 40),
    date: s.today,
    memo: '',
    errors: {},
  };
}

function handleGet(req: SiteRequest, ctx: Ctx): SiteResponse {
  const s = ctx.state;
  const { path } = req;
  if (path === '/') return page(homePage(ctx, req));
  const am = path.match(/^\/account\/(\d+)$/);
  if (am) {
    const a = s.accounts.find((x) => x.id === am[1]);
    return a ? page(accountPage(ctx, req, a)) : { kind: 'not_found' };
  }
  if (path === '/transfer') return page(transferPage(ctx, req, freshTransferForm(ctx, req)));
  if (path === '/transfer/review') return s.draft ? page(reviewPage(ctx, req, s.draft)) : redirect('/transfer');
  const dm = path.match(/^\/transfer\/done\/([A-Z]+-\d+)$/);
  if (dm) {
    const t = s.transfers.find((x) => x.code === dm[1] && x.origin === 'new');
    return t ? page(donePage(ctx, req, t)) : { kind: 'not_found' };
  }
  if (path === '/payees') {
    const added = s.payees.find((p) => p.added && String(p.id) === req.query.get('added'));
    return page(payeesPage(ctx, req, added ? `${added.name} was added to your payees.` : undefined));
  }
  if (path === '/payees/new') return page(newPayeePage(ctx, req, { name: '', iban: '', reference: '', errors: {} }));
  if (path === '/scheduled') {
    const gone = s.transfers.find((t) => t.status === 'cancelled' && t.code === req.query.get('cancelled'));
    return page(scheduledPage(ctx, req, gone ? `Transfer ${gone.code} was cancelled.` : undefined));
  }
  const sm = path.match(/^\/scheduled\/([A-Z]+-\d+)(\/cancel)?$/);
  if (sm) {
    const t = s.transfers.find((x) => x.code === sm[1] && x.status !== 'completed');
    if (!t) return { kind: 'not_found' };
    if (!sm[2]) return page(scheduledDetailPage(ctx, req, t));
    return t.status === 'scheduled' ? page(cancelPage(ctx, req, t)) : redirect(`/scheduled/${t.code}`);
  }
  const info = infoPage(ctx, req);
  return info ? page(info) : { kind: 'not_found' };
}

function handlePost(req: SiteRequest, ctx: Ctx): SiteResponse {
  const s = ctx.state;
  const { path, form } = req;
  if (path === '/cookies') return handleCookies(req, s.ui);
  if (path === '/notice') {
    s.ui.noticeDismissed = true;
    return redirect(safeReturn(form.get('return')));
  }
  if (path === '/transfer') {
    const f: TransferForm = { from: field(form, 'from', 40), to: field(form, 'to', 40), amount: field(form, 'amount', 40), date: field(form, 'date', 40), memo: field(form, 'memo'), errors: {} };
    const draft = validateTransfer(s, f);
    if (!draft) return page(transferPage(ctx, req, f));
    s.draft = draft;
    return redirect('/transfer/review');
  }
  if (path === '/transfer/confirm') {
    if (!s.draft) return redirect('/transfer');
    const r = confirmDraft(s, ctx.seed);
    return 'transfer' in r ? redirect(`/transfer/done/${r.transfer.code}`) : page(transferPage(ctx, req, r.form));
  }
  if (path === '/payees/new') {
    const f: PayeeForm = { name: field(form, 'name', 80), iban: field(form, 'iban', 80), reference: field(form, 'reference', 80), errors: {} };
    const p = validatePayee(s, f);
    if (!p) return page(newPayeePage(ctx, req, f));
    s.payees.push(p);
    return redirect(`/payees?added=${p.id}`);
  }
  const cm = path.match(/^\/scheduled\/([A-Z]+-\d+)\/cancel$/);
  if (cm) {
    const t = s.transfers.find((x) => x.code === cm[1] && x.status === 'scheduled');
    if (!t) return redirect('/scheduled');
    const reason = field(form, 'reason', 80);
    const error = cancelTransfer(t, reason);
    return error ? page(cancelPage(ctx, req, t, reason, error)) : redirect(`/scheduled?cancelled=${t.code}`);
  }
  return { kind: 'not_found' };
}

export function handleBank(req: SiteRequest, ctx: Ctx): SiteResponse {
  return req.method === 'GET' ? handleGet(req, ctx) : handlePost(req, ctx);
}
