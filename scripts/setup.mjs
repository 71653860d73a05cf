// One-command set-up: Chromium for the environment, then the npm dependencies.
// Uses only Node built-ins, so it runs before `npm ci`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const say = (m) => process.stdout.write(`setup: ${m}\n`);
const run = (cmd, args, env = {}) => spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } }).status === 0;

const chromiumPaths = {
  linux: ['/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'],
  darwin: ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome', '/Applications/Chromium.app/Contents/MacOS/Chromium'],
  win32: ['C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe'],
};
const haveChromium = process.env.LAB_CHROMIUM || (chromiumPaths[process.platform] ?? []).some((p) => existsSync(p));
if (haveChromium) say('Chromium found');
else if (process.platform === 'linux' && existsSync('/usr/bin/apt-get')) {
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  say('installing Chromium with apt-get');
  const apt = (args) => (sudo.length ? run('sudo', ['apt-get', ...args]) : run('apt-get', args));
  if (!(apt(['update', '-qq']) && apt(['install', '-y', '-qq', 'chromium']))) {
    say('could not install Chromium; install it yourself or set LAB_CHROMIUM=/path/to/chrome');
    process.exit(1);
  }
} else {
  say('no Chromium or Chrome found: install Google Chrome or Chromium, or set LAB_CHROMIUM=/path/to/chrome');
}

// npm's warnings are left out (--loglevel=error): on Node 20 they are ~60 EBADENGINE lines about
// Electron's tooling and the OpenAI client declaring Node 22, which the workbench does not need.
const npmCi = (env = {}) => {
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', env: { ...process.env, ...env } });
  return { ok: r.status === 0, stderr: r.stderr ?? '' };
};
const firstError = (stderr) => stderr.split('\n').map((l) => l.replace(/^npm (error|ERR!)\s*/, '').trim()).find((l) => l && !/^(code|path|command|cwd) /.test(l)) ?? 'unknown error';

say('installing npm dependencies (npm ci, a minute or two)');
let ci = npmCi();
if (!ci.ok) {
  // Where Electron's binary cannot be downloaded (no network beyond the npm registry), everything
  // but the desktop window still works: say so in one line and install without it.
  const why = firstError(ci.stderr);
  ci = npmCi({ ELECTRON_SKIP_BINARY_DOWNLOAD: '1' });
  if (!ci.ok) {
    process.stderr.write(ci.stderr);
    say('npm ci failed (above)');
    process.exit(1);
  }
  say(`installed without the Electron binary (${why.slice(0, 160)}): the desktop app will not start; \`npm run web\` and the CLI work`);
} else {
  say('npm dependencies installed');
}
const major = Number(process.versions.node.split('.')[0]);
if (major < 22) say(`Node ${process.versions.node}: the workbench, CLI and tests run on it; Electron's packaging tools and the OpenAI client declare Node >= 22`);
say('done. Try: npm run lab -- demo');
