import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

const CLI = join(import.meta.dirname, '..', '..', 'main', 'cli', 'index.ts');

test('`lab serve --port 0 --decode ar` prints its base URL, answers /health and a chat request, and stops on Ctrl-C', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', '--port', '0', '--decode', 'ar', '--name', 'tiny'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  try {
    const first = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c) => {
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
  assert.match(stderr, /chat chatcmpl-\w+ (stop|length) prompt=\d+ completion=\d+/);
});

test('`lab serve` refuses an unknown decode mode and a folder without a model, naming them', async () => {
  const run = (...args: string[]) =>
    new Promise<string>((resolve) => {
      const c = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      c.stderr.on('data', (d) => (err += d));
      c.on('exit', () => resolve(err));
    });
  assert.match(await run('--decode', 'fast'), /--decode must be one of ar, sdsat, sdsat-one-pass, got "fast"/);
  assert.match(await run('--model', '/nonexistent-model-dir', '--port', '0'), /--model: no model checkpoint in \/nonexistent-model-dir/);
});
