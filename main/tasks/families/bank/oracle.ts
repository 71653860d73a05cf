/**
 * The bank oracle: a state machine on the URL path and the page's controls. Every control is found
 * by the name this instance gave it (the variant's words in the state), never by a fixed label, so
 * the oracle stays right under every wording, order and layout. It first closes the cookie banner
 * or notice, and cancels any transfer a detour scheduled, as a person tidying up would.
 */
import type { AgentTurn } from '../../agent.ts';
import type { TaskSpec } from '../../types.ts';
import type { Observation } from '../../../environment/types.ts';
import { OracleAgent, act, fillIfNeeded, find, instancePath, selectIfNeeded } from '../common/oracle.ts';
import { dayMonthYear } from '../common/dates.ts';
import { money } from '../common/html.ts';
import { available, targetName, type BankGoal, type Transfer } from './data.ts';
import { formatIban } from './iban.ts';
import { PERIODS, TYPE_OPTIONS, parseActivityQuery, runActivity } from './activity.ts';
import { NAV_PATHS, navLabel, type Ctx } from './chrome.ts';
import { sourceOptionLabel } from './pages-transfer.ts';
import { payToLabel, type NavKey, type TransferField } from './variant.ts';

/** The transfer the oracle wants the form to describe. */
interface WantedTransfer {
  from: string;
  to: string;
  amount: number;
  date: string;
  memo: string;
}

/** The activity filter the oracle wants: search words, a period and, where needed, one day. */
interface WantedFilter {
  q: string;
  period: string;
  day: string;
}

type Turn = AgentTurn | null;

export class BankOracle extends OracleAgent {
  readonly name = 'oracle:bank';
  /** Tier 3: whether the merchant's purchases have been looked at (the total is read there). */
  private sawPurchases = false;

  constructor(private readonly ctx: Ctx) {
    super();
  }

  override reset(task: TaskSpec): void {
    super.reset(task);
    this.sawPurchases = false;
  }

  private get s() {
    return this.ctx.state;
  }

  private get w() {
    return this.ctx.state.variant.words;
  }

  protected decide(obs: Observation): AgentTurn {
    const { path } = instancePath(obs.url);
    const g = this.s.goal;
    return (
      this.closeOverlay(obs) ??
      this.cancelStray(obs, path) ??
      (g.kind === 'balance' || g.kind === 'transaction' ? this.answer(obs, g) : g.kind === 'transfer' ? this.transfer(obs, g) : g.kind === 'cancel' ? this.cancel(obs, g) : this.payNew(obs, g)) ?? {
        thought: 'Unexpected page; go to the accounts overview.',
        action: act.goto(this.ctx.baseUrl + '/'),
      }
    );
  }

  private closeOverlay(obs: Observation): Turn {
    const ui = this.s.ui;
    const b = !ui.cookiesDismissed ? find(obs, 'button', 'Accept all cookies') : !ui.noticeDismissed ? find(obs, 'button', this.w.noticeClose) : undefined;
    return b ? { thought: 'A notice covers the page; close it first.', action: act.click(b) } : null;
  }

  /** Follow a navigation link by its name on this site, or type the address where none shows. */
  private nav(obs: Observation, key: NavKey, why: string): AgentTurn {
    const link = find(obs, 'link', navLabel(this.w, key));
    return link ? { thought: why, action: act.click(link) } : { thought: why, action: act.goto(this.ctx.baseUrl + NAV_PATHS[key]) };
  }

  private openAccount(obs: Observation, path: string, id: string): Turn {
    if (path === `/account/${id}`) return null;
    const a = this.s.accounts.find((x) => x.id === id)!;
    const link = find(obs, 'link', a.name);
    return link ? { thought: `Open ${a.name}.`, action: act.click(link) } : this.nav(obs, 'accounts', 'The accounts are listed on the overview.');
  }

  // ---- cancelling a scheduled transfer (the task itself, or tidying up after a detour) ----

  private cancelFlow(obs: Observation, path: string, code: string, reason: string): AgentTurn {
    if (path === `/scheduled/${code}/cancel`) {
      const sel = selectIfNeeded(obs, this.w.reason, reason);
      if (sel) return { thought: `The reason is "${reason}".`, action: sel };
      const b = find(obs, 'button', this.w.confirmCancel);
      if (b) return { thought: 'Confirm the cancellation.', action: act.click(b) };
    }
    if (path === `/scheduled/${code}`) {
      const link = find(obs, 'link', this.w.cancelScheduled);
      if (link) return { thought: 'Cancel this transfer.', action: act.click(link) };
    }
    const link = path === '/scheduled' ? find(obs, 'link', code) : undefined;
    if (link) return { thought: `Open transfer ${code}.`, action: act.click(link) };
    return this.nav(obs, 'scheduled', 'Scheduled transfers are listed on their own page.');
  }

  /** A transfer a detour scheduled that the task does not want. */
  private cancelStray(obs: Observation, path: string): Turn {
    const g = this.s.goal;
    const wanted = (t: Transfer) => g.kind === 'transfer' && t.from === g.from && t.to === g.to && t.amount === g.amount && t.date === g.date && t.memo.trim().toLowerCase() === g.memo.toLowerCase();
    const stray = this.s.transfers.find((t) => t.origin === 'new' && t.status === 'scheduled' && !wanted(t));
    if (!stray) return null;
    const turn = this.cancelFlow(obs, path, stray.code, 'Other');
    return { ...turn, thought: `Transfer ${stray.code} was scheduled by mistake. ${turn.thought}` };
  }

  // ---- questions ----

  private answer(obs: Observation, g: Extract<BankGoal, { kind: 'balance' | 'transaction' }>): AgentTurn {
    const { path, query } = instancePath(obs.url);
    const a = this.s.accounts.find((x) => x.id === g.account)!;
    const open = this.openAccount(obs, path, a.id);
    if (open) return open;
    if (g.kind === 'balance') return { thought: `The ${g.label} is ${g.answer}.`, action: act.say(`The ${g.label} of ${a.name} is ${g.answer}.`) };
    const t = this.s.transactions.find((x) => x.id === g.txn)!;
    const shown = runActivity(this.s.transactions, a.id, parseActivityQuery(query), this.s.today).items;
    if (shown.includes(t)) return { thought: `The ${t.description} line of ${dayMonthYear(t.date)} shows ${g.answer}.`, action: act.say(`The ${t.description} transaction on ${dayMonthYear(t.date)} was ${g.answer}.`) };
    // Its description alone finds it, unless that brings more lines than a page holds; then its day too.
    const byName = runActivity(this.s.transactions, a.id, { q: t.description, period: 'all', type: '', from: '', to: '', page: 1 }, this.s.today).items.includes(t);
    return this.filter(obs, { q: t.description, period: 'all', day: byName ? '' : t.date }, `Search for ${t.description}.`);
  }

  /** Set the activity filters to `want`, one control a step, then apply them. */
  private filter(obs: Observation, want: WantedFilter, why: string): AgentTurn {
    const w = this.w;
    const period = PERIODS.find((p) => p.value === want.period)!;
    const steps: Array<[string, string | null]> = [
      [why, fillIfNeeded(obs, ['searchbox', 'textbox'], w.search, want.q)],
      [`Period: ${period.label}.`, selectIfNeeded(obs, w.period, period.label, period.value)],
      ['Any type.', selectIfNeeded(obs, w.type, TYPE_OPTIONS[0].label, TYPE_OPTIONS[0].value)],
      [want.day ? `From ${want.day}.` : 'No start date.', fillIfNeeded(obs, 'textbox', w.fromDate, want.day)],
      [want.day ? `To ${want.day}.` : 'No end date.', fillIfNeeded(obs, 'textbox', w.toDate, want.day)],
    ];
    for (const [thought, a] of steps) if (a) return { thought, action: a };
    const b = find(obs, 'button', w.apply);
    return b ? { thought: 'Apply the filters.', action: act.click(b) } : { thought: 'Reload the activity.', action: act.goto(obs.url) };
  }

  // ---- transfers ----

  private matches(t: Transfer, want: WantedTransfer): boolean {
    return t.origin === 'new' && t.status !== 'cancelled' && t.from === want.from && t.to === want.to && t.amount === want.amount && t.date === want.date && t.memo.trim().toLowerCase() === want.memo.toLowerCase();
  }

  /** Drive the transfer form, the review and the confirmation until `want` is sent; null when it is. */
  private sendTransfer(obs: Observation, path: string, want: WantedTransfer): Turn {
    if (this.s.transfers.some((t) => this.matches(t, want))) return null;
    const w = this.w;
    if (path === '/transfer/review') {
      const d = this.s.draft;
      const right = !!d && d.from === want.from && d.to === want.to && d.amount === want.amount && d.date === want.date && d.memo.trim().toLowerCase() === want.memo.toLowerCase();
      const b = right ? find(obs, 'button', w.confirm) : find(obs, 'link', w.edit);
      if (b) return { thought: right ? 'The details are right; confirm.' : 'The details are wrong; edit them.', action: act.click(b) };
    }
    const fromEl = find(obs, 'combobox', w.from);
    if (fromEl && (path === '/transfer' || path === '/transfer/confirm')) {
      const from = this.s.accounts.find((a) => a.id === want.from)!;
      const toName = targetName(this.s, want.to);
      const amount = (want.amount / 100).toFixed(2);
      const step: Record<TransferField, () => [string, string | null]> = {
        from: () => [`From ${from.name}.`, selectIfNeeded(obs, w.from, sourceOptionLabel(from.name, available(from)), from.id)],
        to: () => [`To ${toName}.`, selectIfNeeded(obs, w.to, toName, want.to)],
        amount: () => [`${money(want.amount)}.`, fillIfNeeded(obs, 'textbox', w.amount, amount)],
        date: () => [want.date === this.s.today ? 'Today.' : `On ${dayMonthYear(want.date)}.`, fillIfNeeded(obs, 'textbox', w.date, want.date)],
        memo: () => [want.memo ? `Memo "${want.memo}".` : 'No memo.', fillIfNeeded(obs, 'textbox', w.memo, want.memo)],
      };
      for (const k of this.s.variant.transferFields) {
        const [thought, a] = step[k]();
        if (a) return { thought, action: a };
      }
      const b = find(obs, 'button', w.continue);
      if (b) return { thought: 'Go on to the review.', action: act.click(b) };
    }
    return this.nav(obs, 'transfer', 'Open the transfer form.');
  }

  private transfer(obs: Observation, g: Extract<BankGoal, { kind: 'transfer' }>): AgentTurn {
    const { path } = instancePath(obs.url);
    const turn = this.sendTransfer(obs, path, g);
    if (turn) return turn;
    const t = this.s.transfers.find((x) => this.matches(x, g))!;
    return { thought: 'The transfer is confirmed.', action: act.say(`${t.status === 'scheduled' ? 'Scheduled' : 'Sent'} ${money(g.amount)} to ${targetName(this.s, g.to)}; confirmation number ${t.code}.`) };
  }

  private cancel(obs: Observation, g: Extract<BankGoal, { kind: 'cancel' }>): AgentTurn {
    const { path } = instancePath(obs.url);
    const t = this.s.transfers.find((x) => x.code === g.code)!;
    if (t.status === 'cancelled') return { thought: 'It is cancelled.', action: act.say(`Cancelled the scheduled transfer ${t.code} of ${money(t.amount)} to ${targetName(this.s, t.to)}.`) };
    return this.cancelFlow(obs, path, g.code, g.reason);
  }

  // ---- tier 3: add a payee, then pay them a total read from the activity ----

  private payNew(obs: Observation, g: Extract<BankGoal, { kind: 'payNew' }>): AgentTurn {
    const { path, query } = instancePath(obs.url);
    const w = this.w;
    const payee = this.s.payees.find((p) => p.added && p.iban === g.iban);
    const want = payee ? { from: g.from, to: `p:${payee.id}`, amount: g.amount, date: this.s.today, memo: '' } : undefined;
    if (want && this.s.transfers.some((t) => this.matches(t, want))) {
      return { thought: 'The new payee is paid.', action: act.say(`Added ${g.name} and sent them ${money(g.amount)}.`) };
    }
    if (!this.sawPurchases) {
      const open = this.openAccount(obs, path, g.account);
      if (open) return open;
      const target = runActivity(this.s.transactions, g.account, { q: g.merchant, period: 'last_month', type: '', from: '', to: '', page: 1 }, this.s.today).rows;
      const shown = runActivity(this.s.transactions, g.account, parseActivityQuery(query), this.s.today);
      if (shown.items.length !== target.length || shown.rows.some((t, i) => t !== target[i])) return this.filter(obs, { q: g.merchant, period: 'last_month', day: '' }, `Search for ${g.merchant}.`);
      this.sawPurchases = true;
    }
    if (!payee) {
      if (path === '/payees/new') {
        const values = { name: [w.payeeName, g.name], iban: [w.iban, formatIban(g.iban)], reference: [w.reference, g.reference] } as const;
        for (const k of this.s.variant.payeeFields) {
          const a = fillIfNeeded(obs, 'textbox', values[k][0], values[k][1]);
          if (a) return { thought: `${values[k][0]}: ${values[k][1]}.`, action: a };
        }
        const b = find(obs, 'button', w.savePayee);
        if (b) return { thought: 'Save the payee.', action: act.click(b) };
      }
      const add = path === '/payees' ? find(obs, 'link', w.addPayee) : undefined;
      if (add) return { thought: `Add ${g.name} as a payee.`, action: act.click(add) };
      return this.nav(obs, 'payees', `The ${g.merchant} purchases come to ${money(g.amount)}; now add ${g.name} as a payee.`);
    }
    const pay = path === '/payees' ? find(obs, 'link', payToLabel(w, payee.name)) : undefined;
    if (pay) return { thought: `Pay ${payee.name}.`, action: act.click(pay) };
    return this.sendTransfer(obs, path, want!)!;
  }
}
