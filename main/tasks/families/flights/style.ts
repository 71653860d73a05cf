/**
 * The flight site's layout variants as CSS. The shared site.css styles one fixed look, and this
 * family keeps to its own folder, so every page carries this constant block (trusted text, never
 * user data). Each rule hangs off a class the variant puts on <body> or on a container.
 */
export const FLIGHTS_CSS = `
.flights-teal { --accent: #0f5c6e; }
.flights-plum { --accent: #5b2a6e; }
.flights-slate { --accent: #3b4656; }
.header-nav { margin-left: auto; }
.header-nav ul { list-style: none; display: flex; gap: 14px; margin: 0; padding: 0; flex-wrap: wrap; }
.header-nav a { color: #fff; }
.flights-shell { display: grid; grid-template-columns: 190px minmax(0, 1fr); gap: 22px; }
.side-nav ul { list-style: none; margin: 0; padding: 10px; display: flex; flex-direction: column; gap: 10px; background: #fff; border: 1px solid #dde1e7; border-radius: 6px; }
.flights-box { margin: 14px 0; }
.promo { background: #fff8e6; border: 1px solid #e3c67a; border-radius: 6px; padding: 8px 12px; }
.tips { background: #fff; border: 1px dashed #8a94a6; border-radius: 6px; padding: 8px 12px; }
.results-side { display: grid; grid-template-columns: 200px minmax(0, 1fr); gap: 18px; align-items: start; }
.results-side .filters[aria-label="Sort and filter"] { flex-direction: column; align-items: stretch; }
.flights-table { border-collapse: collapse; width: 100%; background: #fff; }
.flights-table th, .flights-table td { border-bottom: 1px solid #dde1e7; padding: 6px 8px; text-align: left; }
.flights-table td.money { text-align: right; font-weight: 700; }
.flight-lines { list-style: none; padding: 0; }
.flight-lines li { display: flex; justify-content: space-between; align-items: center; gap: 10px; padding: 6px 0; border-bottom: 1px solid #eef0f3; }
`;
