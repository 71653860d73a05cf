/**
 * The bank's layout variants as CSS. The shared site.css has no bank rules, and this family keeps
 * to its own folder, so every page carries this constant block (trusted text, never user data).
 * Each rule hangs off a class the variant puts on <body> or on a container.
 */
export const BANK_CSS = `
.theme-bank { --accent: #0f5c6e; }
.bank-navy { --accent: #1c2f5e; }
.bank-plum { --accent: #5b2a6e; }
.bank-forest { --accent: #23533a; }
.site-header .me { margin-left: auto; color: #fff; font-size: 13px; }
.header-nav ul { list-style: none; display: flex; gap: 14px; margin: 0; padding: 0; flex-wrap: wrap; }
.header-nav a { color: #fff; }
.bank-shell { display: grid; grid-template-columns: 200px 1fr; gap: 22px; }
.side-nav ul { list-style: none; margin: 0; padding: 10px; display: flex; flex-direction: column; gap: 10px; background: #fff; border: 1px solid #dde1e7; border-radius: 6px; }
.bank-section { margin: 14px 0; }
.accounts-cards { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 12px; }
.accounts-cards li { background: #fff; border: 1px solid #dde1e7; border-left: 4px solid var(--accent); border-radius: 6px; padding: 10px; }
.accounts-list { list-style: none; padding: 0; }
.accounts-list li { display: flex; justify-content: space-between; max-width: 520px; padding: 6px 0; border-bottom: 1px solid #eef0f3; }
.activity-filters { display: flex; flex-wrap: wrap; gap: 10px; align-items: flex-end; background: #fff; border: 1px solid #dde1e7; border-radius: 6px; padding: 10px; }
.activity-filters .field { margin: 0; }
.activity-filters input[type=search] { font: inherit; padding: 5px 7px; border: 1px solid #8a94a6; border-radius: 4px; }
td.money, th.money { text-align: right; }
.money-in { color: #1e6b34; }
.promo { background: #fff8e6; border: 1px solid #e3c67a; border-radius: 6px; padding: 8px 12px; }
.quick-pay { background: #fff; border: 1px dashed #8a94a6; border-radius: 6px; padding: 8px 12px; }
`;
