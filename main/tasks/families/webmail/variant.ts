/**
 * How one webmail site looks and words itself, drawn from the seed alone. With one fixed layout a
 * policy learns that "Star" sits right of the subject and that the third link is Archive instead
 * of reading the page; here every instance draws its labels from synonyms, orders its folders,
 * toolbar and compose fields, adds one to three distractors and picks a layout. The draw uses the
 * family's presentation stream (`variantRng`), never the one that builds the mailbox and the goal,
 * so a seed keeps its task. Pages and the oracle both read the chosen words from the instance state.
 */
import type { Rng } from '../../../common/rng.ts';
import { drawWords, fill, variantRng, type WordsOf } from '../common/variant.ts';
export { fill };

/**
 * Synonyms per label; the first of each is what the site said before it varied. Lists are
 * disjoint across keys that can share a page, so a name found on a page always means one thing.
 * `{folder}`, `{q}`, `{who}`, `{subject}`, `{from}`, `{to}` and `{total}` stand for data, kept verbatim.
 */
export const WORDING = {
  siteName: ['Mailbox', 'Webmail', 'MailDesk', 'Postbox'],
  searchBox: ['Search mail', 'Search messages', 'Find email', 'Search your mailbox'],
  searchButton: ['Search', 'Find', 'Look up', 'Go'],
  compose: ['Compose', 'Write', 'New email', 'Write a message'],
  inbox: ['Inbox', 'Incoming', 'Incoming mail', 'Received'],
  sent: ['Sent', 'Sent mail', 'Sent items', 'Sent messages'],
  archive: ['Archive', 'Archived', 'Archived mail', 'Archive folder'],
  spam: ['Spam', 'Junk', 'Junk mail', 'Junk email'],
  /** A message's link in a listing; {who} is the sender, or "To: ..." in Sent. */
  messageLink: ['{who} — {subject}', '{subject} — {who}', '{who}: {subject}', '{subject} ({who})'],
  range: ['{from}–{to} of {total}', 'Messages {from} to {to} of {total}', 'Showing {from}–{to} of {total}'],
  newer: ['Newer messages', 'Newer', 'Previous page', 'Back to newer'],
  older: ['Older messages', 'Older', 'Next page', 'More messages'],
  empty: ['No messages here.', 'This folder is empty.', 'Nothing in this folder.'],
  noMatch: ['No messages match your search.', 'Nothing found for this search.', 'No results.'],
  searchTitle: ['Search results for "{q}"', 'Results for "{q}"', 'Messages matching "{q}"'],
  moved: ['Message moved to {folder}.', 'Moved to {folder}.', 'The message is now in {folder}.', 'Done: the message went to {folder}.'],
  sentNotice: ['Your message has been sent.', 'Message sent.', 'Your email is on its way.', 'Delivered: your message is on its way.'],
  backTo: ['Back to {folder}', 'Return to {folder}', 'Back to the {folder} list', 'All messages in {folder}'],
  headerFrom: ['From', 'Sender', 'Written by'],
  headerTo: ['To', 'Recipients', 'Addressed to'],
  headerDate: ['Date', 'Dated', 'When'],
  headerFolder: ['Folder', 'Location', 'Filed in'],
  reply: ['Reply', 'Respond', 'Write back', 'Answer'],
  moveTo: ['Move to', 'Move to folder', 'Destination folder', 'File under'],
  move: ['Move', 'Move message', 'Move now', 'Confirm move'],
  composeTitle: ['New message', 'Compose a message', 'Write an email', 'Draft a message'],
  replyTitle: ['Reply', 'Your reply', 'Write a reply', 'Replying'],
  to: ['To', 'Recipient', 'Send to', 'Recipient address'],
  subject: ['Subject', 'Topic', 'Subject line', 'Title'],
  body: ['Message', 'Body', 'Your message', 'Message text'],
  send: ['Send', 'Send message', 'Send now', 'Deliver'],
  discard: ['Discard', 'Cancel', 'Throw away', 'Delete draft'],
  notSent: ['Your message was not sent:', 'Please fix the following:', 'The message could not be sent:'],
} as const;

export type Words = WordsOf<typeof WORDING>;

/**
 * Starring, unstarring and the Starred view are one idea and must be worded alike, so they are
 * drawn together. The row toggles are named "<star> <subject>" / "<unstar> <subject>".
 */
export const MARKS = [
  { star: 'Star', unstar: 'Unstar', starred: 'Starred' },
  { star: 'Flag', unstar: 'Unflag', starred: 'Flagged' },
  { star: 'Mark as important', unstar: 'Not important', starred: 'Important' },
  { star: 'Pin', unstar: 'Unpin', starred: 'Pinned' },
] as const;
export type Mark = (typeof MARKS)[number];

export type FolderId = 'inbox' | 'starred' | 'sent' | 'archive' | 'spam';
/** Entries of the folder navigation: the five folders, then three distractor pages. */
export type NavKey = FolderId | 'contacts' | 'settings' | 'help';
/** What a folder or search listing shows: the messages, and two distractor boxes. */
export type ListSection = 'messages' | 'storage' | 'app';
export type ToolKey = 'star' | 'reply' | 'move';
export type HeaderKey = 'from' | 'to' | 'date' | 'folder';
export type ComposeField = 'to' | 'subject' | 'body';

export interface Variant {
  words: Words;
  mark: Mark;
  /** Folder links and distractor links, in the order the navigation lists them. */
  nav: NavKey[];
  /** Whether the Compose link comes before or after the folder list. */
  composeFirst: boolean;
  listSections: ListSection[];
  tools: ToolKey[];
  headers: HeaderKey[];
  composeFields: ComposeField[];
  /** Where the folder navigation sits: a bar under the header, a sidebar, or inside the header. */
  navPlacement: 'top' | 'side' | 'header';
  /** How a listing lays its messages out. */
  listView: 'rows' | 'table' | 'cards';
  /** How a listing prints dates: Mar 4, 4 Mar, or 2026-03-04. */
  dateStyle: 'md' | 'dm' | 'iso';
  /** A colour scheme (a class on <body>). */
  accent: 'violet' | 'blue' | 'teal' | 'rust';
  /** The storage box's figure (a distractor), in percent. */
  storageUsed: number;
}

const FOLDER_NAV: FolderId[] = ['inbox', 'starred', 'sent', 'archive', 'spam'];
const DISTRACTOR_NAV: NavKey[] = ['contacts', 'settings', 'help'];
const DISTRACTOR_SECTIONS: ListSection[] = ['storage', 'app'];
/** Compose field orders: the checker reads the sent message, never the order it was typed in. */
const COMPOSE_ORDERS: ComposeField[][] = [
  ['to', 'subject', 'body'],
  ['subject', 'to', 'body'],
  ['to', 'body', 'subject'],
];

/** The folders keep Inbox first half the time, as most mail clients do; otherwise any order. */
function folderOrder(rng: Rng): FolderId[] {
  return rng.chance(0.5) ? ['inbox', ...rng.shuffle(FOLDER_NAV.slice(1))] : rng.shuffle(FOLDER_NAV);
}

export function drawVariant(seed: number): Variant {
  const rng = variantRng(seed, 'webmail');
  const words = drawWords(rng, WORDING);
  const mark = rng.pick(MARKS);
  // One to three distractors, spread over the navigation and the listings.
  const distractors = rng.sample<NavKey | ListSection>([...DISTRACTOR_NAV, ...DISTRACTOR_SECTIONS], rng.int(1, 3));
  const folders = folderOrder(rng);
  const extraNav = rng.shuffle(DISTRACTOR_NAV.filter((n) => distractors.includes(n)));
  // Distractor links sit among the folders or after them.
  const nav = rng.chance(0.5) ? [...folders, ...extraNav] : rng.shuffle([...folders, ...extraNav]);
  return {
    words,
    mark,
    nav,
    composeFirst: rng.chance(0.6),
    listSections: rng.shuffle(['messages', ...DISTRACTOR_SECTIONS.filter((s) => distractors.includes(s))]),
    tools: rng.shuffle(['star', 'reply', 'move'] as ToolKey[]),
    headers: rng.chance(0.5) ? ['from', 'to', 'date', 'folder'] : rng.shuffle(['from', 'to', 'date', 'folder'] as HeaderKey[]),
    composeFields: rng.pick(COMPOSE_ORDERS),
    navPlacement: rng.pick(['top', 'side', 'header'] as const),
    listView: rng.pick(['rows', 'table', 'cards'] as const),
    dateStyle: rng.pick(['md', 'dm', 'iso'] as const),
    accent: rng.pick(['violet', 'blue', 'teal', 'rust'] as const),
    storageUsed: rng.int(12, 87),
  };
}

/** A folder's name on this site ("starred" follows the drawn mark). */
export function folderName(v: Variant, id: string): string {
  if (id === 'starred') return v.mark.starred;
  return v.words[id as 'inbox' | 'sent' | 'archive' | 'spam'] ?? id;
}


/** A message's link name in a listing on this site. */
export function messageLinkName(v: Variant, who: string, subject: string): string {
  return fill(v.words.messageLink, { who, subject });
}

/** The name of a row's star toggle ("Star <subject>" in the original wording). */
export function starToggleName(v: Variant, starred: boolean, subject: string): string {
  return `${starred ? v.mark.unstar : v.mark.star} ${subject}`;
}
