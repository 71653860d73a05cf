/**
 * The job board's layout variants as CSS. The shared site.css knows only the original board, and
 * this family keeps to its own folder, so every page carries this constant block (trusted text,
 * never user data). Each rule hangs off a class the variant puts on <body> or on a container.
 */
export const JOBS_CSS = `
.jobs-teal { --accent: #0f6670; }
.jobs-plum { --accent: #5b2a6e; }
.jobs-rust { --accent: #8a3b12; }
.header-nav ul { list-style: none; display: flex; gap: 14px; margin: 0; padding: 0; flex-wrap: wrap; }
.header-nav a { color: #fff; }
.jobs-shell { display: grid; grid-template-columns: 180px 1fr; gap: 22px; }
.side-nav ul { list-style: none; margin: 0; padding: 10px; display: flex; flex-direction: column; gap: 10px; background: #fff; border: 1px solid #dde1e7; border-radius: 6px; }
.filters .filter { display: flex; flex-direction: column; gap: 4px; }
.listing-top { display: block; }
.listing-top .filters { flex-direction: row; flex-wrap: wrap; align-items: flex-end; gap: 12px; margin-bottom: 12px; }
.listing-top .filters button { margin-top: 0; }
.job-list { list-style: none; padding: 0; }
.job-list li { display: flex; flex-direction: column; gap: 2px; padding: 8px 0; border-bottom: 1px solid #eef0f3; }
.job-table td, .job-table th { font-size: 14px; }
.promo { background: #fff8e6; border: 1px solid #e3c67a; border-radius: 6px; padding: 8px 12px; margin: 14px 0; }
`;
