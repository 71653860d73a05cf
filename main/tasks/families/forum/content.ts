/**
 * The forum's raw material: boards and their subjects, thread-title patterns, member names and the
 * sentences posts are made of. Only words live here; data.ts decides who says what, when.
 */

/** "a chisel set", "an oak bench". */
export function a(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

export interface BoardSpec {
  name: string;
  blurb: string;
  /** What threads on the board are about; every title names one of them. */
  subjects: readonly string[];
}

/** Categories of the board index, each with the boards it can hold (a site keeps two or three). */
export const CATEGORIES: ReadonlyArray<{ name: string; boards: readonly BoardSpec[] }> = [
  {
    name: 'Making things',
    boards: [
      { name: 'Woodworking', blurb: 'Joinery, finishes and shop tools.', subjects: ['router table', 'dovetail jig', 'hand plane', 'oak bench', 'band saw', 'chisel set'] },
      { name: 'Home Brewing', blurb: 'Beer, cider and everything that ferments.', subjects: ['stout recipe', 'fermenter', 'hop schedule', 'kegerator', 'yeast starter', 'pale ale recipe'] },
      { name: 'Cooking', blurb: 'Recipes, kitchen gear and techniques.', subjects: ['cast iron pan', 'sourdough starter', 'chef knife', 'slow cooker', 'spice grinder', 'pizza oven'] },
    ],
  },
  {
    name: 'Outdoors',
    boards: [
      { name: 'Gardening', blurb: 'Vegetables, flowers and soil.', subjects: ['greenhouse', 'raised bed', 'compost heap', 'rose bush', 'herb planter', 'apple tree'] },
      { name: 'Cycling', blurb: 'Road, gravel and commuting.', subjects: ['gravel bike', 'disc brake', 'tubeless wheel', 'bike computer', 'chain tool', 'commuter bike'] },
      { name: 'Hiking', blurb: 'Trails, gear and trip reports.', subjects: ['hiking boot', 'rain shell', 'day pack', 'water filter', 'trekking pole', 'camp stove'] },
    ],
  },
  {
    name: 'Technology',
    boards: [
      { name: 'Home Networking', blurb: 'Routers, cabling and home servers.', subjects: ['mesh router', 'network switch', 'home server', 'wifi extender', 'VPN router', 'cable tester'] },
      { name: 'Retro Computing', blurb: 'Old machines kept alive.', subjects: ['floppy drive', 'CRT monitor', 'sound card', 'old laptop', 'joystick adapter', 'tape loader'] },
      { name: 'Keyboards', blurb: 'Switches, keycaps and custom builds.', subjects: ['keycap set', 'split keyboard', 'switch tester', 'hot-swap board', 'macro pad', 'stabilizer kit'] },
    ],
  },
  {
    name: 'Creative corner',
    boards: [
      { name: 'Photography', blurb: 'Cameras, lenses and critique.', subjects: ['prime lens', 'tripod head', 'film camera', 'flash unit', 'light meter', 'portrait backdrop'] },
      { name: 'Music Gear', blurb: 'Instruments, amps and recording.', subjects: ['practice amp', 'audio interface', 'acoustic guitar', 'drum pad', 'studio monitor', 'effects pedal'] },
    ],
  },
];

/**
 * Thread-title patterns. `word` is the one word of the pattern a search for it finds (it appears in
 * no subject), so a keyword picks out one pattern across every board.
 */
export const TITLE_PATTERNS: ReadonlyArray<{ word: string; make: (subject: string) => string }> = [
  { word: 'beginner', make: (s) => `Beginner question about my ${s}` },
  { word: 'budget', make: (s) => `${s} on a budget` },
  { word: 'noisy', make: (s) => `Noisy ${s}, any fix` },
  { word: 'upgrading', make: (s) => `Upgrading the ${s}` },
  { word: 'impressions', make: (s) => `First impressions of a new ${s}` },
  { word: 'problem', make: (s) => `Strange problem with my ${s}` },
  { word: 'advice', make: (s) => `Advice needed: ${s}` },
  { word: 'cleaning', make: (s) => `Cleaning and care of the ${s}` },
  { word: 'worth', make: (s) => `${s}: worth paying more` },
  { word: 'review', make: (s) => `Long-term review: ${s}` },
  { word: 'mistakes', make: (s) => `Mistakes I made with my ${s}` },
  { word: 'secondhand', make: (s) => `Buying a secondhand ${s}` },
];

/** What an opening post can state as a checkable fact (the tier-3 reply quotes it). */
export const DETAIL_LABELS = ['model number', 'budget'] as const;
export type DetailLabel = (typeof DETAIL_LABELS)[number];

export const OPENERS: ReadonlyArray<(s: string) => string> = [
  (s) => `I have been working with my ${s} for a few weeks now and I am stuck.`,
  (s) => `Picked up ${a(s)} last month and have a few questions.`,
  (s) => `Looking for some advice on ${a(s)} before I commit.`,
  (s) => `Long-time reader, first post. My ${s} is giving me trouble.`,
  (s) => `I want to get more out of my ${s} this season.`,
];

export const DETAIL_SENTENCES: Record<DetailLabel, ReadonlyArray<(v: string) => string>> = {
  'model number': [(v) => `The model number on the label is ${v}.`, (v) => `It is the ${v} model, if that helps.`, (v) => `For reference, mine is a ${v}.`],
  budget: [(v) => `My budget is ${v}, give or take.`, (v) => `I would like to keep it under ${v} in total.`, (v) => `I can spend about ${v} on this.`],
};

export const QUESTIONS = ['Has anyone here dealt with this?', 'What would you do?', 'Any tips appreciated.', 'Thanks in advance for any pointers.', 'Is there something obvious I am missing?'];

/** Reply sentences; {s} is the thread's subject ({a s} with its article), {code} another model number, {money} another amount. */
export const REPLY_SENTENCES = [
  'I had the same issue with my {s} last year.',
  'Mine is a {code} and it has been fine for years.',
  'I spent about {money} on mine and do not regret it.',
  'Check the manual first, it saved me a lot of time.',
  'Following this thread, I am curious too.',
  'Thanks for the tips, everyone.',
  'Have you tried asking the shop where you bought the {s}?',
  'Take it slowly and it will work out.',
  'There is a good guide on this in the pinned posts.',
  'I would not spend more than {money} on {a s}.',
  'Same here, the {code} had that problem too.',
  'Post a photo and we can take a look.',
  'Patience is the answer, as usual.',
  'Good luck, let us know how it goes.',
];

/** What the logged-in member writes when a task asks for a reply or an edit. */
export const MEMBER_LINES = [
  'Thanks, this helped a lot. I will try it this weekend.',
  'I had the same question, and the second answer solved it for me.',
  'Great thread, bookmarking it for later.',
  'Could you share a photo of the finished result?',
  'I ended up going with the cheaper option and it works fine.',
  'Agreed with everyone above, patience is the trick.',
  'Update: it works now, thanks to this thread.',
  'Does anyone know if this applies to older models too?',
  'I would add that a good manual makes all the difference.',
  'Happy to help if anyone near me wants to see mine.',
];

const ADJECTIVES = ['quiet', 'rusty', 'amber', 'misty', 'clever', 'lucky', 'salty', 'sunny', 'dusty', 'brave', 'gentle', 'stormy', 'velvet', 'copper'];
const CREATURES = ['heron', 'badger', 'otter', 'finch', 'lynx', 'marten', 'wren', 'beaver', 'falcon', 'newt', 'moose', 'hare', 'puffin', 'vole'];
export const LOCATIONS = ['Leeds', 'Tacoma', 'Ghent', 'Dunedin', 'Halifax', 'Tromsø', 'Perth', 'Graz', 'Cork', 'Boulder', 'Nantes', 'Kyoto'];

/** Member names in a few house styles: quiet_heron, RustyBadger, misty.otter42. */
export function memberName(pick: <T>(xs: readonly T[]) => T, n: number): string {
  const a = pick(ADJECTIVES);
  const c = pick(CREATURES);
  const cap = (w: string) => w[0].toUpperCase() + w.slice(1);
  const style = n % 3;
  return style === 0 ? `${a}_${c}` : style === 1 ? `${cap(a)}${cap(c)}` : `${a}.${c}${10 + ((n * 7) % 89)}`;
}

export const SITE_NAMES = ['Hearthside Forums', 'The Commons', 'Tinkerers Hall', 'Open Circle Boards', 'Backroom Talk', 'Lantern Forum'];
