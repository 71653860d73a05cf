/** Judges a shop instance from its cart and orders, with one key point per requirement. */
import type { CheckResult, KeyPoint } from '../../types.ts';
import { sameText } from '../../../common/normalize.ts';
import { SHIPPING, type CartLine } from './data.ts';
import type { Ctx } from './chrome.ts';

export function checkShop(ctx: Ctx): CheckResult {
  const s = ctx.state;
  const g = s.goal;
  const target = s.products.find((p) => p.id === g.productId)!;
  const kp: KeyPoint[] = [];
  const point = (name: string, met: boolean, detail?: string) => kp.push({ name, met, ...(detail ? { detail } : {}) });
  const describe = (ls: CartLine[]) => ls.map((l) => `${l.qty} × #${l.productId} ${l.color ?? ''} ${l.size ?? ''}`.trim()).join('; ') || 'nothing';

  if (g.kind === 'buy') {
    const order = s.orders.find((o) => o.lines.some((l) => l.productId === g.productId)) ?? s.orders[s.orders.length - 1];
    point('order placed', !!order, order ? order.id : 'no order was placed');
    const lines = order?.lines ?? [];
    const mine = lines.filter((l) => l.productId === g.productId);
    point('right product', mine.length > 0, `ordered: ${describe(lines)}; wanted #${target.id} ${target.name}`);
    if (g.color) point(`color ${g.color}`, mine.length > 0 && mine.every((l) => l.color === g.color));
    if (g.size) point(`size ${g.size}`, mine.length > 0 && mine.every((l) => l.size === g.size));
    point(`quantity ${g.qty}`, mine.reduce((n, l) => n + l.qty, 0) === g.qty);
    point('nothing else ordered', !!order && lines.every((l) => l.productId === g.productId));
    const shipLabel = SHIPPING.find((x) => x.id === g.shipping)!.label;
    point(`shipping ${shipLabel}`, order?.shipping === g.shipping, order ? `chose ${order.shipping}` : undefined);
    const a = order?.address;
    const want = g.address!;
    point(
      'shipping address',
      !!a && sameText(a.name, want.name) && sameText(a.street, want.street) && sameText(a.city, want.city) && a.postal === want.postal,
      a ? `${a.name}, ${a.street}, ${a.city} ${a.postal}` : undefined,
    );
  } else {
    // A cart task also counts when the agent went on to order the right thing.
    const lines = [...s.cart, ...s.orders.flatMap((o) => o.lines)];
    const mine = lines.filter((l) => l.productId === g.productId);
    point('right product in cart', mine.length > 0, `cart: ${describe(lines)}; wanted #${target.id} ${target.name}`);
    if (g.size) point(`size ${g.size}`, mine.length > 0 && mine.every((l) => l.size === g.size));
    point(`quantity ${g.qty}`, mine.reduce((n, l) => n + l.qty, 0) === g.qty);
    point('nothing else in cart', lines.every((l) => l.productId === g.productId));
  }
  return { success: kp.every((k) => k.met), keyPoints: kp };
}
