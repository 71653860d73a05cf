/**
 * The account behind a settings site, from the seed: who the user is, their devices, blocked
 * people, plan and invoices, and every saved setting as a flat map of keys to strings. The flat map
 * is what forms write and what the checker compares with the expected one, so a change anywhere,
 * wanted or not, shows up as a differing key.
 */
import { Rng, mixSeed } from '../../../common/rng.ts';
import { addDays, iso } from '../common/dates.ts';
import type { UiState } from '../common/site.ts';
import { pickLook, type Look } from './look.ts';
import {
  APPS, BROWSERS, CARD_BRANDS, CHANNELS, CITIES, DEVICES, DIGESTS, EVENTS, FIRST_NAMES, LANGUAGES, LAST_NAMES, MAIL_DOMAINS, PLANS, SITE_NAMES, TIME_ZONES, VISIBILITIES,
  type EventKey, type ExportFormat,
} from './vocabulary.ts';

export interface Session {
  id: string;
  device: string;
  browser: string;
  city: string;
  lastActive: string;
  /** The session this browser is in: listed, but it cannot sign itself out here. */
  current: boolean;
}

export interface BlockedUser {
  id: string;
  name: string;
  handle: string;
}

export interface ConnectedApp {
  id: string;
  name: string;
  access: string;
}

export interface Invoice {
  number: string;
  date: string;
  cents: number;
  status: 'Paid' | 'Due';
}

export interface Billing {
  plan: string;
  monthlyCents: number;
  renews: string;
  card: { brand: string; last4: string; expires: string };
  invoices: Invoice[];
}

export interface ExportRequest {
  format: ExportFormat;
  on: string;
}

/** A part of the task: questions are answered by message, the rest are changes to saved settings. */
export type SettingsGoal =
  | { kind: 'answer'; topic: 'plan' | 'invoiceDate' | 'invoiceAmount'; answer: string }
  /** Form fields to hold given values once saved; `what` names the change in key points. */
  | { kind: 'set'; what: string; changes: Record<string, string> }
  | { kind: 'password'; current: string; next: string }
  | { kind: 'signOut'; session: string }
  | { kind: 'unblock'; user: string }
  | { kind: 'export'; format: ExportFormat };

export interface SettingsState {
  siteName: string;
  look: Look;
  today: string;
  /** Notification events this account has, in the order the look lists them. */
  events: EventKey[];
  sessions: Session[];
  blocked: BlockedUser[];
  apps: ConnectedApp[];
  billing: Billing;
  /** Saved settings, flat: "profile.email", "notify.security.sms" ('1'/'0'), "session.s2" ('active'/'signed-out'), ... */
  values: Record<string, string>;
  /** The settings as generated, for telling wanted changes from side effects. */
  initial: Record<string, string>;
  password: string;
  initialPassword: string;
  exports: ExportRequest[];
  goals: SettingsGoal[];
  ui: UiState;
}

export const notifyKey = (event: EventKey, channel: string) => `notify.${event}.${channel}`;
export const sessionKey = (id: string) => `session.${id}`;
export const blockedKey = (id: string) => `blocked.${id}`;
export const appKey = (id: string) => `app.${id}`;

export function phoneOf(rng: Rng): string {
  return `(${rng.int(201, 989)}) 555-${String(rng.int(100, 9999)).padStart(4, '0')}`;
}

export function emailOf(first: string, last: string, domain: string): string {
  return `${first}.${last}@${domain}`.toLowerCase();
}

export type AccountData = Omit<SettingsState, 'goals' | 'initial' | 'initialPassword'>;

/** Everything but the task: the site, the account and its saved settings. */
export function generateAccount(seed: number): AccountData {
  const rng = new Rng(mixSeed(seed, 'settings-data'));
  const look = pickLook(seed);
  const today = iso(2026, rng.int(1, 12), rng.int(1, 28));
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  const values: Record<string, string> = {
    'profile.displayName': `${first} ${last}`,
    'profile.email': emailOf(first, last, rng.pick(MAIL_DOMAINS)),
    'profile.phone': phoneOf(rng),
    'profile.timeZone': rng.pick(TIME_ZONES).id,
    'profile.language': rng.pick(LANGUAGES).id,
    'twofactor.enabled': '0',
    'twofactor.method': '',
    'digest': rng.pick(DIGESTS),
    'privacy.visibility': rng.pick(VISIBILITIES),
    'privacy.searchable': rng.chance(0.5) ? '1' : '0',
    'x.signature': `Best regards,\n${first}`,
    'x.sound': rng.pick(['chime', 'bell', 'pop']),
    'x.offers': rng.chance(0.5) ? '1' : '0',
    'x.partners': '0',
    'x.surveys': rng.chance(0.5) ? '1' : '0',
    'x.reduceMotion': '0',
    'x.highContrast': rng.chance(0.3) ? '1' : '0',
  };
  values['billing.email'] = rng.chance(0.5) ? values['profile.email'] : emailOf(first, 'billing', rng.pick(MAIL_DOMAINS));
  // Two-factor starts on for some accounts, so "turn it on" is not a constant of the site.
  if (rng.chance(0.25)) Object.assign(values, { 'twofactor.enabled': '1', 'twofactor.method': rng.pick(['app', 'sms']) });

  const events = look.eventOrder.filter((e) => e === 'security' || rng.chance(0.8)).slice(0, 5);
  if (events.length < 4) for (const e of EVENTS) if (!events.includes(e) && events.length < 4) events.push(e);
  for (const e of events) for (const c of CHANNELS) values[notifyKey(e, c)] = rng.chance(e === 'security' ? 0.7 : 0.5) ? '1' : '0';

  // Devices and cities repeat across sessions (the same phone in two cities, two devices in one
  // city), so a session is named only by its device and city together.
  const sessions: Session[] = [];
  const n = rng.int(4, 6);
  const deviceSet = rng.sample(DEVICES, 3);
  const citySet = rng.sample(CITIES, 4);
  const seen = new Set<string>();
  while (sessions.length < n) {
    const device = rng.pick(deviceSet);
    const city = rng.pick(citySet);
    if (seen.has(`${device}|${city}`)) continue;
    seen.add(`${device}|${city}`);
    const ago = sessions.length === 0 ? 'Active now' : rng.pick(['2 hours ago', 'Yesterday', '3 days ago', 'Last week', '5 minutes ago', '2 weeks ago']);
    sessions.push({ id: `s${sessions.length + 1}`, device, browser: rng.pick(BROWSERS), city, lastActive: ago, current: sessions.length === 0 });
  }
  const ordered = rng.shuffle(sessions);
  for (const s of ordered) values[sessionKey(s.id)] = 'active';

  const blocked: BlockedUser[] = rng.sample(FIRST_NAMES.filter((f) => f !== first), rng.int(2, 5)).map((f, i) => {
    const l = rng.pick(LAST_NAMES);
    return { id: `u${i + 1}`, name: `${f} ${l}`, handle: `@${f.toLowerCase()}${l.toLowerCase().slice(0, 3)}${rng.int(1, 99)}` };
  });
  for (const b of blocked) values[blockedKey(b.id)] = 'blocked';

  const apps: ConnectedApp[] = rng.sample(APPS, rng.int(2, 3)).map((name, i) => ({ id: `a${i + 1}`, name, access: rng.pick(['Read your profile', 'Read and send messages', 'See your calendar']) }));
  for (const a of apps) values[appKey(a.id)] = 'connected';

  const plan = rng.pick(PLANS);
  const invoices: Invoice[] = [];
  const count = rng.int(4, 7);
  const latest = today.slice(0, 8) + String(rng.int(1, Number(today.slice(8)))).padStart(2, '0');
  for (let i = 0; i < count; i++) {
    // Monthly invoices, the newest within this month; amounts differ by usage add-ons so each is its own answer.
    const d = addDays(latest, -30 * i - rng.int(0, 2));
    const cents = plan.monthly + (rng.chance(0.4) ? rng.int(1, 9) * 100 : 0) + rng.int(0, 99);
    invoices.push({ number: `INV-${rng.int(10000, 99999)}`, date: d, cents, status: i === 0 && rng.chance(0.3) ? 'Due' : 'Paid' });
  }
  const billing: Billing = {
    plan: plan.name,
    monthlyCents: plan.monthly,
    renews: addDays(today, rng.int(3, 27)),
    card: { brand: rng.pick(CARD_BRANDS), last4: String(rng.int(1000, 9999)), expires: `${String(rng.int(1, 12)).padStart(2, '0')}/${rng.int(27, 31)}` },
    invoices,
  };

  return {
    siteName: rng.pick(SITE_NAMES),
    look,
    today,
    events,
    sessions: ordered,
    blocked,
    apps,
    billing,
    values,
    password: `${rng.pick(['Harbor', 'Maple', 'Cobalt', 'Juniper', 'Falcon'])}-${rng.pick(['lantern', 'river', 'pepper', 'orbit'])}-${rng.int(10, 99)}`,
    exports: [],
    ui: { cookiesDismissed: !look.cookieBanner },
  };
}
