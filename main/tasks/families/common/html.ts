/**
 * HTML helpers: escaping and a tagged template that escapes every interpolated value unless it
 * is already trusted markup (Raw). Sites build pages only through `html`, so generated or
 * user-submitted text can never inject markup.
 */

export class Raw {
  constructor(readonly html: string) {}
  toString(): string {
    return this.html;
  }
}

export function raw(markup: string): Raw {
  return new Raw(markup);
}

export function esc(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

type Part = Raw | string | number | boolean | null | undefined | readonly Part[];

function render(value: Part): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Raw) return value.html;
  if (Array.isArray(value)) return value.map(render).join('');
  return esc(value);
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Raw {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Raw(out);
}

/** `selected`/`checked` attributes read better as helpers than as inline ternaries. */
export function attr(name: string, on: boolean): Raw {
  return raw(on ? ` ${name}` : '');
}

export interface LayoutOptions {
  title: string;
  /** Site name shown in the header and title, e.g. "Trailhead Outfitters". */
  siteName: string;
  /** CSS class on <body>, selecting the site's theme in site.css. */
  theme: string;
  /** Link to the site's home, absolute (instance prefix included). */
  homeHref: string;
  header?: Raw;
  nav?: Raw;
  main: Raw;
  /** Rendered after <main>, e.g. a cookie banner. */
  overlay?: Raw;
  scripts?: string[];
}

export function layout(o: LayoutOptions): string {
  const scripts = (o.scripts ?? []).map((s) => html`<script src="/static/${s}" defer></script>`);
  return `<!doctype html>${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title} | ${o.siteName}</title>
<link rel="stylesheet" href="/static/site.css">
${scripts}
</head>
<body class="${o.theme}">
<header class="site-header">
<a class="brand" href="${o.homeHref}">${o.siteName}</a>
${o.header}
</header>
${o.nav ? html`<nav class="site-nav" aria-label="Main">${o.nav}</nav>` : ''}
<main id="content">
${o.main}
</main>
${o.overlay}
</body>
</html>`}`;
}

/** Money as sites print it: "$1,299.00". */
export function money(cents: number): string {
  const dollars = Math.floor(cents / 100).toLocaleString('en-US');
  return `$${dollars}.${String(cents % 100).padStart(2, '0')}`;
}
