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

say('installing npm dependencies (npm ci)');
if (!run('npm', ['ci', '--no-audit', '--no-fund'])) {
  // Where Electron's binary cannot be downloaded, everything but the desktop window still works.
  say('npm ci failed; retrying without the Electron binary (the desktop app will not start; use `npm run web`)');
  if (!run('npm', ['ci', '--no-audit', '--no-fund'], { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' })) process.exit(1);
}
say('done. Try: npm run lab -- demo');
