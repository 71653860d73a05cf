// js-yaml comes with electron-builder (a dev dependency) and has no types installed; the tests
// use it only to read back the YAML the exports write.
declare module 'js-yaml' {
  export function load(text: string, options?: { filename?: string }): unknown;
}
