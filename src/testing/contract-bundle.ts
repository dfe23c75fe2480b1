import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

let bundle: Promise<string> | undefined

/**
 * The contract code (`src/conformance/browser.ts`) bundled for a page, as `window.contracts`:
 * one script, built once per process, for the browser tests that run cases in the page and the
 * test that checks the bundle reaches nothing of Node.
 */
export function contractBundle(): Promise<string> {
  bundle ??= build({
    entryPoints: [fileURLToPath(new URL('../conformance/browser.ts', import.meta.url))],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: 'contracts',
    write: false,
    logLevel: 'silent',
  }).then((built) => built.outputFiles[0]!.text)
  return bundle
}
