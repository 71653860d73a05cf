/** One account's page: its balances and details, then its activity with filters and pages. */
import type { SiteRequest } from '../../types.ts';
import { attr, html, money, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { available, type Account, type Txn } from './data.ts';
import { PERIODS, TYPE_OPTIONS, parseActivityQuery, runActivity, type ActivityQuery } from './activity.ts';
import { bankPage, errorSummary, showDate, type Ctx } from './chrome.ts';

function details(ctx: Ctx, a: Account): Raw {
  const w = ctx.state.variant.words;
  const rows: Array<[string, string]> = [[w.current, a.kind === 'credit' ? `${money(a.balance)} owed` : money(a.balance)]];
  if (a.pending) rows.push(['Pending', `-${money(a.pending)}`]);
  if (a.kind === 'credit') rows.push(['Credit limit', money(a.creditLimit!)], [w.availableCredit, money(available(a))]);
  else rows.push([w.available, money(available(a))]);
  if (a.rate) rows.push(['Interest rate', a.rate]);
  return html`<table class="cart facts" aria-label="Balances"><tbody>${rows.map(([k, v]) => html`<tr><th scope="row">${k}</th><td>${v}</td></tr>`)}</tbody></table>`;
}

function filters(ctx: Ctx, a: Account, q: ActivityQuery): Raw {
  const w = ctx.state.variant.words;
  return html`<form class="activity-filters" method="get" action="${hrefs(ctx)(`/account/${a.id}`)}" aria-label="Filter transactions">
<div class="field"><label for="f-q">${w.search}</label><input id="f-q" type="search" name="q" value="${q.q}"></div>
<div class="field"><label for="f-period">${w.period}</label><select id="f-period" name="period">${PERIODS.map((p) => html`<option value="${p.value}"${attr('selected', p.value === q.period)}>${p.label}</option>`)}</select></div>
<div class="field"><label for="f-type">${w.type}</label><select id="f-type" name="type">${TYPE_OPTIONS.map((t) => html`<option value="${t.value}"${attr('selected', t.value === q.type)}>${t.label}</option>`)}</select></div>
<div class="field"><label for="f-from">${w.fromDate}</label><input id="f-from" type="text" name="from" value="${q.from}" placeholder="YYYY-MM-DD"></div>
<div class="field"><label for="f-to">${w.toDate}</label><input id="f-to" type="text" name="to" value="${q.to}" placeholder="YYYY-MM-DD"></div>
<button type="submit">${w.apply}</button>
</form>`;
}

function table(ctx: Ctx, items: Txn[]): Raw {
  const v = ctx.state.variant;
  const head =
    v.amountColumns === 'signed'
      ? html`<th scope="col" class="money">Amount</th>`
      : html`<th scope="col" class="money">Money out</th><th scope="col" class="money">Money in</th>`;
  const amount = (t: Txn) =>
    v.amountColumns === 'signed'
      ? html`<td class="money${t.amount > 0 ? ' money-in' : ''}">${t.amount < 0 ? `-${money(-t.amount)}` : money(t.amount)}</td>`
      : html`<td class="money">${t.amount < 0 ? money(-t.amount) : ''}</td><td class="money money-in">${t.amount > 0 ? money(t.amount) : ''}</td>`;
  return html`<table class="cart activity"><thead><tr><th scope="col">Date</th><th scope="col">Description</th><th scope="col">Type</th>${head}</tr></thead>
<tbody>${items.map((t) => html`<tr><td>${showDate(v, t.date)}</td><td>${t.description}</td><td>${t.type}</td>${amount(t)}</tr>`)}</tbody></table>`;
}

export function accountPage(ctx: Ctx, req: SiteRequest, a: Account): string {
  const s = ctx.state;
  const w = s.variant.words;
  const href = hrefs(ctx);
  const q = parseActivityQuery(req.query);
  const r = runActivity(s.transactions, a.id, q, s.today);
  const keep = { q: q.q, period: q.period === 'all' ? undefined : q.period, type: q.type, from: q.from, to: q.to };
  const pageLink = (page: number, label: string) => html`<a href="${href(`/account/${a.id}`, { ...keep, page })}">${label}</a>`;
  const kind = a.kind === 'credit' ? 'Credit card' : a.kind === 'savings' ? 'Savings account' : 'Checking account';
  return bankPage(
    ctx,
    req,
    a.name,
    html`<h1>${a.name}</h1>
<p class="meta">${kind} •••• ${a.id}</p>
${details(ctx, a)}
${a.kind !== 'credit' ? html`<p><a href="${href('/transfer', { from: a.id })}">${w.navTransfer} from this account</a></p>` : ''}
<section class="bank-section" aria-labelledby="h-activity">
<h2 id="h-activity">${w.activity}</h2>
${filters(ctx, a, q)}
${errorSummary(r.errors)}
<p class="count" role="status">${r.rows.length} ${r.rows.length === 1 ? 'transaction' : 'transactions'}${r.pages > 1 ? ` · page ${r.page} of ${r.pages}` : ''}</p>
${r.items.length ? table(ctx, r.items) : html`<p>No transactions match these filters.</p>`}
${r.pages > 1 ? html`<nav class="pager" aria-label="Pages">${r.page > 1 ? pageLink(r.page - 1, w.prevPage) : ''} ${r.page < r.pages ? pageLink(r.page + 1, w.nextPage) : ''}</nav>` : ''}
</section>`,
  );
}
