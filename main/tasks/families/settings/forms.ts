/**
 * The site's settings forms described once, in the instance's wording and order: pages render
 * them, the handler parses and validates them, and the oracle fills them, all from this one
 * description, so the oracle finds exactly the labels and buttons the page shows. Also where each
 * page lives and how per-row buttons (sign out, unblock, remove access) are named.
 */
import { DISTRACTOR_FORM, type Look, type ValueFormId } from './look.ts';
import { notifyKey, type BlockedUser, type ConnectedApp, type Session, type SettingsState } from './data.ts';
import {
  DIGESTS, EXPORT_FORMATS, LANGUAGES, LANGUAGE_FORMATS, TIME_ZONES, TIME_ZONE_FORMATS, TWO_FACTOR_METHODS, VISIBILITIES,
  type Channel, type EventKey, type PageKey,
} from './vocabulary.ts';

export type FieldKind = 'text' | 'email' | 'tel' | 'select' | 'checkbox' | 'radio' | 'textarea';
export type FieldRule = 'name' | 'email' | 'phone' | 'signature';

export interface Option {
  value: string;
  label: string;
}

export interface FieldSpec {
  /** The settings key it saves to, also the control's name. */
  key: string;
  kind: FieldKind;
  /** Visible label (a radio group's legend). */
  label: string;
  /** Visually hidden words before and after the label, so repeated labels still name one control. */
  srBefore?: string;
  srAfter?: string;
  options?: Option[];
  rule?: FieldRule;
}

export interface FormSpec {
  id: ValueFormId;
  /** The page the form sits on. */
  page: PageKey;
  submit: string;
  fields: FieldSpec[];
}

/** What a control is called in the accessibility tree: its label with the hidden words around it. */
export function accessibleName(f: FieldSpec): string {
  return `${f.srBefore ?? ''}${f.label}${f.srAfter ?? ''}`;
}

export function timeZoneLabel(look: Look, id: string): string {
  const z = TIME_ZONES.find((t) => t.id === id);
  return z ? TIME_ZONE_FORMATS[look.tzFormat](z) : id;
}

export function languageLabel(look: Look, id: string): string {
  const l = LANGUAGES.find((t) => t.id === id);
  return l ? LANGUAGE_FORMATS[look.languageFormat](l) : id;
}

/** The name a notification checkbox has, split into what is shown beside it and what only a screen reader hears. */
function notifyField(look: Look, event: EventKey, channel: Channel): FieldSpec {
  const e = look.eventLabels[event];
  const c = look.channelLabels[channel];
  const lower = c === c.toUpperCase() ? c : c.toLowerCase();
  const key = notifyKey(event, channel);
  // Shown beside the box in per-channel groups is the event alone (the group names the channel); a
  // table gives the whole name as the box's aria-label. Either way the accessible name says both.
  if (look.notifyNaming === 'colon') return { key, kind: 'checkbox', label: e, srBefore: `${c}: ` };
  if (look.notifyNaming === 'paren') return { key, kind: 'checkbox', label: e, srAfter: ` (${c})` };
  return { key, kind: 'checkbox', label: e, srAfter: ` by ${lower}` };
}

export const SOUND_OPTIONS: Option[] = [
  { value: 'chime', label: 'Chime' },
  { value: 'bell', label: 'Bell' },
  { value: 'pop', label: 'Pop' },
  { value: 'none', label: 'No sound' },
];

function profileField(look: Look, f: Look['profileOrder'][number]): FieldSpec {
  const L = look.labels;
  switch (f) {
    case 'displayName':
      return { key: 'profile.displayName', kind: 'text', label: L.displayName, rule: 'name' };
    case 'email':
      return { key: 'profile.email', kind: 'email', label: L.email, rule: 'email' };
    case 'phone':
      return { key: 'profile.phone', kind: 'tel', label: L.phone, rule: 'phone' };
    case 'timeZone':
      return { key: 'profile.timeZone', kind: 'select', label: L.timeZone, options: TIME_ZONES.map((z) => ({ value: z.id, label: timeZoneLabel(look, z.id) })) };
    case 'language':
      return { key: 'profile.language', kind: 'select', label: L.language, options: LANGUAGES.map((l) => ({ value: l.id, label: languageLabel(look, l.id) })) };
  }
}

/** Every value form of this site, core sections first, then the look-alikes it has. */
export function valueForms(s: Pick<SettingsState, 'look' | 'events'>): FormSpec[] {
  const look = s.look;
  const L = look.labels;
  const cells = s.events.flatMap((e) => look.channelOrder.map((c) => notifyField(look, e, c)));
  const digest: FieldSpec = { key: 'digest', kind: 'radio', label: L.digest, options: DIGESTS.map((d) => ({ value: d, label: look.digestLabels[d] })) };
  const privacy: Record<'visibility' | 'searchable', FieldSpec> = {
    visibility: { key: 'privacy.visibility', kind: 'select', label: L.visibility, options: VISIBILITIES.map((v) => ({ value: v, label: look.visibilityLabels[v] })) },
    searchable: { key: 'privacy.searchable', kind: 'checkbox', label: L.searchable },
  };
  const forms: FormSpec[] = [
    { id: 'profile', page: 'profile', submit: look.saveButtons.profile, fields: look.profileOrder.map((f) => profileField(look, f)) },
    {
      id: 'twofactor',
      page: 'security',
      submit: look.saveButtons.twofactor,
      fields: [
        { key: 'twofactor.enabled', kind: 'checkbox', label: L.twoFactor },
        { key: 'twofactor.method', kind: 'radio', label: L.twoFactorMethod, options: TWO_FACTOR_METHODS.map((m) => ({ value: m, label: look.methodLabels[m] })) },
      ],
    },
    { id: 'notifications', page: 'notifications', submit: look.saveButtons.notifications, fields: look.digestFirst ? [digest, ...cells] : [...cells, digest] },
    { id: 'visibility', page: 'privacy', submit: look.saveButtons.visibility, fields: look.privacyFieldsOrder.map((k) => privacy[k]) },
    { id: 'billingEmail', page: 'billing', submit: look.saveButtons.billingEmail, fields: [{ key: 'billing.email', kind: 'email', label: L.billingEmail, rule: 'email' }] },
  ];
  const extra: Record<string, FieldSpec[]> = {
    signature: [{ key: 'x.signature', kind: 'textarea', label: L.signature, rule: 'signature' }],
    sounds: [{ key: 'x.sound', kind: 'select', label: L.sound, options: SOUND_OPTIONS }],
    marketing: [
      { key: 'x.offers', kind: 'checkbox', label: L.offers },
      { key: 'x.partners', kind: 'checkbox', label: L.partners },
      { key: 'x.surveys', kind: 'checkbox', label: L.surveys },
    ],
    accessibility: [
      { key: 'x.reduceMotion', kind: 'checkbox', label: L.reduceMotion },
      { key: 'x.highContrast', kind: 'checkbox', label: L.highContrast },
    ],
  };
  for (const d of look.distractors) {
    const id = DISTRACTOR_FORM[d.key];
    if (id) forms.push({ id, page: d.host, submit: look.saveButtons[id], fields: extra[id] });
  }
  return forms;
}

export function formById(s: Pick<SettingsState, 'look' | 'events'>, id: string): FormSpec | undefined {
  return valueForms(s).find((f) => f.id === id);
}

export function formOfKey(s: Pick<SettingsState, 'look' | 'events'>, key: string): FormSpec | undefined {
  return valueForms(s).find((f) => f.fields.some((x) => x.key === key));
}

/** The notification cell's field, for instructions and tests that need its name. */
export function notifyFieldOf(look: Look, event: EventKey, channel: Channel): FieldSpec {
  return notifyField(look, event, channel);
}

/** The site's pages: the five sections and the look-alikes that have a page of their own. */
export function pagesOf(look: Look): PageKey[] {
  return [...look.sectionOrder, ...look.distractors.filter((d) => d.host === d.key).map((d) => d.key)];
}

export function pagePath(look: Look, page: PageKey): string {
  return `${look.prefix}/${look.slugs[page]}`;
}

export function invoicesPath(look: Look): string {
  return `${pagePath(look, 'billing')}/invoices`;
}

/** The page a block (a section's part or an embedded look-alike) is on. */
export function pageOfBlock(look: Look, block: string): PageKey | undefined {
  return (Object.keys(look.pageBlocks) as PageKey[]).find((p) => look.pageBlocks[p]!.includes(block));
}

/** Per-row buttons show one word and carry the row's name for screen readers: "Sign out" + " iPhone 15, Lisbon". */
export const rowNames = {
  signOut: (look: Look, s: Session) => ({ shown: look.signOut, hidden: ` ${s.device}, ${s.city}` }),
  unblock: (look: Look, u: BlockedUser) => ({ shown: look.unblock, hidden: ` ${u.name}` }),
  removeApp: (look: Look, a: ConnectedApp) => ({ shown: look.removeApp, hidden: ` ${a.name}` }),
};

export function rowName(n: { shown: string; hidden: string }): string {
  return n.shown + n.hidden;
}

export const EXPORT_FIELD = 'format';
export function exportOptions(look: Look): Option[] {
  return EXPORT_FORMATS.map((f) => ({ value: f, label: look.exportLabels[f] }));
}
