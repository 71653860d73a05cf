/**
 * Picks the settings task for a seed and tier and phrases it. Each part of a task is built with the
 * words a person would use (canonical names, never the page's synonyms) and may nudge the generated
 * account so that the part really changes something (a notification to switch off is on, two-factor
 * to turn on is off). Tier 1: one question or one change; tier 2: two or three changes in one
 * section; tier 3: four changes across sections, each saved with its own form.
 */
import type { GoalKind, Tier } from '../../types.ts';
import { Rng, mixSeed } from '../../../common/rng.ts';
import { generateAccount, notifyKey, phoneOf, type AccountData, type SettingsGoal, type SettingsState } from './data.ts';
import {
  CHANNEL_WORDS, DIGESTS, EVENT_LABELS, LANGUAGES, MAIL_DOMAINS, TIME_ZONES, VISIBILITIES, VISIBILITY_WORDS,
  type Channel, type ExportFormat, type TwoFactorMethod,
} from './vocabulary.ts';

interface Part {
  goal: SettingsGoal;
  /** A clause of the instruction, lower-case, no final stop: "change my time zone to Pacific Time". */
  phrase: string;
}

const eventWord = (e: keyof typeof EVENT_LABELS) => EVENT_LABELS[e][0].toLowerCase();
const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const METHOD_WORDS: Record<TwoFactorMethod, string> = { app: 'an authenticator app', sms: 'text messages' };

/** Builds task parts on one account; each may adjust the account's generated settings first. */
class PartMaker {
  constructor(
    private readonly acc: AccountData,
    private readonly rng: Rng,
  ) {}

  private get v(): Record<string, string> {
    return this.acc.values;
  }

  timeZone(): Part {
    const z = this.rng.pick(TIME_ZONES.filter((t) => t.id !== this.v['profile.timeZone']));
    return { goal: { kind: 'set', what: `time zone set to ${z.name}`, changes: { 'profile.timeZone': z.id } }, phrase: this.rng.pick([`change my time zone to ${z.name}`, `set the time zone to ${z.name}`, `switch my time zone to ${z.name}`]) };
  }

  language(): Part {
    const l = this.rng.pick(LANGUAGES.filter((t) => t.id !== this.v['profile.language']));
    return { goal: { kind: 'set', what: `language set to ${l.english}`, changes: { 'profile.language': l.id } }, phrase: this.rng.pick([`change the language to ${l.english}`, `set my language to ${l.english}`, `switch the display language to ${l.english}`]) };
  }

  email(): Part {
    const [first, ...rest] = this.v['profile.displayName'].toLowerCase().split(' ');
    const last = rest.join('');
    const taken = [this.v['profile.email'], this.v['billing.email']];
    let e = '';
    while (!e || taken.includes(e)) e = this.rng.pick([`${first}.${last}${this.rng.int(2, 99)}`, `${first[0]}${last}`, `${first}${this.rng.int(70, 99)}`]) + `@${this.rng.pick(MAIL_DOMAINS)}`;
    return { goal: { kind: 'set', what: `email changed to ${e}`, changes: { 'profile.email': e } }, phrase: this.rng.pick([`change my email address to ${e}`, `update my account email to ${e}`, `use ${e} as my email address`]) };
  }

  phone(): Part {
    let p = '';
    while (!p || p === this.v['profile.phone']) p = phoneOf(this.rng);
    return { goal: { kind: 'set', what: `phone changed to ${p}`, changes: { 'profile.phone': p } }, phrase: this.rng.pick([`change my phone number to ${p}`, `update my phone number to ${p}`]) };
  }

  notifyOff(): Part {
    const cells = this.acc.events.flatMap((e) => (['email', 'sms', 'push'] as Channel[]).map((c) => ({ e, c })));
    let on = cells.filter(({ e, c }) => this.v[notifyKey(e, c)] === '1');
    if (!on.length) {
      const pick = this.rng.pick(cells);
      this.v[notifyKey(pick.e, pick.c)] = '1';
      on = [pick];
    }
    const { e, c } = this.rng.pick(on);
    const ev = eventWord(e);
    const ch = CHANNEL_WORDS[c];
    return {
      goal: { kind: 'set', what: `${ev} ${ch.by} turned off`, changes: { [notifyKey(e, c)]: '0' } },
      phrase: this.rng.pick([`turn off the ${ch.noun} notifications for ${ev}`, `stop sending me ${ev} ${ch.by}`, `switch off ${ch.noun} notifications about ${ev}`]),
    };
  }

  /** "Only E by A, nothing by B": every A and B box decided; the account is nudged so 2 or 3 boxes need a click. */
  notifyRule(): Part {
    const only = this.rng.pick(this.acc.events);
    const a: Channel = this.rng.chance(0.75) ? 'email' : 'push';
    const b: Channel = a === 'email' ? this.rng.pick(['sms', 'sms', 'push'] as Channel[]) : 'sms';
    const changes: Record<string, string> = {};
    for (const e of this.acc.events) {
      changes[notifyKey(e, a)] = e === only ? '1' : '0';
      changes[notifyKey(e, b)] = '0';
    }
    const keys = Object.keys(changes);
    const wrong = () => keys.filter((k) => this.v[k] !== changes[k]);
    const want = this.rng.int(2, 3);
    while (wrong().length > want) {
      const k = this.rng.pick(wrong());
      this.v[k] = changes[k];
    }
    while (wrong().length < want) {
      const k = this.rng.pick(keys.filter((x) => this.v[x] === changes[x]));
      this.v[k] = changes[k] === '1' ? '0' : '1';
    }
    const ev = eventWord(only);
    const [wa, wb] = [CHANNEL_WORDS[a], CHANNEL_WORDS[b]];
    return {
      goal: { kind: 'set', what: `only ${ev} ${wa.by}, nothing ${wb.by}`, changes },
      phrase: this.rng.pick([
        `set my notifications so that only ${ev} arrive ${wa.by} and nothing arrives ${wb.by}`,
        `make sure ${ev} are the only notifications I get ${wa.by}, and turn off every ${wb.noun} notification`,
      ]),
    };
  }

  digest(): Part {
    const d = this.rng.pick(DIGESTS.filter((x) => x !== this.v.digest));
    const phrase = d === 'never' ? this.rng.pick(['turn the digest off', 'stop the summary digest']) : this.rng.pick([`set the digest to ${d}`, `send me the activity digest ${d}`]);
    return { goal: { kind: 'set', what: `digest ${d}`, changes: { digest: d } }, phrase };
  }

  password(): Part {
    const current = this.acc.password;
    const next = `${this.rng.pick(['Copper', 'Willow', 'Saffron', 'Granite', 'Meadow', 'Harbor'])}${this.rng.pick(['Kite', 'Lamp', 'Fern', 'Comet', 'Stone'])}-${this.rng.int(100, 999)}`;
    return { goal: { kind: 'password', current, next }, phrase: this.rng.pick([`change my password: the current one is ${current} and the new one should be ${next}`, `my password is ${current}; change it to ${next}`]) };
  }

  twoFactor(): Part {
    // Off to start with, whatever the account had, so the part is a change.
    Object.assign(this.v, { 'twofactor.enabled': '0', 'twofactor.method': '' });
    const m = this.rng.pick(['app', 'sms'] as TwoFactorMethod[]);
    return {
      goal: { kind: 'set', what: `two-factor authentication on with ${METHOD_WORDS[m]}`, changes: { 'twofactor.enabled': '1', 'twofactor.method': m } },
      phrase: this.rng.pick([`turn on two-factor authentication with ${METHOD_WORDS[m]}`, `switch on sign-in codes sent by ${METHOD_WORDS[m]}`]),
    };
  }

  /** A session that shares its device or its city with another, so the device or the city alone is not enough. */
  signOut(): Part {
    const others = this.acc.sessions.filter((x) => !x.current);
    const ambiguous = others.filter((x) => this.acc.sessions.some((y) => y !== x && (y.device === x.device || y.city === x.city)));
    const x = this.rng.pick(ambiguous.length ? ambiguous : others);
    return { goal: { kind: 'signOut', session: x.id }, phrase: this.rng.pick([`sign out the ${x.device} session in ${x.city}`, `end the session on the ${x.device} in ${x.city}`, `log out the ${x.device} that was used in ${x.city}`]) };
  }

  unblock(): Part {
    const u = this.rng.pick(this.acc.blocked);
    return { goal: { kind: 'unblock', user: u.id }, phrase: this.rng.pick([`unblock ${u.name}`, `remove ${u.name} from my blocked list`]) };
  }

  export(): Part {
    const f = this.rng.pick(['json', 'csv'] as ExportFormat[]);
    const F = f.toUpperCase();
    return { goal: { kind: 'export', format: f }, phrase: this.rng.pick([`request an export of my data as ${F}`, `ask for a copy of my data in ${F} format`]) };
  }

  visibility(): Part {
    const vis = this.rng.pick(VISIBILITIES.filter((x) => x !== this.v['privacy.visibility']));
    const w = VISIBILITY_WORDS[vis];
    return { goal: { kind: 'set', what: `profile visible to ${w}`, changes: { 'privacy.visibility': vis } }, phrase: this.rng.pick([`make my profile visible to ${w}`, `change who can see my profile to ${w}`]) };
  }

  searchable(): Part {
    const to = this.v['privacy.searchable'] === '1' ? '0' : '1';
    const what = to === '1' ? 'search engines may find the profile' : 'search engines may not find the profile';
    return { goal: { kind: 'set', what, changes: { 'privacy.searchable': to } }, phrase: to === '1' ? 'let search engines find my profile' : 'stop search engines from finding my profile' };
  }
}

function joinTwo(rng: Rng, parts: Part[]): string {
  const p = parts.map((x) => x.phrase);
  const list = p.length === 2 ? `${p[0]} and ${p[1]}` : `${p.slice(0, -1).join(', ')} and ${p.at(-1)}`;
  return rng.pick([`In my account settings, ${list}.`, `Please ${p.slice(0, -1).join(', ')}, then ${p.at(-1)}.`, `${capitalize(list)}.`]);
}

function joinMany(rng: Rng, parts: Part[]): string {
  const p = parts.map((x) => x.phrase);
  const semi = `${p.slice(0, -1).join('; ')}; and ${p.at(-1)}`;
  return rng.pick([
    `Please make these changes in my account settings: ${semi}. Save each section before you move on.`,
    `In my account: ${semi}. Remember to save each section.`,
    `I need a few changes to my account settings: ${semi}.`,
  ]);
}

function question(acc: AccountData, rng: Rng, topic: 'plan' | 'invoiceDate' | 'invoiceAmount'): { goal: SettingsGoal; instruction: string } {
  const latest = [...acc.billing.invoices].sort((a, b) => b.date.localeCompare(a.date))[0];
  if (topic === 'plan') return { goal: { kind: 'answer', topic, answer: acc.billing.plan }, instruction: rng.pick(['Which plan is my account on? Tell me in a message.', 'Tell me in a message which subscription plan this account has.']) };
  if (topic === 'invoiceDate') return { goal: { kind: 'answer', topic, answer: latest.date }, instruction: rng.pick(['What is the date of my latest invoice? Tell me the date in a message.', 'Tell me in a message when my most recent invoice was issued.']) };
  return { goal: { kind: 'answer', topic, answer: (latest.cents / 100).toFixed(2) }, instruction: rng.pick(['How much was my most recent invoice? Tell me the amount in a message.', 'Tell me in a message the amount of my latest invoice.']) };
}

export function generateSettingsTask(seed: number, tier: Tier): { state: SettingsState; instruction: string; goalKind: GoalKind } {
  const acc = generateAccount(seed);
  const rng = new Rng(mixSeed(seed, 'settings-task', tier));
  const make = new PartMaker(acc, rng);
  let goals: SettingsGoal[];
  let instruction: string;
  if (tier === 1) {
    const kind = rng.pick(['plan', 'invoiceDate', 'invoiceAmount', 'notifyOff', 'notifyOff', 'unblock'] as const);
    if (kind === 'notifyOff' || kind === 'unblock') {
      const part = kind === 'notifyOff' ? make.notifyOff() : make.unblock();
      goals = [part.goal];
      instruction = `${capitalize(part.phrase)}.`;
    } else {
      const q = question(acc, rng, kind);
      goals = [q.goal];
      instruction = q.instruction;
    }
  } else if (tier === 2) {
    const kind = rng.pick(['tzLang', 'session2fa', 'password', 'privacy'] as const);
    const parts =
      kind === 'tzLang' ? [make.timeZone(), make.language()]
      : kind === 'session2fa' ? [make.signOut(), make.twoFactor()]
      : kind === 'password' ? [make.password()]
      : [make.visibility(), make.unblock(), ...(rng.chance(0.5) ? [make.searchable()] : [])];
    goals = parts.map((p) => p.goal);
    instruction = parts.length === 1 ? `${capitalize(parts[0].phrase)}.` : joinTwo(rng, rng.chance(0.5) ? parts : [...parts].reverse());
  } else {
    const profile = rng.pick([() => make.email(), () => make.email(), () => make.email(), () => make.timeZone(), () => make.phone()])();
    const extras = rng.sample([() => make.unblock(), () => make.export(), () => make.signOut(), () => make.twoFactor(), () => make.visibility(), () => make.digest()], 2).map((f) => f());
    const parts = rng.shuffle([profile, make.notifyRule(), ...extras]);
    goals = parts.map((p) => p.goal);
    instruction = joinMany(rng, parts);
  }
  // The generated settings, after the parts' nudges, are what the checker compares against.
  const state: SettingsState = { ...acc, goals, initial: { ...acc.values }, initialPassword: acc.password };
  return { state, instruction, goalKind: goals.some((g) => g.kind === 'answer') ? 'answer' : 'state' };
}

