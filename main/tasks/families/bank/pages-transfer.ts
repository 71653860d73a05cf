/** The transfer form (fields in the variant's order), the review step and the confirmation. */
import type { SiteRequest } from '../../types.ts';
import { attr, html, money, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { available, sourceAccounts, targetName, type Draft, type Transfer } from './data.ts';
import { sentToday, type TransferForm } from './rules.ts';
import { bankPage, errorSummary, field, invalid, showDate, type Ctx } from './chrome.ts';
import type { TransferField } from './variant.ts';

/** How a source account reads in the "from" select: its name and what it has available. */
export function sourceOptionLabel(name: string, avail: number): string {
  return `${name} (${money(avail)} available)`;
}

function control(ctx: Ctx, f: TransferForm, k: TransferField): Raw {
  const s = ctx.state;
  const w = s.variant.words;
  const id = `t-${k}`;
  const bad = invalid(id, f.errors[k]);
  const text = (value: string, extra: Raw = html``) => html`<input id="${id}" type="text" name="${k}" value="${value}"${extra}${bad}>`;
  switch (k) {
    case 'from':
      return field(id, w.from, html`<select id="${id}" name="from"${bad}><option value="">Select an account</option>${sourceAccounts(s).map((a) => html`<option value="${a.id}"${attr('selected', a.id === f.from)}>${sourceOptionLabel(a.name, available(a))}</option>`)}</select>`, f.errors.from);
    case 'to':
      return field(
        id,
        w.to,
        html`<select id="${id}" name="to"${bad}><option value="">Select a payee or account</option>
<optgroup label="Payees">${s.payees.map((p) => html`<option value="p:${p.id}"${attr('selected', `p:${p.id}` === f.to)}>${p.name}</option>`)}</optgroup>
<optgroup label="My accounts">${s.accounts.map((a) => html`<option value="a:${a.id}"${attr('selected', `a:${a.id}` === f.to)}>${a.name}</option>`)}</optgroup></select>`,
        f.errors.to,
      );
    case 'amount':
      return field(id, w.amount, text(f.amount, html` inputmode="decimal" placeholder="0.00"`), f.errors.amount);
    case 'date':
      return field(id, w.date, text(f.date, html` placeholder="YYYY-MM-DD"`), f.errors.date);
    case 'memo':
      return field(id, w.memo, text(f.memo), f.errors.memo);
  }
}

export function transferPage(ctx: Ctx, req: SiteRequest, f: TransferForm): string {
  const s = ctx.state;
  const w = s.variant.words;
  const left = Math.max(0, s.dailyLimit - sentToday(s));
  return bankPage(
    ctx,
    req,
    w.navTransfer,
    html`<h1>${w.navTransfer}</h1>
<p class="meta">Daily limit ${money(s.dailyLimit)}; ${money(left)} left today. Transfers dated after today are scheduled.</p>
${errorSummary(Object.values(f.errors))}
<form class="booking" method="post" action="${hrefs(ctx)('/transfer')}" novalidate>
${s.variant.transferFields.map((k) => control(ctx, f, k))}
<button type="submit" class="primary">${w.continue}</button>
</form>`,
  );
}

function summary(ctx: Ctx, t: Draft | Transfer): Raw {
  const s = ctx.state;
  const w = s.variant.words;
  const rows: Array<[string, string]> = [
    [w.from, s.accounts.find((a) => a.id === t.from)?.name ?? ''],
    [w.to, targetName(s, t.to)],
    [w.amount, money(t.amount)],
    [w.date, showDate(s.variant, t.date)],
    [w.memo, t.memo || '(none)'],
  ];
  return html`<table class="cart facts" aria-label="Transfer details"><tbody>${rows.map(([k, v]) => html`<tr><th scope="row">${k}</th><td>${v}</td></tr>`)}</tbody></table>`;
}

export function reviewPage(ctx: Ctx, req: SiteRequest, d: Draft): string {
  const s = ctx.state;
  const w = s.variant.words;
  const href = hrefs(ctx);
  return bankPage(
    ctx,
    req,
    'Review your transfer',
    html`<h1>Review your transfer</h1>
<p>Nothing has been sent yet. Check the details, then confirm.</p>
${summary(ctx, d)}
${d.date > s.today ? html`<p class="meta">This transfer will be scheduled for ${showDate(s.variant, d.date)}.</p>` : ''}
<form method="post" action="${href('/transfer/confirm')}" class="inline"><button type="submit" class="primary">${w.confirm}</button></form>
<p><a href="${href('/transfer', { edit: 1 })}">${w.edit}</a></p>`,
  );
}

export function donePage(ctx: Ctx, req: SiteRequest, t: Transfer): string {
  const href = hrefs(ctx);
  const title = t.status === 'scheduled' ? 'Transfer scheduled' : t.status === 'cancelled' ? 'Transfer cancelled' : 'Transfer sent';
  return bankPage(
    ctx,
    req,
    title,
    html`<h1>${title}</h1>
<p class="notice" role="status">Confirmation number: ${t.code}</p>
${summary(ctx, t)}
<p><a href="${href('/')}">Back to your accounts</a></p>`,
  );
}
