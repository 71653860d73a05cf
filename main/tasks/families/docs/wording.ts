/**
 * What every docs site picks for itself from the seed: the words on its labels and buttons
 * (Search / Find / Search docs; Parameters / Arguments / Options; Default / Default value), the
 * order of its sections and sidebar groups, how it lays out parameters and where its table of
 * contents sits. A policy that memorised one site's words or layout meets others; the oracle reads
 * the instance's own choices from its state, so it stays right under every one of them.
 */
import type { Rng } from '../../../common/rng.ts';

export interface Wording {
  searchBox: string;
  searchButton: string;
  versionSelect: string;
  versionButton: string;
  /** Appended to the latest version's option ("v2.x (latest)"); may be empty. */
  latestSuffix: string;
  toc: string;
  guides: string;
  api: string;
  changelog: string;
  /** How a module's link reads: "{m}", "{m} module" or "Module {m}". */
  moduleLink: string;
  parameters: string;
  name: string;
  type: string;
  default: string;
  description: string;
  required: string;
  returns: string;
  example: string;
  since: string;
  notes: string;
  deprecated: string;
  helpfulQuestion: string;
  yes: string;
  no: string;
  withdraw: string;
  thanks: string;
  reportLink: string;
  reportHeading: string;
  issueTitle: string;
  issuePage: string;
  issueDescription: string;
  submitIssue: string;
  resultsHeading: string;
  sectionFilter: string;
  allSections: string;
  versionFilter: string;
  applyFilters: string;
  /** Changelog sentence styles, by change kind. */
  addedStyle: number;
}

const pickWording = (rng: Rng): Wording => ({
  searchBox: rng.pick(['Search the docs', 'Search documentation', 'Find in the docs', 'Search']),
  searchButton: rng.pick(['Search', 'Find', 'Search docs', 'Go']),
  versionSelect: rng.pick(['Version', 'Docs version', 'Documentation version']),
  versionButton: rng.pick(['Switch', 'Show version', 'Change version', 'View']),
  latestSuffix: rng.pick([' (latest)', ' (current)', '']),
  toc: rng.pick(['Table of contents', 'Contents', 'Documentation']),
  guides: rng.pick(['Guides', 'Tutorials', 'How-to guides']),
  api: rng.pick(['API reference', 'Reference', 'API']),
  changelog: rng.pick(['Changelog', 'Release notes', "What's new"]),
  moduleLink: rng.pick(['{m}', '{m} module', 'Module {m}']),
  parameters: rng.pick(['Parameters', 'Arguments', 'Options']),
  name: rng.pick(['Name', 'Parameter', 'Argument']),
  type: rng.pick(['Type', 'Accepts']),
  default: rng.pick(['Default', 'Default value', 'Defaults to']),
  description: rng.pick(['Description', 'Meaning', 'Details']),
  required: rng.pick(['required', '(required)', 'no default']),
  returns: rng.pick(['Returns', 'Return value', 'Result']),
  example: rng.pick(['Example', 'Usage', 'Sample code']),
  since: rng.pick(['Added in', 'Since', 'Available since', 'New in']),
  notes: rng.pick(['Version notes', 'History', 'Availability']),
  deprecated: rng.pick(['Deprecated', 'Obsolete', 'Legacy']),
  helpfulQuestion: rng.pick(['Was this page helpful?', 'Did this page help you?', 'Is this page useful?', 'Did you find what you needed?']),
  yes: rng.pick(['Yes', 'Yes, it helped', 'Helpful']),
  no: rng.pick(['No', 'No, not really', 'Not helpful']),
  withdraw: rng.pick(['Withdraw my feedback', 'Undo my answer', 'Clear my vote']),
  thanks: rng.pick(['Thanks for your feedback!', 'Thank you, your answer was recorded.', 'Got it, thanks.']),
  reportLink: rng.pick(['Report an issue', 'Suggest an edit', 'Report a problem with this page', 'Edit or report this page']),
  reportHeading: rng.pick(['Report a documentation issue', 'Suggest an edit', 'Report a problem']),
  issueTitle: rng.pick(['Title', 'Issue title', 'Summary']),
  issuePage: rng.pick(['Page', 'Affected page', 'Which page?']),
  issueDescription: rng.pick(['Description', 'Details', 'What is wrong?']),
  submitIssue: rng.pick(['Submit issue', 'Send report', 'File issue', 'Submit']),
  resultsHeading: rng.pick(['Search results', 'Results', 'Matches']),
  sectionFilter: rng.pick(['Section', 'Filter by section', 'Search in']),
  allSections: rng.pick(['All sections', 'Everything', 'Any section']),
  versionFilter: rng.pick(['In version', 'Search version', 'Limit to version']),
  applyFilters: rng.pick(['Apply', 'Filter', 'Update results', 'Refine']),
  addedStyle: rng.below(3),
});

export type ApiSection = 'params' | 'returns' | 'example' | 'notes';
export type TocGroup = 'guides' | 'api' | 'changelog';
export type HomeSection = 'guides' | 'modules' | 'news';
export type ParamColumn = 'type' | 'default' | 'description';

export interface Look {
  /** Where the table of contents sits: a left column, below the page, or across the top. */
  frame: 'sidebar' | 'below' | 'top';
  /** Parameters as a table, a definition list or a bullet list. */
  params: 'table' | 'dl' | 'list';
  /** Column (or clause) order after the name. */
  columns: ParamColumn[];
  apiSections: ApiSection[];
  tocGroups: TocGroup[];
  homeSections: HomeSection[];
  /** The feedback question before the report link, or after it. */
  feedbackFirst: boolean;
  /** The version selector before the search box in the header, or after it. */
  versionFirst: boolean;
  /** Body classes: the family's own and an accent theme already in site.css. */
  theme: string;
}

// Accent-only themes of site.css (they set --accent and nothing else), so a docs site's colours vary
// without rules of its own.
const ACCENTS = ['theme-flights', 'theme-hotels', 'theme-cal', 'theme-homes', 'theme-tickets', 'theme-factbook'];

const pickLook = (rng: Rng): Look => {
  const frame = rng.pick(['sidebar', 'below', 'top'] as const);
  const params = rng.pick(['table', 'dl', 'list'] as const);
  return {
    frame,
    params,
    columns: rng.shuffle(['type', 'default', 'description'] as const),
    apiSections: rng.shuffle(['params', 'returns', 'example', 'notes'] as const),
    tocGroups: rng.shuffle(['guides', 'api', 'changelog'] as const),
    homeSections: rng.shuffle(['guides', 'modules', 'news'] as const),
    feedbackFirst: rng.chance(0.5),
    versionFirst: rng.chance(0.5),
    theme: `theme-docs docs-${frame} docs-params-${params} ${rng.pick(ACCENTS)}`,
  };
};

export function pickPresentation(rng: Rng): { ui: Wording; look: Look } {
  return { ui: pickWording(rng), look: pickLook(rng) };
}

/** A module's link text in the site's wording. */
export function moduleLabel(ui: Wording, module: string): string {
  return ui.moduleLink.replace('{m}', module);
}

/** The version selector's option for a major: "v1.x", "v2.x (latest)". */
export function versionOption(ui: Wording, major: number, latest: number): string {
  return `v${major}.x${major === latest ? ui.latestSuffix : ''}`;
}
