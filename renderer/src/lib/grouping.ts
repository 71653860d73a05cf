/**
 * The episode list grouped by task instance (family, seed, tier): every attempt at one instance
 * under one header, whoever made it, so retries and agents can be read (and compared) together.
 */
import type { EpisodeRow } from '../../../preload/api.ts';

export interface InstanceGroup {
  kind: 'group';
  key: string;
  family: string;
  seed: number;
  tier: number;
  ids: string[];
  successes: number;
}

export type ListItem = InstanceGroup | { kind: 'episode'; row: EpisodeRow; grouped: boolean };

export const instanceKey = (e: Pick<EpisodeRow, 'family' | 'seed' | 'tier'>): string => `${e.family} #${e.seed} t${e.tier}`;

/**
 * Groups in the order their first episode has in `rows` (so the list's sort still applies);
 * inside a group, attempts in order (attempt number, then time), unknown attempts last.
 */
export function groupByInstance(rows: readonly EpisodeRow[]): ListItem[] {
  const groups = new Map<string, EpisodeRow[]>();
  for (const r of rows) {
    const key = instanceKey(r);
    const list = groups.get(key);
    if (list) list.push(r);
    else groups.set(key, [r]);
  }
  const items: ListItem[] = [];
  for (const [key, members] of groups) {
    members.sort((a, b) => attemptOf(a) - attemptOf(b) || (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
    const { family, seed, tier } = members[0];
    items.push({ kind: 'group', key, family, seed, tier, ids: members.map((m) => m.id), successes: members.filter((m) => m.outcome === 'success').length });
    for (const row of members) items.push({ kind: 'episode', row, grouped: true });
  }
  return items;
}

const attemptOf = (r: EpisodeRow): number => r.provenance?.attempt ?? Number.MAX_SAFE_INTEGER;

/** One short line of where an episode came from, for a list cell; '' when unknown. */
export function provenanceLabel(r: Pick<EpisodeRow, 'provenance'>): string {
  const p = r.provenance;
  if (!p) return ''; // a row indexed before provenance was listed
  const parts: string[] = [];
  if (p.experiment) parts.push(`exp ${p.experiment}`);
  if (p.eval) parts.push(`eval ${shortId(p.eval)}`);
  // An experiment's runs are named after it (<experiment>-reflect): its tail is what tells them apart.
  if (p.run) parts.push(`run ${p.experiment && p.run.startsWith(`${p.experiment}-`) ? p.run.slice(p.experiment.length + 1) : shortId(p.run)}`);
  if (p.attempt !== null) parts.push(`a${p.attempt}${p.arm ? ` ${p.arm}` : ''}`);
  if (p.policy) parts.push(p.policy);
  return parts.join(' · ');
}

/** Ids are a timestamp and a random tail: the tail tells them apart in a narrow cell. */
const shortId = (id: string): string => (/^\d{8}T\d{6}Z-/.test(id) ? id.slice(-6) : id);
