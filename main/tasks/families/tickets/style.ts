/**
 * The ticketing site's layout variants as CSS. The shared site.css styles only the original layout,
 * and this family keeps to its own folder, so every page carries this constant block (trusted text,
 * never user data). Each rule hangs off a class the variant puts on <body> or on a container.
 */
export const TICKETS_CSS = `
.tickets-plum { --accent: #8a1c5a; }
.tickets-ink { --accent: #22314f; }
.tickets-ember { --accent: #a4401b; }
.tickets-pine { --accent: #1f5b45; }
.header-nav ul { list-style: none; display: flex; gap: 12px; margin: 0 0 0 auto; padding: 0; flex-wrap: wrap; }
.header-nav a { color: #fff; }
.tickets-shell { display: grid; grid-template-columns: 180px 1fr; gap: 22px; }
.side-nav ul { list-style: none; margin: 0; padding: 10px; display: flex; flex-direction: column; gap: 10px; background: #fff; border: 1px solid #dde1e7; border-radius: 6px; }
.filters-bar { display: flex; flex-wrap: wrap; gap: 10px; align-items: flex-end; background: #fff; border: 1px solid #dde1e7; border-radius: 6px; padding: 10px; margin-bottom: 12px; }
.tickets-filters .filter { display: flex; flex-direction: column; gap: 3px; }
.event-list { list-style: none; padding: 0; background: #fff; border: 1px solid #dde1e7; border-radius: 6px; }
.event-list li { display: grid; grid-template-columns: 2fr 2fr 1fr; gap: 10px; padding: 8px 10px; border-bottom: 1px solid #eef0f3; }
.event-list li p { margin: 0; }
.promo { background: #fff8e6; border: 1px solid #e3c67a; border-radius: 6px; padding: 8px 12px; margin: 14px 0; }
`;
