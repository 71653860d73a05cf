/**
 * The bank's rules, apart from its pages: what a transfer or a new payee must satisfy (with the
 * messages a customer sees), and what confirming a transfer or cancelling one does to the accounts.
 */
import { mixSeed } from '../../../common/rng.ts';
import { sameText } from '../../../common/normalize.ts';
import { addDays, parseDate } from '../common/dates.ts';
import { money } from '../common/html.ts';
import { CANCEL_REASONS, available, sourceAccounts, targetName, type BankState, type Draft, type Payee, type Transfer } from './data.ts';
import { ibanProblem, normalizeIban } from './iban.ts';
import type { PayeeField, TransferField } from './variant.ts';

export interface TransferForm {
  from: string;
  to: string;
  amount: string;
  date: string;
  memo: string;
  errors: Partial<Record<TransferField, string>>;
}

export interface PayeeForm {
  name: string;
  iban: string;
  reference: string;
  errors: Partial<Record<PayeeField, string>>;
}

const MEMO_MAX = 40;
const NAME_RE = /^[\p{L}\d][\p{L}\d '&.,\-]*$/u;
const REFERENCE_RE = /^[A-Za-z0-9 \-/.]*$/;

/** Dollars as typed ("1,250", "$80.5", "19.99") in cents; null when it is not an amount. */
export function parseAmount(text: string): number | null {
  const t = text.trim().replace(/^\$\s*/, '');
  if (!/^(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$/.test(t)) return null;
  const [whole, frac = ''] = t.replace(/,/g, '').split('.');
  const c = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  return Number.isSafeInteger(c) ? c : null;
}

/** Money already sent today by the customer, which counts against the daily limit. */
export function sentToday(s: BankState): number {
  return s.transfers.filter((t) => t.origin === 'new' && t.status === 'completed' && t.date === s.today).reduce((sum, t) => sum + t.amount, 0);
}

/** Whether `to` names a payee or an own account of this customer. */
function targetExists(s: BankState, to: string): boolean {
  if (to.startsWith('p:')) return s.payees.some((p) => `p:${p.id}` === to);
  if (to.startsWith('a:')) return s.accounts.some((a) => `a:${a.id}` === to);
  return false;
}

/** The transfer a form describes, or null with `f.errors` filled in. */
export function validateTransfer(s: BankState, f: TransferForm): Draft | null {
  const from = sourceAccounts(s).find((a) => a.id === f.from);
  if (!from) f.errors.from = 'Choose the account to send the money from.';
  if (!f.to) f.errors.to = 'Choose who to send the money to.';
  else if (!targetExists(s, f.to)) f.errors.to = 'Choose a payee or one of your accounts.';
  else if (from && f.to === `a:${from.id}`) f.errors.to = 'You cannot transfer money to the account it comes from.';
  const date = parseDate(f.date);
  if (!f.date) f.errors.date = 'Choose the date to send the money.';
  else if (!date) f.errors.date = 'Enter the date as YYYY-MM-DD.';
  else if (date < s.today) f.errors.date = 'The date cannot be in the past.';
  else if (date > addDays(s.today, 365)) f.errors.date = 'Choose a date within the next 12 months.';
  const amount = parseAmount(f.amount);
  if (!f.amount) f.errors.amount = 'Enter an amount.';
  else if (amount === null) f.errors.amount = 'Enter the amount as a number, e.g. 125.50.';
  else if (amount <= 0) f.errors.amount = 'The amount must be more than $0.00.';
  else if (amount > s.dailyLimit) f.errors.amount = `Transfers are limited to ${money(s.dailyLimit)} each.`;
  else if (from && amount > available(from)) f.errors.amount = `The amount is more than the available balance of ${from.name} (${money(available(from))}).`;
  else if (date === s.today && amount + sentToday(s) > s.dailyLimit) f.errors.amount = `That would go over your daily limit: you can send up to ${money(s.dailyLimit - sentToday(s))} more today.`;
  if (f.memo.length > MEMO_MAX) f.errors.memo = `Keep it to ${MEMO_MAX} characters or fewer.`;
  if (Object.keys(f.errors).length || !from || amount === null || !date) return null;
  return { from: from.id, to: f.to, amount, date, memo: f.memo };
}

function newCode(s: BankState, seed: number): string {
  let code = '';
  do code = `BK-${(mixSeed(seed, 'bank-confirmation', s.issued++) % 900000) + 100000}`;
  while (s.transfers.some((t) => t.code === code));
  return code;
}

/**
 * Confirm a reviewed draft: checked again (the balance may have changed since), then sent today or
 * scheduled for its date. Returns the transfer, or the errors that now stand in its way.
 */
export function confirmDraft(s: BankState, seed: number): { transfer: Transfer } | { form: TransferForm } {
  const d = s.draft!;
  const form: TransferForm = { from: d.from, to: d.to, amount: (d.amount / 100).toFixed(2), date: d.date, memo: d.memo, errors: {} };
  if (!validateTransfer(s, form)) return { form };
  const t: Transfer = { code: newCode(s, seed), from: d.from, to: d.to, amount: d.amount, date: d.date, memo: d.memo, status: d.date === s.today ? 'completed' : 'scheduled', origin: 'new', frequency: 'One time' };
  s.transfers.push(t);
  s.draft = null;
  if (t.status === 'completed') settle(s, t);
  return { transfer: t };
}

/** Move the money of a transfer sent today and write it into both accounts' activity. */
function settle(s: BankState, t: Transfer): void {
  const from = s.accounts.find((a) => a.id === t.from)!;
  let id = Math.max(0, ...s.transactions.map((x) => x.id)) + 1;
  from.balance -= t.amount;
  s.transactions.push({ id: id++, account: from.id, date: s.today, description: `Transfer to ${targetName(s, t.to)}`, type: 'Transfer', amount: -t.amount });
  const own = t.to.startsWith('a:') ? s.accounts.find((a) => `a:${a.id}` === t.to) : undefined;
  if (!own) return;
  if (own.kind === 'credit') {
    own.balance -= t.amount;
    s.transactions.push({ id, account: own.id, date: s.today, description: 'Payment received, thank you', type: 'Payment', amount: t.amount });
  } else {
    own.balance += t.amount;
    s.transactions.push({ id, account: own.id, date: s.today, description: `Transfer from ${from.name}`, type: 'Transfer', amount: t.amount });
  }
}

/** The payee a form describes, or null with `f.errors` filled in. */
export function validatePayee(s: BankState, f: PayeeForm): Payee | null {
  if (!f.name) f.errors.name = 'Enter the payee’s name.';
  else if (f.name.length > 40 || !NAME_RE.test(f.name)) f.errors.name = 'The name may contain letters, digits, spaces and & . , - \' only (40 at most).';
  else if (s.payees.some((p) => sameText(p.name, f.name))) f.errors.name = 'You already have a payee with this name.';
  const problem = ibanProblem(f.iban);
  if (problem === 'missing') f.errors.iban = 'Enter the payee’s account number (IBAN).';
  else if (problem === 'malformed') f.errors.iban = 'That is not an account number: use 2 letters, 2 digits and up to 30 letters or digits, e.g. GB82 WEST 1234 5698 7654 32.';
  else if (problem === 'checksum') f.errors.iban = 'This account number does not exist: check it for a mistyped character.';
  else if (s.payees.some((p) => p.iban === normalizeIban(f.iban))) f.errors.iban = 'You already have a payee with this account number.';
  if (f.reference.length > 18 || !REFERENCE_RE.test(f.reference)) f.errors.reference = 'The reference may have up to 18 letters, digits, spaces, - / or . characters.';
  if (Object.keys(f.errors).length) return null;
  return { id: Math.max(0, ...s.payees.map((p) => p.id)) + 1, name: f.name, iban: normalizeIban(f.iban), reference: f.reference, added: true };
}

/** Cancel a scheduled transfer with a reason from the list; returns the error to show, if any. */
export function cancelTransfer(t: Transfer, reason: string): string | null {
  if (!CANCEL_REASONS.includes(reason)) return 'Choose a reason for cancelling.';
  t.status = 'cancelled';
  t.cancelReason = reason;
  return null;
}
