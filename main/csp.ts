/**
 * The Content-Security-Policies of the workbench's own pages, used by both shells: the Electron app
 * (main/app/) and web mode (main/server/web.ts). They live outside app/ so the server never loads
 * the Electron side. Held by test/app/policy.test.ts.
 */

/** Content-Security-Policy of the app's own UI: only its bundled code, no remote or inline script. */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'", // Svelte components set style attributes
  "img-src 'self' data: blob:",
  "connect-src 'self' ws://127.0.0.1:*",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-src 'none'",
  "form-action 'none'",
].join('; ');

/**
 * The app's CSP in web mode: its API socket is at the app's own host name (main/server/web-auth.ts),
 * and nowhere else on 127.0.0.1.
 */
export function webAppCsp(appHost: string): string {
  return APP_CSP.replace("connect-src 'self' ws://127.0.0.1:*", `connect-src 'self' ws://${appHost}`);
}

/** An experiment's report.html: its own inline styles and SVG, nothing fetched, no script, no forms, sandboxed. */
export const REPORT_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src data:',
  'sandbox',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
