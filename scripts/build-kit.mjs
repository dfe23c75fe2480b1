// Builds the kit that `npm pack` ships (and a git-URL install builds through `prepare`): the
// TypeScript entry points bundled by esbuild into ES modules under kit/ (every package left as
// an import), CommonJS builds of the Node API and the Playwright fixture beside them, type
// declarations from tsc, and the conformance cases.
import { execFileSync } from 'node:child_process'
import { chmodSync, cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { build } from 'esbuild'

const require = createRequire(import.meta.url)
const shared = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
}

rmSync('kit', { recursive: true, force: true })
await build({
  ...shared,
  entryPoints: {
    index: 'src/kit/index.ts',
    vitest: 'src/kit/vitest.ts',
    playwright: 'src/kit/playwright.ts',
  },
  outdir: 'kit',
  format: 'esm',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
})
// One file, so that what it finds beside itself (the cases) is beside `kit/cli.js`.
await build({ ...shared, entryPoints: { cli: 'src/kit/cli.ts' }, outdir: 'kit', format: 'esm' })
// CommonJS runners such as Jest cannot load ES-only packages, and msw 2 requires some (rettime,
// until-async): the CommonJS builds carry msw inside them; every other package stays an import.
const pkg = JSON.parse(readFileSync('package.json', 'utf8'))
const imported = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)].filter(
  (name) => name !== 'msw',
)
await build({
  ...shared,
  packages: undefined,
  external: imported,
  entryPoints: { index: 'src/kit/index.ts', playwright: 'src/kit/playwright.ts' },
  outdir: 'kit',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // What `import.meta.url` says in an ES module, said in CommonJS.
  banner: { js: "const __kitUrl = require('node:url').pathToFileURL(__filename).href;" },
  define: { 'import.meta.url': '__kitUrl' },
})
// The command runs as an executable of its own.
const cli = readFileSync('kit/cli.js', 'utf8')
writeFileSync('kit/cli.js', `#!/usr/bin/env node\n${cli}`)
chmodSync('kit/cli.js', 0o755)
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.kit.json'], {
  stdio: 'inherit',
})
cpSync('conformance/cases', 'kit/cases', { recursive: true })
