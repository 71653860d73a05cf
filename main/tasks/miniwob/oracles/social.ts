/**
 * Oracles for MiniWoB++'s social-media tasks: a feed of posts, each headed by a name, a @user and
 * a time, with a row of icon buttons under it. social-media asks for one button on a user's post
 * (the last icon opens a menu of more: Share via DM, Block @user, ...); -all and -some toggle one
 * icon on all, or on N, of a user's posts and then submit.
 *
 * As in the inbox, the icons have no accessible names; the oracle knows them by their place in
 * the row, which the page keeps: Reply, Retweet, Like, then More (social-media) or Share (-all,
 * -some).
 */
import type { Observation, PageElement } from '../../../environment/types.ts';
import { byRole, click, oracle, quoted, stuck, submitButton, type OracleMaker } from './base.ts';

const ROW = ['reply', 'retweet', 'like'];

interface Post {
  user: string;
  icons: PageElement[];
}

/** An icon button: small, clickable, nameless (an image to the accessibility tree, or a plain span). */
export function isIcon(e: PageElement): boolean {
  return (e.role === 'image' || e.role === 'generic') && !e.name && e.box.width > 0 && e.box.width <= 24 && e.box.height <= 24;
}

/** The feed's posts, in page order: a header line with a @user, and the unnamed icons below it. */
export function posts(obs: Observation): Post[] {
  const out: Post[] = [];
  for (const e of obs.elements) {
    const user = e.role === 'text' ? /(^|\s)(@\S+)(\s|$)/.exec(e.name)?.[2] : undefined;
    if (user) out.push({ user, icons: [] });
    else if (isIcon(e) && out.length && out[out.length - 1].icons.length < 4) out[out.length - 1].icons.push(e);
  }
  return out;
}

/** `For the user @x, click on the "Block" button.` -> {user, button}. */
export function socialTarget(instruction: string): { user: string; button: string; count?: number | 'all' } | undefined {
  const user = /(@\S+?)[,.]?(\s|$)/.exec(instruction)?.[1];
  const button = quoted(instruction)[0];
  if (!user || !button) return undefined;
  if (/\bon all posts\b/i.test(instruction)) return { user, button, count: 'all' };
  const n = /\bon (\d+) posts?\b/i.exec(instruction);
  return n ? { user, button, count: Number(n[1]) } : { user, button };
}

const socialMedia = oracle<{ opened?: string }>(
  (obs, mem) => {
    const want = socialTarget(obs.instruction);
    if (!want) return stuck('the instruction names no user or button');
    const post = posts(obs).find((p) => p.user === want.user);
    if (!post) return stuck(`no post by ${want.user}`);
    const k = ROW.indexOf(want.button.toLowerCase());
    if (k >= 0) return post.icons[k] ? click(post.icons[k], `${want.button} is icon ${k + 1} of ${want.user}'s post.`) : stuck('no icons under the post');
    // A menu item: open the post's More menu (its last icon), then pick the item.
    const item = byRole(obs, 'generic', 'listitem', 'menuitem').find((e) => e.name.startsWith(want.button) && mem.opened === post.icons[3]?.id);
    if (item) return click(item, `"${item.name}" is in the menu of ${want.user}'s post.`);
    const more = post.icons[3];
    if (!more) return stuck('no More icon under the post');
    mem.opened = more.id;
    return click(more, `"${want.button}" is in the post's More menu (its last icon).`);
  },
  () => ({}),
);

const SHARE_ROW = ['reply', 'retweet', 'like', 'share'];

/** -all / -some: toggle the icon on the user's posts (all, or the first N), then Submit. */
const toggleOnPosts: OracleMaker = oracle<{ clicked: string[] }>(
  (obs, mem) => {
    const want = socialTarget(obs.instruction);
    if (!want) return stuck('the instruction names no user or button');
    const k = SHARE_ROW.indexOf(want.button.toLowerCase());
    if (k < 0) return stuck(`no "${want.button}" icon in a post's row`);
    const theirs = posts(obs).filter((p) => p.user === want.user);
    const n = want.count === 'all' || want.count === undefined ? theirs.length : want.count;
    for (const p of theirs.slice(0, n)) {
      const icon = p.icons[k];
      if (!icon) return stuck('no icons under a post');
      if (mem.clicked.includes(icon.id)) continue;
      mem.clicked.push(icon.id);
      return click(icon, `${want.button} on ${want.user}'s post (icon ${k + 1} of its row).`);
    }
    const submit = submitButton(obs);
    return submit ? click(submit, `${want.button} is on ${n} of ${want.user}'s posts; submit.`) : stuck('no Submit button');
  },
  () => ({ clicked: [] }),
);

export const SOCIAL_ORACLES: Record<string, OracleMaker> = {
  'social-media': socialMedia,
  'social-media-all': toggleOnPosts,
  'social-media-some': toggleOnPosts,
};
