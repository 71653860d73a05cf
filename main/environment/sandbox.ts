/**
 * Whether a launched Chromium can keep its sandbox. Task pages are untrusted, so the sandbox stays
 * on wherever Chromium can run it; where it cannot, it is switched off with the reason, which the
 * episode header records (env.sandbox). Chromium's Linux sandbox needs either an unprivileged user
 * namespace or the setuid chrome-sandbox helper, and refuses to run at all as root.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface SandboxState {
  enabled: boolean;
  /** Why it is off (absent when it is on). */
  reason?: string;
}

/** What the decision depends on, read from the system by sandboxFacts (plain data, so it is testable). */
export interface SandboxFacts {
  platform: NodeJS.Platform;
  /** process.getuid(); null where there is none (Windows). */
  uid: number | null;
  /** LAB_NO_SANDBOX=1, or --no-sandbox among the extra browser flags. */
  optOut: string | null;
  /** null when user namespaces look usable; else which setting forbids them. */
  userNamespaceBlock: string | null;
  /** A chrome-sandbox helper next to the executable (or $CHROME_DEVEL_SANDBOX) that is setuid root. */
  setuidHelper: boolean;
}

export function decideSandbox(f: SandboxFacts): SandboxState {
  if (f.optOut) return { enabled: false, reason: f.optOut };
  if (f.platform !== 'linux') return { enabled: true };
  if (f.uid === 0) return { enabled: false, reason: 'running as root (Chromium does not start its sandbox for root)' };
  if (f.userNamespaceBlock === null || f.setuidHelper) return { enabled: true };
  return { enabled: false, reason: `no usable user namespace (${f.userNamespaceBlock}) and no setuid chrome-sandbox helper` };
}

const readSysctl = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
};

/** Kernel settings that forbid unprivileged user namespaces (Debian's, the generic one, Ubuntu's AppArmor one). */
function userNamespaceBlock(): string | null {
  if (readSysctl('/proc/sys/kernel/unprivileged_userns_clone') === '0') return 'kernel.unprivileged_userns_clone = 0';
  if (readSysctl('/proc/sys/user/max_user_namespaces') === '0') return 'user.max_user_namespaces = 0';
  if (readSysctl('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') === '1') return 'kernel.apparmor_restrict_unprivileged_userns = 1';
  return null;
}

function hasSetuidHelper(executable: string): boolean {
  for (const p of [process.env.CHROME_DEVEL_SANDBOX, join(dirname(executable), 'chrome-sandbox')]) {
    if (!p || !existsSync(p)) continue;
    const st = statSync(p);
    if (st.uid === 0 && (st.mode & 0o4000) !== 0) return true;
  }
  return false;
}

export function sandboxFacts(executable: string, extraArgs: readonly string[] = []): SandboxFacts {
  const optOut = process.env.LAB_NO_SANDBOX === '1' ? 'switched off by LAB_NO_SANDBOX=1' : extraArgs.includes('--no-sandbox') ? 'switched off by --no-sandbox in the browser flags' : null;
  return {
    platform: process.platform,
    uid: typeof process.getuid === 'function' ? process.getuid() : null,
    optOut,
    userNamespaceBlock: process.platform === 'linux' ? userNamespaceBlock() : null,
    setuidHelper: process.platform === 'linux' ? hasSetuidHelper(executable) : false,
  };
}

/** Chromium's own words when its sandbox cannot start (then the launch is retried without it). */
export function sandboxStartFailure(stderr: string): string | null {
  const line = stderr.split('\n').find((l) => /sandbox/i.test(l) && /(No usable sandbox|FATAL|not supported|failed)/i.test(l));
  return line ? line.replace(/^\[[^\]]*\]\s*/, '').trim() : null;
}
