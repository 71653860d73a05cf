/** Picks the bank task for a seed and tier and phrases its instruction. */
import type { GoalKind, Tier } from '../../types.ts';
import { Rng, mixSeed } from '../../../common/rng.ts';
import { MONTHS, addDays, dayMonthYear, parts } from '../common/dates.ts';
import { money } from '../common/html.ts';
import { CAFES, CANCEL_REASONS, GROCERS, MEMOS, RESTAURANTS, available, generateBank, lastMonth, personName, sourceAccounts, targetName, type Account, type BankData, type BankGoal, type BankState, type Txn } from './data.ts';
import { formatIban, makeIban } from './iban.ts';
import { PAGE_SIZE, runActivity, type ActivityQuery } from './activity.ts';
import { drawVariant } from './variant.ts';

interface Picked {
  goal: BankGoal;
  instruction: string;
}

const ASK = 'Tell me in a message.';
/** The activity query with no filter set. */
const ALL: ActivityQuery = { q: '', period: 'all', type: '', from: '', to: '', page: 1 };

/** Tier 1, first kind: what an account's page says is available. */
function balanceTask(rng: Rng, d: BankData): Picked {
  const a = rng.pick(d.accounts);
  const answer = money(available(a));
  if (a.kind === 'credit') {
    const q = rng.pick([`How much available credit is left on my ${a.name}?`, `What is the available credit on my ${a.name} right now?`]);
    return { goal: { kind: 'balance', account: a.id, label: 'available credit', answer }, instruction: `${q} ${ASK}` };
  }
  const instruction = rng.pick([`What is the available balance of my ${a.name} account? ${ASK}`, `Tell me in a message how much money is available in my ${a.name} account right now, pending transactions taken off.`]);
  return { goal: { kind: 'balance', account: a.id, label: 'available balance', answer }, instruction };
}

/**
 * Tier 1, second kind: the amount of one named transaction. It is either on the first page of its
 * account's activity, or found by searching its description (which then fits on one page).
 */
function transactionTask(rng: Rng, d: BankData): Picked {
  const a = rng.pick(d.accounts.filter((x) => d.transactions.some((t) => t.account === x.id)));
  const rows = d.transactions.filter((t) => t.account === a.id).sort((x, y) => y.date.localeCompare(x.date) || y.id - x.id);
  const count = (t: Txn) => rows.filter((r) => r.description === t.description).length;
  const unique = rows.filter((t) => rows.filter((r) => r.description === t.description && r.date === t.date).length === 1);
  const recent = unique.filter((t) => rows.indexOf(t) < PAGE_SIZE);
  // Searching its description must bring it onto the first page.
  const searchable = unique.filter((t) => rows.indexOf(t) >= PAGE_SIZE && count(t) <= PAGE_SIZE && runActivity(d.transactions, a.id, { ...ALL, q: t.description }, d.today).items.includes(t));
  const t = rng.pick(rng.chance(0.4) || !searchable.length ? recent : searchable);
  const when = dayMonthYear(t.date);
  const instruction = rng.pick([
    `How much was the ${t.description} transaction on ${when} on my ${a.name}? ${ASK}`,
    `Tell me in a message the amount of the ${t.description} transaction dated ${when} in my ${a.name} activity.`,
  ]);
  return { goal: { kind: 'transaction', account: a.id, txn: t.id, answer: money(Math.abs(t.amount)) }, instruction };
}

/** Tier 2, first kind: a transfer to a saved payee or an own account, today or on a later date. */
function transferTask(rng: Rng, d: BankData): Picked {
  const from = rng.pick(sourceAccounts(d).filter((a) => available(a) >= 5000));
  const own = d.accounts.filter((a) => a.id !== from.id);
  const to = rng.chance(0.7) ? `p:${rng.pick(d.payees).id}` : `a:${rng.pick(own).id}`;
  const cap = Math.min(available(from) * 0.6, d.dailyLimit * 0.8, 150000);
  const amount = rng.chance(0.5) ? rng.int(20, Math.floor(cap / 100)) * 100 : rng.int(2000, Math.floor(cap));
  const date = rng.chance(0.65) ? d.today : addDays(d.today, rng.int(3, 40));
  const memo = rng.pick(MEMOS);
  const toText = to.startsWith('a:') ? `my ${targetName(d, to)}` : targetName(d, to);
  const when = date === d.today ? '' : ` on ${dayMonthYear(date)}`;
  const amt = money(amount);
  const instruction = rng.pick([
    `Send ${amt} from my ${from.name} to ${toText}${when} with the memo "${memo}".`,
    `Transfer ${amt} to ${toText} from my ${from.name}${when}; use "${memo}" as the memo.`,
    `Pay ${toText} ${amt} from my ${from.name}${when}, with the note "${memo}".`,
  ]);
  return { goal: { kind: 'transfer', from: from.id, to, amount, date, memo }, instruction };
}

/** Tier 2, second kind: cancel one of the transfers already scheduled. */
function cancelTask(rng: Rng, d: BankData): Picked {
  const t = rng.pick(d.transfers);
  const reason = rng.pick(CANCEL_REASONS.slice(0, 4));
  const who = targetName(d, t.to);
  const instruction = rng.pick([
    `Cancel the scheduled transfer of ${money(t.amount)} to ${who} due on ${dayMonthYear(t.date)}, giving "${reason}" as the reason.`,
    `Stop the ${money(t.amount)} payment to ${who} planned for ${dayMonthYear(t.date)}; the reason is "${reason}".`,
  ]);
  return { goal: { kind: 'cancel', code: t.code, reason }, instruction };
}

/** Groups of last month's purchases at one merchant on one account that fit on one page. */
function purchaseGroups(d: BankData, minCount: number): Array<{ account: Account; merchant: string; total: number }> {
  const out: Array<{ account: Account; merchant: string; total: number }> = [];
  for (const account of d.accounts) {
    for (const merchant of [...CAFES, ...GROCERS, ...RESTAURANTS]) {
      // What the site shows for "last month" and the merchant's name must be exactly these purchases.
      const ts = runActivity(d.transactions, account.id, { ...ALL, q: merchant, period: 'last_month' }, d.today).rows;
      if (ts.length >= minCount && ts.length <= PAGE_SIZE && ts.every((t) => t.type === 'Purchase' && t.description === merchant)) out.push({ account, merchant, total: ts.reduce((s, t) => s - t.amount, 0) });
    }
  }
  return out;
}

/**
 * Tier 3: add a new payee, then pay them the total of last month's purchases at one merchant,
 * from the one source account whose available money covers it (the others are set below it).
 */
function payNewTask(rng: Rng, d: BankData): Picked {
  const groups = purchaseGroups(d, 2);
  // A month with no merchant visited twice is rare; a single purchase still makes a total.
  const g = rng.pick(groups.length ? groups : purchaseGroups(d, 1));
  const sources = sourceAccounts(d);
  const payer = rng.pick(sources);
  for (const a of sources) {
    a.balance = a === payer ? a.pending + g.total + rng.int(2000, 400000) : a.pending + rng.int(Math.ceil(g.total * 0.15), g.total - 1);
  }
  let name = personName(rng);
  while (d.payees.some((p) => p.name === name)) name = personName(rng);
  let iban = makeIban(rng);
  while (d.payees.some((p) => p.iban === iban)) iban = makeIban(rng);
  const { y, m } = parts(lastMonth(d.today).from);
  const reference = `${rng.pick(['Thanks', 'Payback', 'Shared costs', 'Reimbursement'])} ${MONTHS[m - 1].slice(0, 3)}`;
  const when = rng.chance(0.5) ? 'last month' : `in ${MONTHS[m - 1]} ${y}`;
  const shown = formatIban(iban);
  const instruction = rng.pick([
    `Add ${name} as a new payee (account number ${shown}, reference "${reference}"), then pay them the total of my ${g.merchant} purchases ${when} on my ${g.account.name}, from whichever of my accounts has enough available to cover it.`,
    `${name} covered my ${g.merchant} purchases ${when} (they are on my ${g.account.name}). Save ${name} as a payee with account number ${shown} and reference "${reference}", then send them that total today from the one account that can cover it.`,
  ]);
  return { goal: { kind: 'payNew', name, iban, reference, from: payer.id, amount: g.total, account: g.account.id, merchant: g.merchant, month: `${y}-${String(m).padStart(2, '0')}` }, instruction };
}

/** Payees a goal names: the "Quick pay" distractor offers someone else. */
function goalPayees(d: BankData, goal: BankGoal): string[] {
  if (goal.kind === 'transfer') return [goal.to];
  if (goal.kind === 'cancel') return [d.transfers.find((t) => t.code === goal.code)!.to];
  return [];
}

export function generateBankTask(seed: number, tier: Tier): { state: BankState; instruction: string; startPath: string; goalKind: GoalKind } {
  const d = generateBank(seed);
  const variant = drawVariant(seed);
  const rng = new Rng(mixSeed(seed, 'bank-task', tier));
  const picked = tier === 1 ? (rng.chance(0.5) ? balanceTask(rng, d) : transactionTask(rng, d)) : tier === 2 ? (rng.chance(0.6) ? transferTask(rng, d) : cancelTask(rng, d)) : payNewTask(rng, d);
  const others = d.payees.filter((p) => !goalPayees(d, picked.goal).includes(`p:${p.id}`));
  const state: BankState = {
    ...d,
    draft: null,
    quickPayee: variant.sections.includes('quickPay') ? rng.pick(others).id : null,
    variant,
    goal: picked.goal,
    ui: { cookiesDismissed: variant.overlay !== 'cookies', noticeDismissed: variant.overlay !== 'notice' },
    issued: 0,
  };
  const answer = picked.goal.kind === 'balance' || picked.goal.kind === 'transaction';
  return { state, instruction: picked.instruction, startPath: '/', goalKind: answer ? 'answer' : 'state' };
}
