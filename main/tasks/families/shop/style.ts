/**
 * The shop's layout variants as CSS. The shared site.css styles the original store (cards, the
 * filter column, the top bar); the rules for the other layouts live with the family, so every page
 * carries this constant block (trusted text, never user data). Each rule hangs off a class the
 * variant puts on <body> or on a container.
 */
export const SHOP_CSS = `
.shop-rust { --accent: #8f4320; }
.shop-ocean { --accent: #1d5f86; }
.shop-slate { --accent: #3d4652; }
.header-nav ul { list-style: none; display: flex; gap: 12px; margin: 0; padding: 0; flex-wrap: wrap; }
.header-nav a { color: #fff; }
.shop-shell { display: grid; grid-template-columns: 180px 1fr; gap: 20px; }
.side-nav ul { list-style: none; margin: 0; padding: 10px; display: flex; flex-direction: column; gap: 10px; background: #fff; border: 1px solid #dde1e7; border-radius: 6px; }
.product-rows { list-style: none; padding: 0; margin: 0; }
.product-rows li { display: flex; gap: 16px; align-items: baseline; padding: 8px 0; border-bottom: 1px solid #eef0f3; }
.product-rows li a { flex: 1; font-weight: 600; }
.product-table { width: 100%; border-collapse: collapse; background: #fff; }
.product-table th, .product-table td { text-align: left; padding: 6px 8px; border-bottom: 1px solid #eef0f3; }
.listing.filters-top { display: block; }
.filters-top .filters { flex-direction: row; flex-wrap: wrap; align-items: flex-end; gap: 8px 12px; margin-bottom: 12px; }
.filters-top .filters button { margin-top: 0; }
.filters .filter { display: flex; flex-direction: column; gap: 2px; }
.promo { background: #fff8e6; border: 1px solid #e3c67a; border-radius: 6px; padding: 8px 12px; margin: 14px 0; }
`;
