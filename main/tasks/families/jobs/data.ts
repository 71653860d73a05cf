/** Job board data: postings with title, company, location, type, level, salary and requirements, from the seed. */
import { Rng, mixSeed } from '../../../common/rng.ts';
import type { UiState } from '../common/site.ts';
import type { Variant } from './variant.ts';

export const TITLES = ['Software Engineer', 'Data Analyst', 'Product Designer', 'Marketing Manager', 'Registered Nurse', 'Accountant', 'Sales Representative', 'Customer Support Specialist', 'Project Manager', 'Mechanical Engineer'];
const COMPANIES = ['Northwind Labs', 'Bluefin Health', 'Acme Robotics', 'Lumen Analytics', 'Cedar & Co.', 'Brightline Media', 'Granite Systems', 'Harbor Logistics', 'Juniper Foods', 'Summit Energy', 'Evergreen Bank', 'Falcon Aerospace', 'Copperleaf Software', 'Meridian Retail'];
export const LOCATIONS = ['Boston, MA', 'Denver, CO', 'Austin, TX', 'Seattle, WA', 'Chicago, IL', 'Atlanta, GA', 'Remote'];
export const JOB_TYPES = ['Full-time', 'Part-time', 'Contract', 'Internship'] as const;
export const LEVELS = ['Entry level', 'Mid level', 'Senior level'] as const;
const SKILLS: Record<string, string[]> = {
  'Software Engineer': ['TypeScript', 'Python', 'SQL', 'cloud services', 'code review'],
  'Data Analyst': ['SQL', 'Excel', 'Tableau', 'statistics', 'Python'],
  'Product Designer': ['Figma', 'user research', 'prototyping', 'design systems', 'accessibility'],
  'Marketing Manager': ['campaign planning', 'SEO', 'analytics', 'budgeting', 'copywriting'],
  'Registered Nurse': ['patient care', 'BLS certification', 'charting', 'medication administration', 'teamwork'],
  Accountant: ['GAAP', 'reconciliations', 'Excel', 'tax preparation', 'audits'],
  'Sales Representative': ['prospecting', 'CRM tools', 'negotiation', 'presentations', 'pipeline management'],
  'Customer Support Specialist': ['ticketing systems', 'written communication', 'troubleshooting', 'empathy', 'product knowledge'],
  'Project Manager': ['scheduling', 'stakeholder management', 'risk tracking', 'Agile', 'budgets'],
  'Mechanical Engineer': ['CAD', 'SolidWorks', 'prototyping', 'tolerance analysis', 'manufacturing'],
};
const BENEFITS = ['Health, dental and vision insurance', '401(k) with company match', 'Flexible hours', 'Four weeks paid time off', 'Learning budget', 'Parental leave', 'Commuter benefits'];

export interface Job {
  id: number;
  title: string;
  company: string;
  location: string;
  type: (typeof JOB_TYPES)[number];
  level: (typeof LEVELS)[number];
  /** Yearly salary range in dollars; maxima are distinct across the board. */
  salaryMin: number;
  salaryMax: number;
  postedDaysAgo: number;
  yearsRequired: number;
  skills: string[];
  benefits: string[];
}

export type JobsGoal =
  | { kind: 'save'; job: number }
  | { kind: 'years'; job: number; answer: string }
  | { kind: 'apply'; job: number; name: string; email: string; phone: string; years: number; title?: string; level?: string; remote?: boolean };

export interface Application {
  id: string;
  job: number;
  name: string;
  email: string;
  phone: string;
  years: number;
  authorized: string;
  source: string;
  cover: string;
}

export interface JobsState {
  siteName: string;
  jobs: Job[];
  saved: number[];
  applications: Application[];
  goal: JobsGoal;
  /** How this board looks and words itself (variant.ts); never what it holds. */
  variant: Variant;
  ui: UiState;
}

/** How the instruction and the checker name a posting; pages name it in the board's own words (variant.ts). */
export function jobName(j: Job): string {
  return `${j.title} at ${j.company}`;
}

export function salaryText(j: Job): string {
  return `$${j.salaryMin.toLocaleString('en-US')} to $${j.salaryMax.toLocaleString('en-US')} a year`;
}

export function generateJobs(seed: number): Job[] {
  const rng = new Rng(mixSeed(seed, 'jobs-data'));
  const jobs: Job[] = [];
  const seen = new Set<string>();
  const maxima = new Set<number>();
  let id = 3000 + rng.int(0, 500);
  const n = rng.int(44, 56);
  while (jobs.length < n) {
    const title = rng.pick(TITLES);
    const company = rng.pick(COMPANIES);
    // One posting per title and company, so "the Data Analyst job at Acme" is unambiguous.
    if (seen.has(`${title}|${company}`)) continue;
    seen.add(`${title}|${company}`);
    const level = rng.pick(LEVELS);
    const type = rng.pick([...JOB_TYPES, 'Full-time', 'Full-time', 'Full-time'] as Array<(typeof JOB_TYPES)[number]>);
    const base = (level === 'Entry level' ? 45 : level === 'Mid level' ? 70 : 100) + rng.int(0, 40);
    let max = (base + rng.int(10, 35)) * 1000;
    while (maxima.has(max)) max += 1000;
    maxima.add(max);
    jobs.push({
      id,
      title,
      company,
      location: rng.pick(LOCATIONS),
      type,
      level,
      salaryMin: base * 1000,
      salaryMax: max,
      postedDaysAgo: rng.int(0, 30),
      yearsRequired: level === 'Entry level' ? rng.int(0, 1) : level === 'Mid level' ? rng.int(2, 5) : rng.int(5, 10),
      skills: rng.sample(SKILLS[title], 3),
      benefits: rng.sample(BENEFITS, rng.int(2, 4)),
    });
    id += rng.int(1, 13);
  }
  return jobs;
}
