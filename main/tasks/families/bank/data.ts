/**
 * Bank data, all from the seed: one customer's accounts (checking, savings, a credit card), saved
 * payees, about three months of transactions, and transfers already scheduled. Money is in cents;
 * a transaction's amount is signed (negative is money out).
 */
import { Rng, mixSeed } from '../../../common/rng.ts';
import { addDays, daysIn, iso, parts } from '../common/dates.ts';
import type { UiState } from '../common/site.ts';
import { makeIban } from './iban.ts';
import type { Variant } from './variant.ts';

export type AccountKind = 'checking' | 'savings' | 'credit';

export interface Account {
  /** Also its last four digits, printed masked and used in its page's path. */
  id: string;
  kind: AccountKind;
  name: string;
  /** Checking and savings: money held. Credit card: money owed. */
  balance: number;
  /** Card authorisations and cheques not yet settled; they lower what is available. */
  pending: number;
  creditLimit?: number;
  /** Savings interest, e.g. "3.10% APY". */
  rate?: string;
}

export const TXN_TYPES = ['Purchase', 'Deposit', 'Transfer', 'Bill payment', 'Withdrawal', 'Interest', 'Payment', 'Refund'] as const;
export type TxnType = (typeof TXN_TYPES)[number];

export interface Txn {
  id: number;
  account: string;
  date: string;
  description: string;
  type: TxnType;
  amount: number;
}

export interface Payee {
  id: number;
  name: string;
  /** Normalised: no spaces, upper case. */
  iban: string;
  reference: string;
  /** Added during the episode (not part of the generated site). */
  added: boolean;
}

/**
 * A transfer: one scheduled before the episode ('existing') or confirmed by the agent ('new').
 * `to` is 'p:<payee id>' or 'a:<account id>'.
 */
export interface Transfer {
  code: string;
  from: string;
  to: string;
  amount: number;
  date: string;
  memo: string;
  status: 'completed' | 'scheduled' | 'cancelled';
  origin: 'existing' | 'new';
  frequency: 'One time' | 'Monthly';
  cancelReason?: string;
}

/** A transfer filled in and waiting on the review page. */
export interface Draft {
  from: string;
  to: string;
  amount: number;
  date: string;
  memo: string;
}

export type BankGoal =
  | { kind: 'balance'; account: string; label: 'available balance' | 'available credit'; answer: string }
  | { kind: 'transaction'; account: string; txn: number; answer: string }
  | { kind: 'transfer'; from: string; to: string; amount: number; date: string; memo: string }
  | { kind: 'cancel'; code: string; reason: string }
  | { kind: 'payNew'; name: string; iban: string; reference: string; from: string; amount: number; account: string; merchant: string; month: string };

export interface BankState {
  siteName: string;
  customer: string;
  today: string;
  /** Per transfer, and per day for transfers dated today. */
  dailyLimit: number;
  accounts: Account[];
  payees: Payee[];
  transactions: Txn[];
  transfers: Transfer[];
  draft: Draft | null;
  /** The payee the home page's "Quick pay" box offers (a distractor), if the site has one. */
  quickPayee: number | null;
  variant: Variant;
  goal: BankGoal;
  ui: UiState & { noticeDismissed: boolean };
  /** Counts confirmation numbers handed out, so each is new. */
  issued: number;
}

export const CANCEL_REASONS = ['No longer needed', 'Paid another way', 'Wrong amount', 'Wrong date', 'Other'];

const SITES = ['Harborline Bank', 'Northgate Credit Union', 'Summit Trust', 'Keystone Savings Bank', 'Riverbend Federal'];
const CHECKING = ['Everyday Checking', 'Premier Checking', 'Advantage Checking', 'Smart Checking'];
const SAVINGS = ['High-Yield Savings', 'Rainy Day Savings', 'Goal Saver', 'Online Savings'];
const SAVINGS_2 = ['Holiday Fund', 'Vacation Savings', 'Emergency Fund', 'Car Fund'];
const CARDS = ['Rewards Visa', 'Cash Back Mastercard', 'Platinum Card', 'Travel Rewards Card'];
const FIRST = ['Maria', 'Tom', 'Ana', 'Kai', 'Priya', 'Jonas', 'Leila', 'Marcus', 'Sofia', 'Dmitri', 'Hannah', 'Tariq', 'Elena', 'Noah', 'Aiko', 'Felix'];
const LAST = ['Lopez', 'Becker', 'Silva', 'Nakamura', 'Nair', 'Berg', 'Haddad', 'Reid', 'Rossi', 'Volkov', 'Schmidt', 'Aziz', 'Costa', 'Walsh', 'Mori', 'Lang'];
const BUSINESSES = ['City Water Utility', 'Greenfield Property Mgmt', 'Northside Dental', 'Riverside Gym', 'Oakwood Daycare', 'Bright Spark Electric', 'Lakeside Tennis Club'];
const EMPLOYERS = ['Acme Logistics', 'Brightway Media', 'Coastal Health', 'Delta Robotics', 'Evergreen Foods'];
const LANDLORDS = ['Parkview Apartments', 'Elm Court Lettings', 'Harbor Homes'];
const UTILITIES = ['City Power & Light', 'Metro Gas Co', 'FiberNet Internet'];
export const CAFES = ['Bluebird Coffee', 'Daily Grind Cafe', 'Bean There Coffee Co', 'Copper Kettle Cafe', 'Morning Ritual Espresso'];
export const GROCERS = ['FreshMart', 'Green Basket Grocers', 'Corner Market', 'Valley Foods'];
export const RESTAURANTS = ['Luigi Trattoria', 'Saffron House', 'Blue Fin Sushi', 'The Burger Barn', 'Casa Verde'];
const FUEL = ['QuickFuel', 'Apex Gas', 'RoadRunner Fuel'];
const SHOPS = ['ShopNow Online', 'Paperback Books', 'Gadget Hub', 'Home & Hearth'];
const STREAMING = ['StreamBox', 'TuneWave Music'];
const STREETS = ['Main St', 'Harbor Rd', 'Elm Ave', 'Market Sq'];
export const MEMOS = ['Rent share', 'Dinner last week', 'Birthday gift', 'Concert tickets', 'Utilities split', 'Book club', 'Car repair', 'Holiday cottage', 'Gym fees', 'Lunch money', 'Team present', 'Moving costs'];

const cents = (rng: Rng, lo: number, hi: number) => rng.int(lo * 100, hi * 100);

/** What can be spent now: balance less pending, or for a card the credit left. */
export function available(a: Account): number {
  return a.kind === 'credit' ? a.creditLimit! - a.balance - a.pending : a.balance - a.pending;
}

/** Accounts money can be sent from (cards cannot pay a payee). */
export function sourceAccounts(s: { accounts: Account[] }): Account[] {
  return s.accounts.filter((a) => a.kind !== 'credit');
}

/** The first and last day of the calendar month before `today`. */
export function lastMonth(today: string): { from: string; to: string } {
  const { y, m } = parts(today);
  const [py, pm] = m === 1 ? [y - 1, 12] : [y, m - 1];
  return { from: iso(py, pm, 1), to: iso(py, pm, daysIn(py, pm)) };
}

export function personName(rng: Rng): string {
  return `${rng.pick(FIRST)} ${rng.pick(LAST)}`;
}

/** Accounts are listed checking first, then savings, then the card. */
const kindRank = (k: AccountKind) => (k === 'checking' ? 0 : k === 'savings' ? 1 : 2);

function makeAccounts(rng: Rng): Account[] {
  const ids = new Set<string>();
  const id = () => {
    let x = '';
    do x = String(rng.int(1000, 9999));
    while (ids.has(x));
    ids.add(x);
    return x;
  };
  const accounts: Account[] = [
    { id: id(), kind: 'checking', name: rng.pick(CHECKING), balance: cents(rng, 400, 6500), pending: rng.chance(0.7) ? cents(rng, 12, 240) : 0 },
    { id: id(), kind: 'savings', name: rng.pick(SAVINGS), balance: cents(rng, 1500, 24000), pending: 0, rate: `${(rng.int(150, 460) / 100).toFixed(2)}% APY` },
  ];
  if (rng.chance(0.4)) accounts.push({ id: id(), kind: 'savings', name: rng.pick(SAVINGS_2), balance: cents(rng, 200, 4000), pending: 0, rate: `${(rng.int(100, 300) / 100).toFixed(2)}% APY` });
  const limit = rng.pick([3000, 5000, 8000, 12000]) * 100;
  accounts.push({ id: id(), kind: 'credit', name: rng.pick(CARDS), balance: (limit / 100) * rng.int(5, 40) + rng.int(0, 9999), pending: rng.chance(0.6) ? cents(rng, 8, 160) : 0, creditLimit: limit });
  return rng.shuffle(accounts).sort((a, b) => kindRank(a.kind) - kindRank(b.kind));
}


function makePayees(rng: Rng): Payee[] {
  const names = new Set<string>();
  const payees: Payee[] = [];
  const n = rng.int(4, 7);
  let id = rng.int(100, 400);
  while (payees.length < n) {
    const name = rng.chance(0.6) ? personName(rng) : rng.pick(BUSINESSES);
    if (names.has(name)) continue;
    names.add(name);
    const reference = rng.chance(0.7) ? rng.pick(['Rent', 'Invoice', 'Lessons', 'Membership', 'Dues', 'Savings club', 'Childcare', 'Loan']) + (rng.chance(0.5) ? ` ${rng.int(10, 99)}` : '') : '';
    payees.push({ id, name, iban: makeIban(rng), reference, added: false });
    id += rng.int(1, 9);
  }
  return payees;
}

/**
 * The hundred days before today, day by day: pay, rent, bills and transfers on fixed days; cafés,
 * groceries, dining, fuel and shopping by chance, on the card or the checking account.
 */
function makeTransactions(rng: Rng, accounts: Account[], today: string): Txn[] {
  const chk = accounts.find((a) => a.kind === 'checking')!;
  const sav = accounts.find((a) => a.kind === 'savings')!;
  const card = accounts.find((a) => a.kind === 'credit')!;
  // Café and restaurant spending sits on the card or on the checking account's debit card.
  const coffeeOn = rng.chance(0.7) ? card : chk;
  const diningOn = rng.chance(0.6) ? card : chk;
  const groceriesOn = rng.chance(0.7) ? chk : card;
  const cafes = rng.sample(CAFES, 2);
  const grocers = rng.sample(GROCERS, 2);
  const restaurants = rng.sample(RESTAURANTS, 3);
  const employer = rng.pick(EMPLOYERS);
  const landlord = rng.pick(LANDLORDS);
  const utilities = rng.sample(UTILITIES, 2);
  const payday = rng.int(0, 13);
  const out: Array<Omit<Txn, 'id'>> = [];
  const add = (account: Account, date: string, description: string, type: TxnType, amount: number) => out.push({ account: account.id, date, description, type, amount });
  const start = addDays(today, -100);
  for (let i = 0; i < 100; i++) {
    const date = addDays(start, i);
    const d = parts(date).d;
    if ((i + payday) % 14 === 0) add(chk, date, `Payroll ${employer}`, 'Deposit', cents(rng, 1700, 3200));
    if (d === 1) add(chk, date, `${landlord} rent`, 'Bill payment', -cents(rng, 900, 1900));
    if (d === 2) {
      const amt = rng.int(1, 8) * 5000;
      add(chk, date, `Transfer to ${sav.name}`, 'Transfer', -amt);
      add(sav, date, `Transfer from ${chk.name}`, 'Transfer', amt);
    }
    if (d === 12) add(chk, date, utilities[0], 'Bill payment', -cents(rng, 40, 160));
    if (d === 17) add(chk, date, utilities[1], 'Bill payment', -cents(rng, 30, 90));
    if (d === 21) {
      const amt = cents(rng, 150, 900);
      add(chk, date, `Payment to ${card.name}`, 'Transfer', -amt);
      add(card, date, 'Payment received, thank you', 'Payment', amt);
    }
    if (d === daysIn(parts(date).y, parts(date).m)) add(sav, date, 'Interest paid', 'Interest', cents(rng, 2, 40));
    if (d === 8) add(card, date, STREAMING[0], 'Purchase', -rng.pick([1199, 1549, 1799]));
    if (d === 26) add(card, date, STREAMING[1], 'Purchase', -rng.pick([999, 1099]));
    for (const cafe of cafes) if (rng.chance(0.2)) add(coffeeOn, date, cafe, 'Purchase', -rng.int(350, 980));
    if (rng.chance(0.22)) add(groceriesOn, date, rng.pick(grocers), 'Purchase', -cents(rng, 18, 165));
    if (rng.chance(0.14)) add(diningOn, date, rng.pick(restaurants), 'Purchase', -cents(rng, 22, 95));
    if (rng.chance(0.1)) add(chk, date, rng.pick(FUEL), 'Purchase', -cents(rng, 28, 74));
    if (rng.chance(0.07)) add(card, date, rng.pick(SHOPS), 'Purchase', -cents(rng, 12, 220));
    if (rng.chance(0.04)) add(chk, date, `ATM ${rng.pick(STREETS)}`, 'Withdrawal', -rng.int(2, 12) * 2000);
    if (rng.chance(0.015)) add(card, date, `${rng.pick(SHOPS)} refund`, 'Refund', cents(rng, 10, 60));
  }
  let id = rng.int(50000, 60000);
  return out.map((t) => ({ ...t, id: id++ }));
}

/** Transfers already scheduled before the episode: one-off and monthly, to payees and own accounts. */
function makeScheduled(rng: Rng, accounts: Account[], payees: Payee[], today: string): Transfer[] {
  const sources = accounts.filter((a) => a.kind !== 'credit');
  const out: Transfer[] = [];
  const n = rng.int(3, 6);
  // Often two to the same payee, so the date or amount has to be read to pick the right one.
  const twice = rng.pick(payees);
  const codes = new Set<string>();
  while (out.length < n) {
    const to = out.length < 2 ? twice : rng.pick(payees);
    let code = '';
    do code = `SCH-${rng.int(10000, 99999)}`;
    while (codes.has(code));
    codes.add(code);
    const date = addDays(today, rng.int(2, 60));
    if (out.some((t) => t.to === `p:${to.id}` && t.date === date)) continue;
    out.push({ code, from: rng.pick(sources).id, to: `p:${to.id}`, amount: cents(rng, 20, 600), date, memo: rng.chance(0.5) ? rng.pick(MEMOS) : '', status: 'scheduled', origin: 'existing', frequency: rng.chance(0.35) ? 'Monthly' : 'One time' });
  }
  return out.sort((a, b) => a.date.localeCompare(b.date) || a.code.localeCompare(b.code));
}

export interface BankData {
  siteName: string;
  customer: string;
  today: string;
  dailyLimit: number;
  accounts: Account[];
  payees: Payee[];
  transactions: Txn[];
  transfers: Transfer[];
}

export function generateBank(seed: number): BankData {
  const rng = new Rng(mixSeed(seed, 'bank-data'));
  const today = iso(2026, rng.int(1, 12), rng.int(1, 28));
  const accounts = makeAccounts(rng);
  const payees = makePayees(rng);
  const transactions = makeTransactions(rng, accounts, today);
  return {
    siteName: rng.pick(SITES),
    customer: personName(rng),
    today,
    dailyLimit: rng.pick([2500, 3000, 5000]) * 100,
    accounts,
    payees,
    transactions,
    transfers: makeScheduled(rng, accounts, payees, today),
  };
}

/** How a transfer target reads: a payee's name or an own account's name. */
export function targetName(s: { accounts: Account[]; payees: Payee[] }, to: string): string {
  const [kind, id] = [to.slice(0, 2), to.slice(2)];
  if (kind === 'p:') return s.payees.find((p) => String(p.id) === id)?.name ?? 'Unknown payee';
  return s.accounts.find((a) => a.id === id)?.name ?? 'Unknown account';
}
