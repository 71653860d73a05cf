/** Junk on every route of an instance, as an attacker or a confused agent sends it. */
import assert from 'node:assert/strict';

export interface JunkPlan {
  /** Values put where a route has `{x}` (each route is requested once per value). */
  xs: readonly string[];
  /** Values rotated through the query keys and form fields. */
  values: readonly string[];
  gets: readonly string[];
  posts: ReadonlyArray<readonly [path: string, fields: readonly string[]]>;
  queryKeys: readonly string[];
}

/**
 * For each `{x}` value: every GET with junk query values, then every POST with junk fields. Every
 * answer must be a page or a redirect inside the instance, never a server error.
 */
export async function sendJunk(base: string, plan: JunkPlan): Promise<void> {
  const rotated = (keys: readonly string[], i: number) => new URLSearchParams(keys.map((k, j) => [k, plan.values[(i + j) % plan.values.length]]));
  let i = 0;
  for (const x of plan.xs) {
    for (const path of plan.gets) {
      const url = `${base}${path.replace('{x}', encodeURIComponent(x))}?${rotated(plan.queryKeys, i++)}`;
      const res = await fetch(url, { redirect: 'manual' });
      await res.text();
      assert.ok(res.status < 500, `${url} -> ${res.status}`);
    }
    for (const [path, fields] of plan.posts) {
      const body = rotated(fields, i++);
      const url = `${base}${path.replace('{x}', encodeURIComponent(x))}`;
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body.toString(), redirect: 'manual' });
      const text = await res.text();
      assert.ok(res.status < 500, `POST ${url} ${body} -> ${res.status} ${text.slice(0, 200)}`);
      if (res.status === 303) assert.ok(res.headers.get('location')!.startsWith(base), `redirect stays in the instance: ${res.headers.get('location')}`);
    }
  }
}
