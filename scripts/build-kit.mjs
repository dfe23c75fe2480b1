// Builds the kit that `npm pack` ships: the TypeScript entry points bundled into plain ES
// modules under kit/ (every package stays an import), and the conformance cases beside them.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { build } from 'esbuild'

rmSync('kit', { recursive: true, force: true })
await build({
  entryPoints: {
    index: 'src/kit/index.ts',
    vitest: 'src/kit/vitest.ts',
    playwright: 'src/kit/playwright.ts',
    cli: 'src/kit/cli.ts',
  },
  outdir: 'kit',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
})
// The command runs as an executable of its own.
const cli = readFileSync('kit/cli.js', 'utf8')
writeFileSync('kit/cli.js', `#!/usr/bin/env node\n${cli}`)
cpSync('conformance/cases', 'kit/cases', { recursive: true })
