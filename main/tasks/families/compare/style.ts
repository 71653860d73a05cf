/**
 * The compare sites' layout variants as CSS. The shared site.css styles only the original layout,
 * and this family keeps to its own folder, so every page carries this constant block (trusted text,
 * never user data). Each rule hangs off a class the variant puts on <body> or on a container.
 */
export const COMPARE_CSS = `
.store-rust { --accent: #b5532a; }
.store-teal { --accent: #1d6f8a; }
.store-olive { --accent: #5a6b1f; }
.store-indigo { --accent: #3b3f8f; }
.store-berry { --accent: #8a2352; }
.header-nav ul { list-style: none; display: flex; gap: 14px; margin: 0 0 0 auto; padding: 0; flex-wrap: wrap; }
.header-nav a { color: #fff; }
.store-shell { display: grid; grid-template-columns: 190px 1fr; gap: 22px; }
.side-nav ul { list-style: none; margin: 0; padding: 10px; display: flex; flex-direction: column; gap: 10px; background: #fff; border: 1px solid #dde1e7; border-radius: 6px; }
.store-section { margin: 14px 0; }
.product-list { list-style: none; padding: 0; background: #fff; border: 1px solid #dde1e7; border-radius: 6px; }
.product-list li { display: grid; grid-template-columns: 1fr 110px 150px; gap: 10px; padding: 8px 10px; border-bottom: 1px solid #eef0f3; }
.product-list li p { margin: 0; }
.promo { background: #fff8e6; border: 1px solid #e3c67a; border-radius: 6px; padding: 8px 12px; }
.bookmarks { list-style: none; padding: 0; }
.bookmarks li { margin: 8px 0; }
.facts th[scope=row] { text-align: left; width: 160px; }
`;
