/** Seconds as people read a run's length: "40 s", "12 min", "2 h 05 min" (the CLI and the app say it alike). */
export function formatDuration(s: number): string {
  if (s < 59.5) return `${Math.round(s)} s`;
  const min = Math.round(s / 60);
  return min < 60 ? `${min} min` : `${Math.floor(min / 60)} h ${String(min % 60).padStart(2, '0')} min`;
}
