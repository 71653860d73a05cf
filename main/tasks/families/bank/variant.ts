/**
 * How one bank site looks and words itself, drawn from the seed alone. A policy trained on sites
 * with one fixed layout learned where buttons sit and what they are called instead of reading the
 * page; here every instance draws its labels from synonyms, orders its navigation and home-page
 * sections, adds one to three distractors and picks a layout. Pages and the oracle both read the
 * chosen words from the instance state, so the oracle finds every control by the name it has.
 */
import { drawWords, placeDistractors, variantRng } from '../common/variant.ts';

/**
 * Synonyms per label. Lists are disjoint across keys that can share a page, so a name found on a
 * page always means one thing.
 */
export const WORDING = {
  navAccounts: ['Accounts', 'My accounts', 'Overview', 'Account summary'],
  navTransfer: ['Transfer', 'Send money', 'Make a payment', 'Move money'],
  navPayees: ['Payees', 'Recipients', 'Saved payees', 'Manage payees'],
  navScheduled: ['Scheduled transfers', 'Upcoming payments', 'Planned transfers', 'Future-dated payments'],
  from: ['From account', 'From', 'Pay from', 'Source account'],
  to: ['To', 'Pay to', 'To account or payee', 'Recipient'],
  amount: ['Amount', 'Transfer amount', 'Sum', 'How much'],
  date: ['Date', 'Transfer date', 'Send on', 'Payment date'],
  memo: ['Memo', 'Note', 'Message', 'Description'],
  continue: ['Continue', 'Review', 'Next', 'Review transfer'],
  confirm: ['Confirm', 'Confirm transfer', 'Send now', 'Authorize transfer'],
  edit: ['Edit', 'Change details', 'Go back and edit', 'Make changes'],
  addPayee: ['Add payee', 'New payee', 'Add a recipient', 'Add someone new'],
  payeeName: ['Payee name', 'Name', 'Recipient name', 'Full name'],
  iban: ['Account number', 'IBAN', 'Account number (IBAN)', 'Bank account number'],
  reference: ['Reference', 'Payment reference', 'Their reference', 'Reference for the payee'],
  savePayee: ['Save payee', 'Save', 'Add this payee', 'Save recipient'],
  /** A link on the payees page; {name} is the payee's name. */
  payTo: ['Pay {name}', 'Send to {name}', 'Transfer to {name}', 'Pay {name} now'],
  search: ['Search transactions', 'Search', 'Find a transaction', 'Description contains'],
  period: ['Period', 'Date range', 'Show', 'Time period'],
  type: ['Type', 'Transaction type', 'Kind', 'Category'],
  fromDate: ['From date', 'Start date', 'On or after', 'Earliest date'],
  toDate: ['To date', 'End date', 'On or before', 'Latest date'],
  apply: ['Apply', 'Filter', 'Show transactions', 'Update list'],
  nextPage: ['Next page', 'Older transactions', 'More transactions', 'Show older'],
  prevPage: ['Previous page', 'Newer transactions', 'Back to newer', 'Show newer'],
  activity: ['Activity', 'Transactions', 'Account activity', 'Recent transactions'],
  current: ['Current balance', 'Balance', 'Ledger balance', 'Balance today'],
  available: ['Available balance', 'Available now', 'Available funds', 'Available to spend'],
  availableCredit: ['Available credit', 'Credit available', 'Remaining credit', 'Spending power'],
  cancelScheduled: ['Cancel this transfer', 'Cancel transfer', 'Stop this payment', 'Delete this payment'],
  reason: ['Reason', 'Why are you cancelling?', 'Reason for cancelling', 'Cancellation reason'],
  confirmCancel: ['Yes, cancel it', 'Confirm cancellation', 'Stop payment', 'Cancel payment'],
  keep: ['Keep this transfer', 'Go back', "Don't cancel", 'Keep it'],
  noticeClose: ['Got it', 'OK, thanks', 'Close', 'Dismiss'],
} as const;

export type WordKey = keyof typeof WORDING;
export type Words = { [K in WordKey]: string };

/** The site's own pages a navigation link can lead to; the last three are distractors. */
export type NavKey = 'accounts' | 'transfer' | 'payees' | 'scheduled' | 'statements' | 'abroad' | 'rewards';
/** Home-page sections; the last three are distractors. */
export type SectionKey = 'accounts' | 'recent' | 'upcoming' | 'quickPay' | 'offer' | 'insights';
export type TransferField = 'from' | 'to' | 'amount' | 'date' | 'memo';
export type PayeeField = 'name' | 'iban' | 'reference';

export interface Variant {
  words: Words;
  nav: NavKey[];
  sections: SectionKey[];
  /** Where the main navigation sits: a bar under the header, a sidebar, or inside the header. */
  navPlacement: 'top' | 'side' | 'header';
  accountsView: 'table' | 'cards' | 'list';
  /** One signed amount column, or money in and money out apart. */
  amountColumns: 'signed' | 'split';
  /** How the activity table prints dates: 14 Mar 2026, 2026-03-14, or Mar 14, 2026. */
  dateStyle: 'dmy' | 'iso' | 'mdy';
  /** A colour scheme (a class on <body>). */
  accent: 'teal' | 'navy' | 'plum' | 'forest';
  overlay: 'cookies' | 'notice' | 'none';
  transferFields: TransferField[];
  payeeFields: PayeeField[];
}

const CORE_NAV: NavKey[] = ['accounts', 'transfer', 'payees', 'scheduled'];
const DISTRACTOR_NAV: NavKey[] = ['statements', 'abroad', 'rewards'];
const CORE_SECTIONS: SectionKey[] = ['accounts', 'recent', 'upcoming'];
const DISTRACTOR_SECTIONS: SectionKey[] = ['quickPay', 'offer', 'insights'];
const TRANSFER_ORDERS: TransferField[][] = [
  ['from', 'to', 'amount', 'date', 'memo'],
  ['from', 'amount', 'to', 'memo', 'date'],
  ['to', 'from', 'amount', 'memo', 'date'],
  ['amount', 'from', 'to', 'date', 'memo'],
];
const PAYEE_ORDERS: PayeeField[][] = [
  ['name', 'iban', 'reference'],
  ['iban', 'name', 'reference'],
  ['name', 'reference', 'iban'],
];

export function drawVariant(seed: number): Variant {
  const rng = variantRng(seed, 'bank');
  const words: Words = drawWords(rng, WORDING);
  const { nav, sections } = placeDistractors(rng, { core: CORE_NAV, extra: DISTRACTOR_NAV }, { core: CORE_SECTIONS, extra: DISTRACTOR_SECTIONS });
  const r = rng.next();
  return {
    words,
    nav,
    sections,
    navPlacement: rng.pick(['top', 'side', 'header'] as const),
    accountsView: rng.pick(['table', 'cards', 'list'] as const),
    amountColumns: rng.pick(['signed', 'split'] as const),
    dateStyle: rng.pick(['dmy', 'iso', 'mdy'] as const),
    accent: rng.pick(['teal', 'navy', 'plum', 'forest'] as const),
    overlay: r < 0.45 ? 'cookies' : r < 0.8 ? 'notice' : 'none',
    transferFields: rng.pick(TRANSFER_ORDERS),
    payeeFields: rng.pick(PAYEE_ORDERS),
  };
}

/** The "pay this payee" link's name on this site. */
export function payToLabel(words: Words, name: string): string {
  return words.payTo.replace('{name}', name);
}
