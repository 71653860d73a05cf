import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { runLab, startLab } from '../helpers/lab-cli.ts';
import { DECODE_MODES } from '../../main/decode/types.ts';

test('`lab serve --port 0 --decode ar` prints its base URL, answers /health and a chat request, and stops on Ctrl-C', async () => {
  // A real process: a server that stops on Ctrl-C with exit code 0.
  const child = startLab(['serve', '--port', '0', '--decode', 'ar', '--name', 'tiny']);
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += c));
  try {
    const first = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (c) => {
        out += c;
        if (out.includes('\n')) resolve(out.split('\n')[0]);
      });
      child.once('exit', (code) => reject(new Error(`lab serve exited (${code}): ${stderr}`)));
    });
    assert.match(first, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const health = await (await fetch(first.replace(/\/v1$/, '/health'))).json();
    assert.equal(health.model, 'tiny');
    assert.equal(health.decode, 'ar');
    const res = await fetch(`${first}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'tiny', messages: [{ role: 'user', content: 'const x' }], temperature: 0, max_tokens: 5 }) });
    assert.equal(res.status, 200);
    assert.equal((await res.json()).usage.completion_tokens <= 5, true);
    assert.match(stderr, /serving tiny \(ar decoding/);
  } finally {
    child.kill('SIGINT');
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
  }
  assert.match(stderr, /chat chatcmpl-\w+ (stop|length) prompt=\d+ cached=\d+ completion=\d+/);
});

test('`lab serve` refuses an unknown decode mode and a folder without a model, naming them', async () => {
  const run = (...args: string[]) => runLab('serve', ...args).then(() => assert.fail('lab serve started'), (err: Error) => err.message);
  assert.ok((await run('--decode', 'fast')).includes(`--decode must be one of ${DECODE_MODES.join(', ')}, got "fast"`));
  assert.match(await run('--model', '/nonexistent-model-dir', '--port', '0'), /--model: no model checkpoint in \/nonexistent-model-dir/);
});
