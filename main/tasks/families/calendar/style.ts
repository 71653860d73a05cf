/**
 * The calendar's layout variants as CSS. The shared site.css holds only the original calendar
 * rules, and this family keeps to its own folder, so every page carries this constant block
 * (trusted text, never user data). Each rule hangs off a class the variant puts on <body> or on a
 * container.
 */
export const CAL_CSS = `
.cal-blue { --accent: #1f4e8c; }
.cal-berry { --accent: #7a2650; }
.cal-slate { --accent: #3d4a5c; }
.header-nav ul { list-style: none; display: flex; gap: 14px; margin: 0; padding: 0; flex-wrap: wrap; }
.header-nav a { color: #fff; }
.cal-shell { display: grid; grid-template-columns: 190px 1fr; gap: 22px; }
.side-nav ul { list-style: none; margin: 0; padding: 10px; display: flex; flex-direction: column; gap: 10px; background: #fff; border: 1px solid #dde1e7; border-radius: 6px; }
.month-list { list-style: none; padding: 0; }
.month-list > li { background: #fff; border-bottom: 1px solid #eef0f3; padding: 6px 8px; }
.month-list h2 { font-size: 14px; margin: 0; }
.month-cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 8px; }
.month-cards .day-card { background: #fff; border: 1px solid #dde1e7; border-top: 3px solid var(--accent); border-radius: 6px; padding: 6px; font-size: 12px; min-height: 70px; }
.month-cards .daynum, .month-list .daynum { font-weight: 700; }
.agenda-cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 10px; list-style: none; padding: 0; }
.agenda-cards h2 { font-size: 16px; margin: 0 0 4px; }
.agenda-cards li { background: #fff; border: 1px solid #dde1e7; border-left: 4px solid var(--accent); border-radius: 6px; padding: 10px; }
/* Title first, the time would be cut off at a narrow grid cell's end: wrap instead. */
.cal-titleFirst .cal-events a { white-space: normal; }
.cal-box { background: #fff8e6; border: 1px solid #e3c67a; border-radius: 6px; padding: 8px 12px; margin: 12px 0; }
.event .headers { display: grid; grid-template-columns: 100px 1fr; margin: 6px 0; }
.event .headers dt { color: #5b6475; }
.event .headers dd { margin: 0; }
`;
