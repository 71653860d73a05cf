/**
 * The real-estate layout variants as CSS. The shared site.css only knows the original layout, and
 * this family keeps to its own folder, so every page carries this constant block (trusted text,
 * never user data). Each rule hangs off a class the variant puts on <body> or on a container.
 */
export const HOMES_CSS = `
.homes-teal { --accent: #0f6e6a; }
.homes-brick { --accent: #8e3b2a; }
.homes-slate { --accent: #3a4a5e; }
.header-nav ul { list-style: none; display: flex; gap: 14px; margin: 0 0 0 auto; padding: 0; flex-wrap: wrap; }
.header-nav a { color: #fff; }
.homes-shell { display: grid; grid-template-columns: 190px 1fr; gap: 22px; }
.side-nav ul { list-style: none; margin: 0; padding: 10px; display: flex; flex-direction: column; gap: 10px; background: #fff; border: 1px solid #dde1e7; border-radius: 6px; }
.listing-top { display: block; }
.listing-top .filters { flex-direction: row; flex-wrap: wrap; align-items: flex-end; gap: 10px; margin-bottom: 12px; }
.listing-top .filters .filter { display: flex; flex-direction: column; gap: 4px; }
.listing-top .filters button { margin-top: 0; }
.filters .filter { display: flex; flex-direction: column; gap: 4px; }
.homes-table td.price { text-align: right; }
.homes-list { list-style: none; padding: 0; }
.homes-list li { padding: 8px 0; border-bottom: 1px solid #eef0f3; }
.homes-list .meta { display: block; }
.facts-list { display: grid; grid-template-columns: 180px 1fr; gap: 4px 12px; }
.facts-list dt { font-weight: 600; }
.facts-list dd { margin: 0; }
.promo { background: #fff8e6; border: 1px solid #e3c67a; border-radius: 6px; padding: 8px 12px; margin: 14px 0; }
`;
