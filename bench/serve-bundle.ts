import { join } from 'node:path'
import { build } from 'esbuild'

/**
 * Bundles `serve` as a user runs it in production (tsx wraps every function for its names),
 * under node_modules so that better-sqlite3 and pg resolve from there; the bundle's path.
 */
export async function bundleServe(name: string): Promise<string> {
  const bundle = join('node_modules', '.cache', name, 'serve.mjs')
  await build({
    entryPoints: ['src/cli/serve/serve.ts'],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3', 'pg'],
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  })
  return bundle
}
