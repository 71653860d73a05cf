/**
 * The webmail's layout variants as CSS. The shared site.css styles only the original layout, and
 * this family keeps to its own folder, so every page carries this constant block (trusted text,
 * never user data). Each rule hangs off a class the variant puts on <body> or on a container.
 */
export const MAIL_CSS = `
.mail-violet { --accent: #5a3d8a; }
.mail-blue { --accent: #1f4e8c; }
.mail-teal { --accent: #0f6b6b; }
.mail-rust { --accent: #8a3d1f; }
.mail-nav { display: flex; gap: 14px; align-items: center; flex-wrap: wrap; }
.mail-nav p { margin: 0; }
.mail-nav ul { list-style: none; margin: 0; padding: 0; display: flex; gap: 16px; flex-wrap: wrap; }
.mail-nav-header .site-header { flex-wrap: wrap; }
.header-nav a:not(.button) { color: #fff; }
.mail-shell { display: grid; grid-template-columns: 190px 1fr; gap: 20px; align-items: start; }
.side-nav { background: #fff; border: 1px solid #dde1e7; border-radius: 6px; padding: 10px; }
.side-nav .mail-nav { flex-direction: column; align-items: stretch; }
.side-nav .mail-nav ul { flex-direction: column; gap: 8px; }
.mail-table { border-collapse: collapse; width: 100%; background: #fff; }
.mail-table th, .mail-table td { border-bottom: 1px solid #dde1e7; padding: 6px 8px; text-align: left; vertical-align: top; }
.mail-table tr.unread a, .mail-card.unread a { font-weight: 700; }
.mail-table .star, .mail-card .star { border: 0; background: none; font-size: 18px; color: #d4a017; padding: 0; }
.mail-cards { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 12px; }
.mail-card { background: #fff; border: 1px solid #dde1e7; border-left: 4px solid var(--accent); border-radius: 6px; padding: 8px 10px; }
.mail-card a { display: block; }
.mail-card p { margin: 4px 0; }
.mail-table td.date { white-space: nowrap; }
.message .headers { grid-template-columns: max-content 1fr; column-gap: 12px; }
.mail-box { background: #fff8e6; border: 1px solid #e3c67a; border-radius: 6px; padding: 8px 12px; margin: 10px 0; }
.mail-box p { margin: 4px 0; }
`;
