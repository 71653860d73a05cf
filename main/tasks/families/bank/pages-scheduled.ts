/** Scheduled transfers: the list, one transfer's page, and the cancel form with its reason. */
import type { SiteRequest } from '../../types.ts';
import { attr, html, money, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { CANCEL_REASONS, targetName, type Transfer } from './data.ts';
import { bankPage, errorSummary, field, invalid, showDate, type Ctx } from './chrome.ts';

function accountName(ctx: Ctx, id: string): string {
  return ctx.state.accounts.find((a) => a.id === id)?.name ?? '';
}

export function scheduledPage(ctx: Ctx, req: SiteRequest, notice?: string): string {
  const s = ctx.state;
  const v = s.variant;
  const href = hrefs(ctx);
  const byDate = (a: Transfer, b: Transfer) => a.date.localeCompare(b.date) || a.code.localeCompare(b.code);
  const live = s.transfers.filter((t) => t.status === 'scheduled').sort(byDate);
  const cancelled = s.transfers.filter((t) => t.status === 'cancelled').sort(byDate);
  return bankPage(
    ctx,
    req,
    v.words.navScheduled,
    html`<h1>${v.words.navScheduled}</h1>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
${live.length
  ? html`<table class="cart"><thead><tr><th scope="col">Reference</th><th scope="col">Date</th><th scope="col">To</th><th scope="col">From</th><th scope="col" class="money">Amount</th><th scope="col">Repeats</th></tr></thead>
<tbody>${live.map((t) => html`<tr><td><a href="${href(`/scheduled/${t.code}`)}">${t.code}</a></td><td>${showDate(v, t.date)}</td><td>${targetName(s, t.to)}</td><td>${accountName(ctx, t.from)}</td><td class="money">${money(t.amount)}</td><td>${t.frequency}</td></tr>`)}</tbody></table>`
  : html`<p>You have no scheduled transfers.</p>`}
${cancelled.length ? html`<h2>Cancelled</h2><ul>${cancelled.map((t) => html`<li>${t.code}: ${money(t.amount)} to ${targetName(s, t.to)} on ${showDate(v, t.date)} (${t.cancelReason ?? ''})</li>`)}</ul>` : ''}`,
  );
}

function details(ctx: Ctx, t: Transfer): Raw {
  const s = ctx.state;
  const rows: Array<[string, string]> = [
    ['Reference', t.code],
    ['To', targetName(s, t.to)],
    ['From', accountName(ctx, t.from)],
    ['Amount', money(t.amount)],
    ['Date', showDate(s.variant, t.date)],
    ['Repeats', t.frequency],
    ['Memo', t.memo || '(none)'],
    ['Status', t.status === 'cancelled' ? `Cancelled (${t.cancelReason ?? ''})` : t.status === 'scheduled' ? 'Scheduled' : 'Sent'],
  ];
  return html`<table class="cart facts" aria-label="Transfer details"><tbody>${rows.map(([k, val]) => html`<tr><th scope="row">${k}</th><td>${val}</td></tr>`)}</tbody></table>`;
}

export function scheduledDetailPage(ctx: Ctx, req: SiteRequest, t: Transfer): string {
  const w = ctx.state.variant.words;
  const href = hrefs(ctx);
  return bankPage(
    ctx,
    req,
    `Transfer ${t.code}`,
    html`<h1>Transfer ${t.code}</h1>
${details(ctx, t)}
${t.status === 'scheduled' ? html`<p><a href="${href(`/scheduled/${t.code}/cancel`)}">${w.cancelScheduled}</a></p>` : ''}
<p><a href="${href('/scheduled')}">All ${w.navScheduled.toLowerCase()}</a></p>`,
  );
}

export function cancelPage(ctx: Ctx, req: SiteRequest, t: Transfer, reason = '', error?: string): string {
  const w = ctx.state.variant.words;
  const href = hrefs(ctx);
  return bankPage(
    ctx,
    req,
    `Cancel ${t.code}?`,
    html`<h1>Cancel transfer ${t.code}?</h1>
<p>${money(t.amount)} to ${targetName(ctx.state, t.to)} on ${showDate(ctx.state.variant, t.date)} will not be sent.</p>
${errorSummary(error ? [error] : [])}
<form class="booking" method="post" action="${href(`/scheduled/${t.code}/cancel`)}" novalidate>
${field('c-reason', w.reason, html`<select id="c-reason" name="reason"${invalid('c-reason', error)}><option value="">Choose a reason</option>${CANCEL_REASONS.map((r) => html`<option value="${r}"${attr('selected', r === reason)}>${r}</option>`)}</select>`, error)}
<button type="submit" class="primary">${w.confirmCancel}</button>
</form>
<p><a href="${href(`/scheduled/${t.code}`)}">${w.keep}</a></p>`,
  );
}
