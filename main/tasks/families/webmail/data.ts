/** Webmail data: people, a mailbox of templated messages with facts to ask about, and the state shape. */
import { Rng, mixSeed } from '../../../common/rng.ts';
import { money } from '../common/html.ts';
import type { Variant } from './variant.ts';

export const FOLDERS = [
  { id: 'inbox', label: 'Inbox' },
  { id: 'starred', label: 'Starred' },
  { id: 'sent', label: 'Sent' },
  { id: 'archive', label: 'Archive' },
  { id: 'spam', label: 'Spam' },
] as const;
/** Where a message actually lives; "starred" is a view, not a place. */
export type Folder = 'inbox' | 'sent' | 'archive' | 'spam';
export const MOVE_TARGETS: Folder[] = ['inbox', 'archive', 'spam'];

export function folderLabel(f: string): string {
  return FOLDERS.find((x) => x.id === f)?.label ?? f;
}

export interface Person {
  name: string;
  email: string;
}

export interface Message {
  id: number;
  folder: Folder;
  from: Person;
  to: Person[];
  subject: string;
  body: string;
  /** ISO date-time, e.g. 2026-03-04T09:15. */
  date: string;
  starred: boolean;
  read: boolean;
  inReplyTo?: number;
  /** What the message is about, in words an instruction can use ("the hotel reservation"). */
  topic: string;
  /** The one fact a question can ask about, and how it is phrased. */
  fact?: { label: string; value: string };
}

export type MailGoal =
  | { kind: 'star'; id: number }
  | { kind: 'move'; id: number; to: Folder }
  | { kind: 'reply'; id: number; text: string }
  | { kind: 'answer'; id: number; answer: string; label: string };

export interface WebmailState {
  me: Person;
  messages: Message[];
  goals: MailGoal[];
  /** Where every message started, to tell side effects from progress. */
  initial: { folders: Record<number, Folder>; starred: number[] };
  nextId: number;
  /** How this instance looks and words itself (variant.ts); drawn apart from the mailbox and goals. */
  variant: Variant;
}

const FIRST = ['Dana', 'Luis', 'Priya', 'Marcus', 'Elena', 'Kenji', 'Aisha', 'Tom', 'Sofia', 'Noah', 'Grace', 'Omar', 'Hannah', 'Ivan', 'Mei', 'Rosa', 'Felix', 'Nora'];
const LAST = ['Whitfield', 'Garcia', 'Patel', 'Okafor', 'Novak', 'Tanaka', 'Rahman', 'Keller', 'Rossi', 'Lindqvist', 'Moreau', 'Haddad', 'Brennan', 'Petrov', 'Chen', 'Silva'];
const DOMAINS = ['northwind.example', 'acme-corp.example', 'bluefin.example', 'mail.example', 'lumen.example'];
const HOTELS = ['Harbor Inn', 'The Grand Alder', 'Cedar Lodge', 'Hotel Marigold', 'Seaside Suites', 'The Copper Kettle Inn'];
const CITIES = ['Lisbon', 'Denver', 'Kyoto', 'Montreal', 'Austin', 'Oslo', 'Chicago', 'Valencia'];
const PROJECTS = ['Atlas', 'Beacon', 'Cobalt', 'Delta', 'Evergreen', 'Falcon', 'Granite'];
const ROOMS = ['Room 4B', 'Room 210', 'the Oak Room', 'Room 12A', 'the Harbor Room', 'Room 3C'];
const RESTAURANTS = ['Luigi’s Trattoria', 'The Green Fig', 'Sakura House', 'Casa Verde', 'The Blue Door'];
const STORES = ['Trailhead Outfitters', 'PageTurner Books', 'Brightline Electronics', 'Fern & Co.'];

function code(rng: Rng, n: number): string {
  const a = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return Array.from({ length: n }, () => rng.pick([...a])).join('');
}

/** One templated message body with its fact; topics are what instructions refer to. */
function template(rng: Rng, kind: string, sender: Person, me: Person): Pick<Message, 'subject' | 'body' | 'topic' | 'fact'> {
  const hi = `Hi ${me.name.split(' ')[0]},`;
  const sign = `Best,\n${sender.name}`;
  switch (kind) {
    case 'hotel': {
      const hotel = rng.pick(HOTELS);
      const c = `${code(rng, 3)}-${rng.int(1000, 9999)}`;
      return { subject: `Reservation at ${hotel}`, topic: 'the hotel reservation', fact: { label: 'confirmation code', value: c }, body: `${hi}\n\nI booked our rooms at ${hotel} for ${rng.int(2, 5)} nights. The confirmation code is ${c}; you will need it at check-in.\n\n${sign}` };
    }
    case 'flight': {
      const city = rng.pick(CITIES);
      const c = code(rng, 6);
      return { subject: `Trip itinerary: ${city}`, topic: `the trip to ${city}`, fact: { label: 'booking reference', value: c }, body: `${hi}\n\nHere is the itinerary for ${city}. Booking reference: ${c}. Departure at ${rng.int(6, 11)}:${rng.pick(['05', '20', '45'])} AM.\n\n${sign}` };
    }
    case 'invoice': {
      const inv = `INV-${rng.int(1000, 9999)}`;
      const amount = money(rng.int(120, 4800) * 100 + rng.pick([0, 50, 99]));
      return { subject: `Invoice ${inv}`, topic: `invoice ${inv}`, fact: { label: 'amount due', value: amount }, body: `${hi}\n\nPlease find invoice ${inv} for last month's services. Amount due: ${amount}, payable within 30 days.\n\nThank you,\n${sender.name}` };
    }
    case 'meeting': {
      const p = rng.pick(PROJECTS);
      const room = rng.pick(ROOMS);
      return { subject: `${p} project sync`, topic: `the ${p} project sync`, fact: { label: 'meeting room', value: room }, body: `${hi}\n\nLet's meet on ${rng.pick(['Monday', 'Tuesday', 'Wednesday', 'Thursday'])} at ${rng.int(1, 4)}:30 PM in ${room} to go over the ${p} milestones.\n\n${sign}` };
    }
    case 'shipping': {
      const store = rng.pick(STORES);
      const t = `1Z${code(rng, 4)}${rng.int(100000, 999999)}`;
      return { subject: `Your ${store} order has shipped`, topic: `the ${store} order`, fact: { label: 'tracking number', value: t }, body: `${hi}\n\nGood news: your order from ${store} is on its way. Tracking number: ${t}.\n\nThe ${store} team` };
    }
    case 'dinner': {
      const r = rng.pick(RESTAURANTS);
      const time = `${rng.int(6, 8)}:${rng.pick(['00', '30'])} PM`;
      return { subject: `Dinner on ${rng.pick(['Friday', 'Saturday', 'Sunday'])}?`, topic: 'dinner plans', fact: { label: 'time of the dinner reservation', value: time }, body: `${hi}\n\nAre you free for dinner? I reserved a table at ${r} for ${time}.\n\n${sign}` };
    }
    case 'spam':
    {
      const subject = rng.pick(['You have won a $1,000 gift card!', 'Urgent: verify your account now', 'Claim your free cruise today', 'Final notice: your parcel is waiting', 'Exclusive offer just for you', 'Your account will be suspended', 'Congratulations, you were selected']);
      return { subject, topic: `"${subject}"`, body: `Dear customer,\n\nClick the link below to claim your reward before it expires!\n\nThe Rewards Team` };
    }
    default:
      return { subject: `${rng.pick(['Weekly digest', 'Team news', 'Product update'])} #${rng.int(10, 99)}`, topic: 'the newsletter', body: `${hi}\n\nHere is what happened this week: new features, a few fixes, and our upcoming webinar.\n\nThe ${sender.name} team` };
  }
}

export const FACT_KINDS = ['hotel', 'flight', 'invoice', 'meeting', 'shipping', 'dinner'];

export function generateMailbox(seed: number): { me: Person; messages: Message[] } {
  const rng = new Rng(mixSeed(seed, 'webmail-box'));
  const domain = rng.pick(DOMAINS);
  const person = (first: string, last: string, dom = rng.pick(DOMAINS)): Person => ({ name: `${first} ${last}`, email: `${first}.${last}@${dom}`.toLowerCase().replace(/[^a-z.@\-]/g, '') });
  const me = person(rng.pick(FIRST), rng.pick(LAST), domain);
  const people: Person[] = [];
  const names = new Set([me.name]);
  while (people.length < 10) {
    const p = person(rng.pick(FIRST), rng.pick(LAST));
    // Distinct first names, so "the email from Dana" is unambiguous.
    if (!names.has(p.name) && !people.some((x) => x.name.split(' ')[0] === p.name.split(' ')[0])) {
      names.add(p.name);
      people.push(p);
    }
  }
  const year = 2026;
  const month = rng.int(1, 12);
  const messages: Message[] = [];
  const seen = new Set<string>();
  const folders: Folder[] = [...Array(30).fill('inbox'), ...Array(7).fill('archive'), ...Array(4).fill('spam'), ...Array(3).fill('sent')];
  let minutes = 0;
  for (let i = 0; i < folders.length; i++) {
    const folder = folders[i];
    const from = folder === 'spam' ? person('Rewards', 'Team', 'promo-deals.example') : folder === 'sent' ? me : rng.pick(people);
    const kind = folder === 'spam' ? 'spam' : rng.chance(0.8) ? rng.pick(FACT_KINDS) : 'news';
    let t = template(rng, kind, from, me);
    // Same sender and topic twice would make an instruction ambiguous; re-roll.
    // Bounded: the word lists are large enough that a clash-free pick exists within a few tries.
    for (let tries = 0; tries < 200 && (seen.has(`${from.email}|${t.topic}`) || seen.has(`|${t.subject}`)); tries++) {
      t = template(rng, kind === 'spam' ? 'spam' : rng.pick(FACT_KINDS), from, me);
    }
    seen.add(`${from.email}|${t.topic}`);
    seen.add(`|${t.subject}`);
    minutes += rng.int(40, 900);
    const d = new Date(Date.UTC(year, month, 1) - minutes * 60000);
    const date = d.toISOString().slice(0, 16);
    messages.push({
      id: 1000 + i * 7 + rng.int(0, 6),
      folder,
      from,
      to: folder === 'sent' ? [rng.pick(people)] : [me],
      ...t,
      date,
      starred: folder !== 'spam' && rng.chance(0.12),
      read: folder !== 'inbox' || rng.chance(0.6),
    });
  }
  return { me, messages: rng.shuffle(messages).sort((a, b) => b.date.localeCompare(a.date)) };
}
