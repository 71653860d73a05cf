import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recordedEnvOptions } from '../../main/collection/replay.ts';

const env = { viewport: { width: 1024, height: 768 }, screenshots: false, browser: 'chromium' };

test('a replay runs with the action sets and text layout its episode recorded, and with the defaults where the header is older', () => {
  assert.deepEqual(recordedEnvOptions({ id: 'old', env }), {}, 'headers from before the fields: the defaults they ran with');
  assert.deepEqual(recordedEnvOptions({ id: 'e1', env: { ...env, actionSets: ['coord', 'bid'], textLayout: 'runs' } }), { actionSets: ['bid', 'coord'], textLayout: 'runs' });
  assert.throws(() => recordedEnvOptions({ id: 'e2', env: { ...env, actionSets: ['tabs'] } }), /^Error: episode e2's header: unknown action set "tabs" \(known: bid, coord, nav, chat, misc\)$/);
});
