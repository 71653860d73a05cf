/**
 * The hotel site's layout variants as CSS. The shared site.css knows one hotel layout, and this
 * family keeps to its own folder, so every page carries this constant block (trusted text, never
 * user data). Each rule hangs off a class the variant puts on <body> or on a container.
 */
export const HOTELS_CSS = `
.hotels-ocean { --accent: #1f5f8b; }
.hotels-plum { --accent: #6a2c70; }
.hotels-rust { --accent: #9a4a16; }
.header-nav ul { list-style: none; display: flex; gap: 14px; margin: 0 0 0 auto; padding: 0; flex-wrap: wrap; }
.header-nav a { color: #fff; }
.hotels-shell { display: grid; grid-template-columns: 180px 1fr; gap: 20px; }
.side-nav ul { list-style: none; margin: 0; padding: 10px; display: flex; flex-direction: column; gap: 10px; background: #fff; border: 1px solid #dde1e7; border-radius: 6px; }
.filters .filter { display: flex; flex-direction: column; gap: 3px; }
.listing.filters-top { grid-template-columns: 1fr; }
.filters-top .filters { flex-direction: row; flex-wrap: wrap; align-items: flex-end; gap: 12px; }
.filters-top .filters button { margin-top: 0; }
.hotel-rows { list-style: none; padding: 0; }
.hotel-rows li { display: flex; justify-content: space-between; gap: 12px; padding: 8px 0; border-bottom: 1px solid #eef0f3; }
.hotel-rows h3 { font-size: 15px; margin: 0; }
.room-cards { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(230px, 1fr)); gap: 12px; }
.room-cards li { background: #fff; border: 1px solid #dde1e7; border-left: 4px solid var(--accent); border-radius: 6px; padding: 10px; }
.room-cards h3 { font-size: 15px; margin: 4px 0; }
.hotels-promo { background: #fff8e6; border: 1px solid #e3c67a; border-radius: 6px; padding: 8px 12px; margin: 14px 0; }
`;
