// `npm start`: build and open the desktop app, or say in one message why it cannot start here.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let electronPath;
try {
  electronPath = require('electron'); // the binary's path when Electron is installed
} catch {
  electronPath = null;
}
if (!electronPath || typeof electronPath !== 'string') {
  process.stderr.write(
    'The Electron binary is not installed on this machine (it is downloaded by `npm install` where the network allows).\n' +
      'Run the same app in your browser instead: npm run web\n',
  );
  process.exit(1);
}
if (spawnSync('npm', ['run', 'build'], { stdio: 'inherit' }).status !== 0) process.exit(1);
process.exit(spawnSync(electronPath, ['.'], { stdio: 'inherit' }).status ?? 1);
