/** The listing's query: what the URL asks for, and the postings it selects in their order. */
import { JOB_TYPES, LEVELS, type Job } from './data.ts';
import type { Words } from './variant.ts';

export const PAGE_SIZE = 10;
export const SORT_VALUES = ['relevance', 'newest', 'salary'] as const;
export const MIN_SALARY = [
  { value: '', label: 'Any salary' },
  { value: '50000', label: '$50,000+' },
  { value: '75000', label: '$75,000+' },
  { value: '100000', label: '$100,000+' },
  { value: '125000', label: '$125,000+' },
] as const;

/** The sort options in this board's words; their values are the same everywhere. */
export function sortOptions(w: Words): Array<{ value: (typeof SORT_VALUES)[number]; label: string }> {
  return [
    { value: 'relevance', label: w.sortRelevance },
    { value: 'newest', label: w.sortNewest },
    { value: 'salary', label: w.sortSalary },
  ];
}

export interface JobQuery {
  q: string;
  location: string;
  type: string;
  level: string;
  minSalary: string;
  remote: boolean;
  sort: string;
  page: number;
}

export function parseJobQuery(q: URLSearchParams): JobQuery {
  return {
    q: (q.get('q') ?? '').trim(),
    location: (q.get('location') ?? '').trim(),
    type: (JOB_TYPES as readonly string[]).includes(q.get('type') ?? '') ? q.get('type')! : '',
    level: (LEVELS as readonly string[]).includes(q.get('level') ?? '') ? q.get('level')! : '',
    minSalary: MIN_SALARY.some((o) => o.value === q.get('min_salary')) ? q.get('min_salary')! : '',
    remote: q.get('remote') === '1',
    sort: (SORT_VALUES as readonly string[]).includes(q.get('sort') ?? '') ? q.get('sort')! : 'relevance',
    page: Math.max(1, Math.floor(Number(q.get('page') ?? '1')) || 1),
  };
}

export function runJobQuery(jobs: Job[], q: JobQuery): Job[] {
  const words = q.q.toLowerCase().split(/\s+/).filter(Boolean);
  const loc = q.location.toLowerCase();
  const titleHits = (j: Job) => words.filter((w) => j.title.toLowerCase().includes(w)).length;
  const by: Record<string, (a: Job, b: Job) => number> = {
    relevance: (a, b) => titleHits(b) - titleHits(a) || a.postedDaysAgo - b.postedDaysAgo || a.id - b.id,
    newest: (a, b) => a.postedDaysAgo - b.postedDaysAgo || a.id - b.id,
    salary: (a, b) => b.salaryMax - a.salaryMax,
  };
  return jobs
    .filter((j) => words.every((w) => `${j.title} ${j.company} ${j.skills.join(' ')}`.toLowerCase().includes(w)))
    .filter((j) => !loc || j.location.toLowerCase().includes(loc))
    .filter((j) => !q.type || j.type === q.type)
    .filter((j) => !q.level || j.level === q.level)
    .filter((j) => !q.minSalary || j.salaryMax >= Number(q.minSalary))
    .filter((j) => !q.remote || j.location === 'Remote')
    .sort(by[q.sort]);
}
