/**
 * Judges a bank task from server-side state: the transfers confirmed, cancelled and left alone, the
 * payees saved, or (for questions) the agent's message. Side effects are key points too: another
 * transfer sent, a scheduled transfer cancelled that was not asked for, a payee added unasked.
 */
import type { CheckResult, InstanceContext, KeyPoint } from '../../types.ts';
import { answerMatches, sameText } from '../../../common/normalize.ts';
import { money } from '../common/html.ts';
import { targetName, type BankGoal, type BankState, type Transfer } from './data.ts';

type Ctx = InstanceContext<BankState>;
type Point = (name: string, met: boolean, detail?: string) => void;

function collector(): { kp: KeyPoint[]; point: Point } {
  const kp: KeyPoint[] = [];
  return { kp, point: (name, met, detail) => kp.push({ name, met, ...(detail ? { detail } : {}) }) };
}

/** Transfers the agent confirmed and did not cancel again. */
function sent(s: BankState): Transfer[] {
  return s.transfers.filter((t) => t.origin === 'new' && t.status !== 'cancelled');
}

/** Of several candidates, the one that meets the most key points is judged. */
function best(candidates: Transfer[], points: (t: Transfer | undefined) => KeyPoint[]): KeyPoint[] {
  let kp = points(candidates[0]);
  for (const t of candidates.slice(1)) {
    const k = points(t);
    if (k.filter((x) => x.met).length > kp.filter((x) => x.met).length) kp = k;
  }
  return kp;
}

function accountName(s: BankState, id: string | undefined): string | undefined {
  return id === undefined ? undefined : s.accounts.find((a) => a.id === id)?.name;
}

/** Existing scheduled transfers the goal did not ask to cancel stay scheduled; no stray payee. */
function sideEffects(s: BankState, point: Point, allowed: { cancel?: string; payeeIban?: string; transfers: number }): void {
  const stray = s.transfers.filter((t) => t.origin === 'existing' && t.status === 'cancelled' && t.code !== allowed.cancel);
  point('other scheduled transfers untouched', !stray.length, stray.length ? stray.map((t) => t.code).join(', ') : undefined);
  const extra = sent(s).length - allowed.transfers;
  point(allowed.transfers ? 'no other transfers' : 'no transfers made', extra <= 0, extra > 0 ? `${sent(s).length} transfers` : undefined);
  const added = s.payees.filter((p) => p.added && p.iban !== allowed.payeeIban);
  point(allowed.payeeIban ? 'no other payees added' : 'no payees added', !added.length, added.length ? added.map((p) => p.name).join(', ') : undefined);
}

function answerPoints(ctx: Ctx, g: Extract<BankGoal, { answer: string }>): KeyPoint[] {
  const m = ctx.agentMessages;
  const what = g.kind === 'balance' ? g.label : 'transaction amount';
  return [
    { name: 'answer sent', met: m.length > 0 },
    { name: `correct ${what}`, met: m.some((x) => answerMatches(g.answer, x)), ...(m.length ? { detail: m.at(-1) } : {}) },
  ];
}

function transferPoints(s: BankState, g: Extract<BankGoal, { kind: 'transfer' }>): KeyPoint[] {
  const kp = best(sent(s), (t) => {
    const { kp, point } = collector();
    point('transfer confirmed', !!t, t ? t.code : 'no transfer was confirmed');
    point(`from ${accountName(s, g.from)}`, t?.from === g.from, accountName(s, t?.from));
    point(`to ${targetName(s, g.to)}`, t?.to === g.to, t ? targetName(s, t.to) : undefined);
    point(`amount ${money(g.amount)}`, t?.amount === g.amount, t ? money(t.amount) : undefined);
    point(`date ${g.date}`, t?.date === g.date, t?.date);
    point(`memo "${g.memo}"`, !!t && sameText(t.memo, g.memo), t?.memo);
    return kp;
  });
  const { kp: side, point } = collector();
  sideEffects(s, point, { transfers: 1 });
  return [...kp, ...side];
}

function cancelPoints(s: BankState, g: Extract<BankGoal, { kind: 'cancel' }>): KeyPoint[] {
  const t = s.transfers.find((x) => x.code === g.code)!;
  const { kp, point } = collector();
  point(`${g.code} cancelled`, t.status === 'cancelled', t.status);
  point(`reason "${g.reason}"`, t.cancelReason === g.reason, t.cancelReason);
  sideEffects(s, point, { cancel: g.code, transfers: 0 });
  return kp;
}

function payNewPoints(s: BankState, g: Extract<BankGoal, { kind: 'payNew' }>): KeyPoint[] {
  const { kp, point } = collector();
  const p = s.payees.find((x) => x.added && x.iban === g.iban);
  point('payee added with the account number', !!p, p ? p.name : 'no payee has that account number');
  point(`payee name ${g.name}`, !!p && sameText(p.name, g.name), p?.name);
  point(`reference "${g.reference}"`, !!p && sameText(p.reference, g.reference), p?.reference);
  const toPayee = p ? sent(s).filter((t) => t.to === `p:${p.id}`) : [];
  const pay = best(toPayee, (t) => {
    const { kp, point } = collector();
    point('the new payee paid', !!t, t ? t.code : 'no transfer to the new payee');
    point(`amount ${money(g.amount)}`, t?.amount === g.amount, t ? money(t.amount) : undefined);
    point(`from ${accountName(s, g.from)} (the account that covers it)`, t?.from === g.from, accountName(s, t?.from));
    point('sent today', t?.date === s.today, t?.date);
    return kp;
  });
  sideEffects(s, point, { payeeIban: g.iban, transfers: 1 });
  return [...kp.slice(0, 3), ...pay, ...kp.slice(3)];
}

export function checkBank(ctx: Ctx): CheckResult {
  const s = ctx.state;
  const g = s.goal;
  const kp =
    g.kind === 'balance' || g.kind === 'transaction' ? answerPoints(ctx, g) : g.kind === 'transfer' ? transferPoints(s, g) : g.kind === 'cancel' ? cancelPoints(s, g) : payNewPoints(s, g);
  return { success: kp.every((k) => k.met), keyPoints: kp };
}
