/**
 * The accounts overview (the home page), its sections in the variant's order, and the pages the
 * distractor links lead to (offers, statements, sending abroad, rewards), which help with nothing.
 */
import type { SiteRequest } from '../../types.ts';
import { html, money, type Raw } from '../common/html.ts';
import { hrefs } from '../common/site.ts';
import { targetName, type Account } from './data.ts';
import { bankPage, showDate, type Ctx } from './chrome.ts';
import type { SectionKey } from './variant.ts';

const KIND_LABEL = { checking: 'Checking', savings: 'Savings', credit: 'Credit card' } as const;

function accountsSection(ctx: Ctx): Raw {
  const s = ctx.state;
  const href = hrefs(ctx);
  const w = s.variant.words;
  const link = (a: Account) => html`<a href="${href(`/account/${a.id}`)}">${a.name}</a>`;
  const owed = (a: Account) => (a.kind === 'credit' ? ' owed' : '');
  const view = s.variant.accountsView;
  const body =
    view === 'table'
      ? html`<table class="cart"><thead><tr><th scope="col">Account</th><th scope="col">Type</th><th scope="col">Number</th><th scope="col" class="money">${w.current}</th></tr></thead><tbody>${s.accounts.map((a) => html`<tr><td>${link(a)}</td><td>${KIND_LABEL[a.kind]}</td><td>•••• ${a.id}</td><td class="money">${money(a.balance)}${owed(a)}</td></tr>`)}</tbody></table>`
      : view === 'cards'
        ? html`<ul class="accounts-cards">${s.accounts.map((a) => html`<li><h3>${link(a)}</h3><p class="meta">${KIND_LABEL[a.kind]} •••• ${a.id}</p><p class="price">${w.current}: ${money(a.balance)}${owed(a)}</p></li>`)}</ul>`
        : html`<ul class="accounts-list">${s.accounts.map((a) => html`<li><span>${link(a)} (${KIND_LABEL[a.kind]}, •••• ${a.id})</span><span>${money(a.balance)}${owed(a)}</span></li>`)}</ul>`;
  return html`<section class="bank-section" aria-labelledby="h-accounts"><h2 id="h-accounts">Your accounts</h2>${body}</section>`;
}

function recentSection(ctx: Ctx): Raw {
  const s = ctx.state;
  const recent = [...s.transactions].sort((a, b) => b.date.localeCompare(a.date) || b.id - a.id).slice(0, 5);
  const name = (id: string) => s.accounts.find((a) => a.id === id)!.name;
  return html`<section class="bank-section" aria-labelledby="h-recent"><h2 id="h-recent">Latest across your accounts</h2>
<table class="cart"><thead><tr><th scope="col">Date</th><th scope="col">Account</th><th scope="col">Description</th><th scope="col" class="money">Amount</th></tr></thead>
<tbody>${recent.map((t) => html`<tr><td>${showDate(s.variant, t.date)}</td><td>${name(t.account)}</td><td>${t.description}</td><td class="money">${t.amount < 0 ? `-${money(-t.amount)}` : money(t.amount)}</td></tr>`)}</tbody></table></section>`;
}

function upcomingSection(ctx: Ctx): Raw {
  const s = ctx.state;
  const next = s.transfers.filter((t) => t.status === 'scheduled').sort((a, b) => a.date.localeCompare(b.date)).slice(0, 3);
  return html`<section class="bank-section" aria-labelledby="h-upcoming"><h2 id="h-upcoming">Coming up</h2>
${next.length ? html`<ul>${next.map((t) => html`<li>${showDate(s.variant, t.date)}: ${money(t.amount)} to ${targetName(s, t.to)}</li>`)}</ul>` : html`<p>Nothing scheduled.</p>`}</section>`;
}

/** A distractor: a ready-made payment to someone the task is not about. */
function quickPaySection(ctx: Ctx): Raw {
  const s = ctx.state;
  const p = s.payees.find((x) => x.id === s.quickPayee);
  if (!p) return html``;
  return html`<section class="bank-section quick-pay" aria-labelledby="h-quick"><h2 id="h-quick">Quick pay</h2>
<p>Pay ${p.name} again in two clicks.</p>
<form method="get" action="${hrefs(ctx)('/transfer')}">
<input type="hidden" name="to" value="p:${p.id}">
<div class="field"><label for="qp-amount">Quick pay amount</label><input id="qp-amount" type="text" name="amount" inputmode="decimal" placeholder="0.00"></div>
<button type="submit">Pay ${p.name}</button>
</form></section>`;
}

/** A distractor: an offer whose wording sounds like the task ("balance transfer"). */
function offerSection(ctx: Ctx): Raw {
  return html`<section class="bank-section promo" aria-labelledby="h-offer"><h2 id="h-offer">0% on balance transfers for 15 months</h2>
<p>Move balances from other cards to your ${ctx.state.accounts.find((a) => a.kind === 'credit')!.name}. A 3% fee applies.</p>
<p><a href="${hrefs(ctx)('/offers')}">See the offer</a></p></section>`;
}

/** A distractor: this month's spending by category, which is not the month any task asks about. */
function insightsSection(ctx: Ctx): Raw {
  const s = ctx.state;
  const month = s.today.slice(0, 7);
  const spent = (re: RegExp) => s.transactions.filter((t) => t.date.startsWith(month) && t.amount < 0 && re.test(t.description)).reduce((sum, t) => sum - t.amount, 0);
  const rows: Array<[string, number]> = [
    ['Coffee and cafés', spent(/coffee|cafe|espresso/i)],
    ['Groceries', spent(/mart|grocer|market|foods/i)],
    ['Eating out', spent(/trattoria|house|sushi|barn|verde/i)],
  ];
  return html`<section class="bank-section" aria-labelledby="h-insights"><h2 id="h-insights">Spending insights this month</h2>
<ul>${rows.map(([label, v]) => html`<li>${label}: ${money(v)}</li>`)}</ul></section>`;
}

const SECTIONS: Record<SectionKey, (ctx: Ctx) => Raw> = {
  accounts: accountsSection,
  recent: recentSection,
  upcoming: upcomingSection,
  quickPay: quickPaySection,
  offer: offerSection,
  insights: insightsSection,
};

export function homePage(ctx: Ctx, req: SiteRequest): string {
  const s = ctx.state;
  return bankPage(ctx, req, s.variant.words.navAccounts, html`<h1>Welcome back, ${s.customer.split(' ')[0]}</h1>
<p class="meta">Today is ${showDate(s.variant, s.today)}.</p>
${s.variant.sections.map((k) => SECTIONS[k](ctx))}`);
}

const INFO: Record<string, { title: string; text: string }> = {
  '/offers': { title: 'Balance transfer offer', text: 'This offer is available by phone only. Call us on 0800 555 0199 to apply; it does not move money between your accounts.' },
  '/statements': { title: 'Statements', text: 'Statements for the last 12 months are sent to you by post. Online statements are coming soon.' },
  '/abroad': { title: 'Send money abroad', text: 'International transfers are not available for your accounts online. Visit a branch to send money abroad.' },
  '/rewards': { title: 'Rewards', text: 'You have 1,240 reward points. Points can be redeemed in the mobile app.' },
};

/** A distractor page, or undefined for any other path. */
export function infoPage(ctx: Ctx, req: SiteRequest): string | undefined {
  const page = INFO[req.path];
  if (!page) return undefined;
  return bankPage(ctx, req, page.title, html`<h1>${page.title}</h1><p>${page.text}</p><p><a href="${hrefs(ctx)('/')}">Back to your accounts</a></p>`);
}
