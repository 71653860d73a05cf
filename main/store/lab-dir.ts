/**
 * Where a lab folder may live. Pseudo-filesystems (/proc, /sys, /dev and their kin) cannot hold
 * files, and Node's recursive mkdir never returns under /proc, so such paths are refused up front
 * with a message instead of a hang.
 */
import { existsSync, realpathSync, statSync, statfsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** statfs f_type of kernel pseudo-filesystems (linux/magic.h). */
const PSEUDO_FS: Record<number, string> = {
  0x9fa0: 'proc',
  0x62656572: 'sysfs',
  0x27e0eb: 'cgroup',
  0x63677270: 'cgroup2',
  0x1cd1: 'devpts',
  0x64626720: 'debugfs',
  0x74726163: 'tracefs',
  0x73636673: 'securityfs',
  0xcafe4a11: 'bpf',
};

const PSEUDO_ROOTS = ['/proc', '/sys', '/dev'];
/** Under /dev, only shared memory holds ordinary files. */
const DEV_EXCEPTIONS = ['/dev/shm'];

const within = (path: string, root: string) => path === root || path.startsWith(root + sep);

/** The nearest folder on the path that exists (the path itself when it does). */
function existingAncestor(path: string): string {
  let p = path;
  while (!existsSync(p)) {
    const up = dirname(p);
    if (up === p) break;
    p = up;
  }
  return p;
}

/** Throws, naming the path and why, when a lab cannot live there. */
export function assertLabDirUsable(dir: string): void {
  const abs = resolve(dir);
  const base = existingAncestor(abs);
  // A file where the lab or one of its parents should be (--lab /etc/passwd, or /etc/passwd/x).
  if (!statSync(base).isDirectory()) throw new Error(`--lab ${dir}: ${base} is a file, not a folder; a lab is a folder (an existing one, or a new one to create)`);
  // Follow symlinks in the part that exists: /tmp/x -> /proc is /proc.
  const real = join(realpathSync(base), relative(base, abs));
  if (process.platform === 'linux') {
    const root = PSEUDO_ROOTS.find((r) => within(real, r) && !DEV_EXCEPTIONS.some((e) => within(real, e)));
    if (root) throw new Error(`--lab ${dir}: ${real} is under ${root}, a kernel pseudo-filesystem that cannot hold a lab; choose a folder on a disk`);
    const fs = PSEUDO_FS[Number(statfsSync(base).type)];
    if (fs) throw new Error(`--lab ${dir}: ${base} is on a ${fs} pseudo-filesystem that cannot hold a lab; choose a folder on a disk`);
  }
}
