/**
 * The look of one settings site: every knob that changes how the same account is presented, drawn
 * from the seed on a stream of its own. A policy trained on one layout and one set of words must
 * read the page to act on another: the sections and fields come in another order, navigation is a
 * sidebar, tabs or a hub page, labels and buttons use other synonyms, look-alike sections sit
 * among the real ones, and the page's containers are styled another way.
 */
import { Rng, mixSeed } from '../../../common/rng.ts';
import {
  BUTTONS, CHANNELS, CHANNEL_LABELS, DIGESTS, DIGEST_LABELS, DISTRACTORS, EVENTS, EVENT_LABELS, EXPORT_FORMATS, EXPORT_LABELS, HOME_LINKS, HOME_TITLES,
  LABELS, LANGUAGE_FORMATS, METHOD_LABELS, PAGE_TITLES, SAVED_NOTICES, SECTIONS, TIME_ZONE_FORMATS, TWO_FACTOR_METHODS, VISIBILITIES, VISIBILITY_LABELS,
  type Channel, type Digest, type DistractorKey, type EventKey, type ExportFormat, type LabelKey, type PageKey, type SectionKey, type TwoFactorMethod, type Visibility,
} from './vocabulary.ts';

export type NavStyle = 'sidebar' | 'tabs' | 'hub';
/** How blocks are boxed; each maps to classes site.css already styles, plus a settings-specific one. */
export type BlockStyle = 'plain' | 'cards' | 'compact' | 'boxed';
export type DateStyle = 'dmy' | 'mdy' | 'iso' | 'short';
/** How a notification checkbox is named: "Security alerts by Email", "Email: Security alerts", "Security alerts (Email)". */
export type NotifyNaming = 'by' | 'colon' | 'paren';

/** Forms whose fields are saved settings (see forms.ts). */
export const VALUE_FORMS = ['profile', 'twofactor', 'notifications', 'visibility', 'billingEmail', 'signature', 'sounds', 'marketing', 'accessibility'] as const;
export type ValueFormId = (typeof VALUE_FORMS)[number];

/** The blocks each section page is made of, before shuffling. */
export const SECTION_BLOCKS: Record<SectionKey, readonly string[]> = {
  profile: ['profile'],
  security: ['password', 'twofactor', 'sessions'],
  notifications: ['notifications'],
  privacy: ['visibility', 'blocked', 'export'],
  billing: ['plan', 'payment', 'billingEmail', 'invoices'],
};

/** Look-alikes that can also sit as a block inside the section they resemble. */
const EMBEDDABLE: Partial<Record<DistractorKey, SectionKey>> = { signature: 'profile', sounds: 'notifications', apps: 'security', marketing: 'notifications' };

/** The value form a distractor block holds, if any. */
export const DISTRACTOR_FORM: Partial<Record<DistractorKey, ValueFormId>> = { signature: 'signature', sounds: 'sounds', marketing: 'marketing', accessibility: 'accessibility' };

export const PROFILE_FIELDS = ['displayName', 'email', 'phone', 'timeZone', 'language'] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];

export interface Look {
  nav: NavStyle;
  blocks: BlockStyle;
  /** An accent theme site.css already has, so sites differ in colour too. */
  accent: string;
  /** Path prefix of every settings page, e.g. "/account". */
  prefix: string;
  homeTitle: string;
  /** The link back to the settings home from the nav or a section page. */
  homeLink: string;
  savedNotice: string;
  sectionOrder: SectionKey[];
  titles: Record<PageKey, string>;
  slugs: Record<PageKey, string>;
  /** Look-alike sections of this site and where each sits: its own page, or a block in a section. */
  distractors: Array<{ key: DistractorKey; host: PageKey }>;
  /** Blocks of every page, in order (section blocks and embedded look-alikes). */
  pageBlocks: Partial<Record<PageKey, string[]>>;
  labels: Record<LabelKey, string>;
  saveButtons: Record<ValueFormId, string>;
  passwordButton: string;
  exportButton: string;
  signOut: string;
  unblock: string;
  removeApp: string;
  invoicesLink: string;
  /** A link beside the profile form's button that reloads the page, dropping unsaved edits; absent when ''. */
  discard: string;
  profileOrder: ProfileField[];
  privacyFieldsOrder: Array<'visibility' | 'searchable'>;
  methodLabels: Record<TwoFactorMethod, string>;
  channelOrder: Channel[];
  channelLabels: Record<Channel, string>;
  eventOrder: EventKey[];
  eventLabels: Record<EventKey, string>;
  notifyNaming: NotifyNaming;
  notifyLayout: 'table' | 'fieldsets';
  digestFirst: boolean;
  digestLabels: Record<Digest, string>;
  visibilityLabels: Record<Visibility, string>;
  exportLabels: Record<ExportFormat, string>;
  tzFormat: number;
  languageFormat: number;
  invoicesNewestFirst: boolean;
  dateStyle: DateStyle;
  cookieBanner: boolean;
}

export function slugify(title: string): string {
  return title.toLowerCase().replace(/&/g, ' and ').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

function pickEach<K extends string>(rng: Rng, table: Record<K, readonly string[]>, keys: readonly K[]): Record<K, string> {
  return Object.fromEntries(keys.map((k) => [k, rng.pick(table[k])])) as Record<K, string>;
}

/** Insert `item` at a random place of `list`. */
function insertAnywhere(rng: Rng, list: string[], item: string): void {
  list.splice(rng.int(0, list.length), 0, item);
}

export function pickLook(seed: number): Look {
  const rng = new Rng(mixSeed(seed, 'settings-look'));
  const sectionOrder = rng.shuffle(SECTIONS);
  const pageKeys = [...SECTIONS, ...DISTRACTORS] as PageKey[];
  const titles = pickEach(rng, PAGE_TITLES, pageKeys);
  const slugs = Object.fromEntries(pageKeys.map((k) => [k, slugify(titles[k])])) as Record<PageKey, string>;

  const distractors = rng.sample(DISTRACTORS, rng.int(1, 3)).map((key) => {
    const section = EMBEDDABLE[key];
    return { key, host: (section && rng.chance(0.5) ? section : key) as PageKey };
  });
  const pageBlocks: Partial<Record<PageKey, string[]>> = {};
  for (const s of SECTIONS) pageBlocks[s] = rng.shuffle(SECTION_BLOCKS[s]);
  for (const d of distractors) {
    if (d.host === d.key) pageBlocks[d.key] = [d.key];
    else insertAnywhere(rng, pageBlocks[d.host]!, d.key);
  }

  // Two value forms on one page never share a button label, so "Save" always names one form.
  const saveButtons = {} as Record<ValueFormId, string>;
  const formHost: Record<ValueFormId, PageKey> = { profile: 'profile', twofactor: 'security', notifications: 'notifications', visibility: 'privacy', billingEmail: 'billing', signature: 'signature', sounds: 'sounds', marketing: 'marketing', accessibility: 'accessibility' };
  for (const d of distractors) {
    const form = DISTRACTOR_FORM[d.key];
    if (form) formHost[form] = d.host;
  }
  const usedOnPage = new Map<PageKey, Set<string>>();
  for (const form of rng.shuffle([...Object.keys(formHost)] as ValueFormId[])) {
    const used = usedOnPage.get(formHost[form]) ?? new Set<string>();
    saveButtons[form] = rng.pick(BUTTONS.save.filter((b) => !used.has(b)));
    used.add(saveButtons[form]);
    usedOnPage.set(formHost[form], used);
  }

  return {
    nav: rng.pick(['sidebar', 'tabs', 'hub'] as const),
    blocks: rng.pick(['plain', 'cards', 'compact', 'boxed'] as const),
    accent: rng.pick(['theme-jobs', 'theme-flights', 'theme-mail', 'theme-cal', 'theme-homes', 'theme-tickets']),
    prefix: rng.pick(['/settings', '/account', '/preferences', '/me']),
    homeTitle: rng.pick(HOME_TITLES),
    homeLink: rng.pick(HOME_LINKS),
    savedNotice: rng.pick(SAVED_NOTICES),
    sectionOrder,
    titles,
    slugs,
    distractors,
    pageBlocks,
    labels: pickEach(rng, LABELS, Object.keys(LABELS) as LabelKey[]),
    saveButtons,
    passwordButton: rng.pick(BUTTONS.password),
    exportButton: rng.pick(BUTTONS.export),
    signOut: rng.pick(BUTTONS.signOut),
    unblock: rng.pick(BUTTONS.unblock),
    removeApp: rng.pick(BUTTONS.removeApp),
    invoicesLink: rng.pick(BUTTONS.invoices),
    discard: rng.chance(0.5) ? rng.pick(BUTTONS.discard) : '',
    profileOrder: rng.shuffle(['displayName', 'email', 'phone', 'timeZone', 'language'] as const),
    privacyFieldsOrder: rng.shuffle(['visibility', 'searchable'] as const),
    methodLabels: pickEach(rng, METHOD_LABELS, TWO_FACTOR_METHODS),
    channelOrder: rng.shuffle(CHANNELS),
    channelLabels: pickEach(rng, CHANNEL_LABELS, CHANNELS),
    eventOrder: rng.shuffle(EVENTS),
    eventLabels: pickEach(rng, EVENT_LABELS, EVENTS),
    notifyNaming: rng.pick(['by', 'colon', 'paren'] as const),
    notifyLayout: rng.pick(['table', 'fieldsets'] as const),
    digestFirst: rng.chance(0.4),
    digestLabels: pickEach(rng, DIGEST_LABELS, DIGESTS),
    visibilityLabels: pickEach(rng, VISIBILITY_LABELS, VISIBILITIES),
    exportLabels: pickEach(rng, EXPORT_LABELS, EXPORT_FORMATS),
    tzFormat: rng.int(0, TIME_ZONE_FORMATS.length - 1),
    languageFormat: rng.int(0, LANGUAGE_FORMATS.length - 1),
    invoicesNewestFirst: rng.chance(0.5),
    dateStyle: rng.pick(['dmy', 'mdy', 'iso', 'short'] as const),
    cookieBanner: rng.chance(0.6),
  };
}
