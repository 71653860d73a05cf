/**
 * What a process and its descendants use, read from /proc (Linux): how many processes, their
 * resident memory and the CPU time they have spent. Benchmarks use it to say what a browser
 * costs (Chromium is a tree: browser, GPU, network and one renderer per site).
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessTreeUsage {
  count: number;
  rssKb: number;
  /**
   * Proportional set size: each page shared between processes counted once in all, split among
   * them (/proc/<pid>/smaps_rollup). Chromium's processes share most of their code and much of
   * their memory, so this, not the RSS sum, is what the tree costs; null where it is unreadable.
   */
  pssKb: number | null;
  /** User + system CPU seconds of the processes alive now (a renderer that ended takes its time with it). */
  cpuS: number;
}

/** Clock ticks per second of /proc/<pid>/stat; 100 on every Linux in use (sysconf(_SC_CLK_TCK)). */
const CLK_TCK = 100;

/** The tree under `root`; null where /proc is missing. */
export function processTreeUsage(root: number): ProcessTreeUsage | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  const parent = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const d of entries) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: fields resume after the last ')'.
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(d), Number(rest[1]));
      // rest[0] is field 3 (state): utime and stime are fields 14 and 15.
      ticks.set(Number(d), Number(rest[11]) + Number(rest[12]));
    } catch {
      // the process ended while we looked
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = parent.get(p) ?? 0, hops++) if (p === root) return true;
    return false;
  };
  let count = 0;
  let rssKb = 0;
  let cpuTicks = 0;
  let pssKb: number | null = 0;
  for (const pid of parent.keys()) {
    if (!inTree(pid)) continue;
    try {
      const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
      count++;
      rssKb += m ? Number(m[1]) : 0;
      cpuTicks += ticks.get(pid) ?? 0;
      // No VmRSS: a zombie (a renderer that exited and is not yet reaped) maps no memory, and its
      // smaps_rollup reads empty.
      if (pssKb !== null && m) {
        try {
          const pss = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').match(/^Pss:\s+(\d+) kB/m);
          pssKb = pss ? pssKb + Number(pss[1]) : null;
        } catch (err) {
          // A process that ended between the two reads (a renderer closing) holds no memory any
          // more; anything else (no permission, no smaps_rollup) leaves the tree's PSS unknown.
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && (err as NodeJS.ErrnoException).code !== 'ESRCH') pssKb = null;
        }
      }
    } catch {
      // ended meanwhile
    }
  }
  return { count, rssKb, pssKb, cpuS: cpuTicks / CLK_TCK };
}
