// Builds the kit that `npm pack` ships (and a git-URL install builds through `prepare`): the
// TypeScript entry points bundled by esbuild into ES modules under kit/ (every package left as
// an import), CommonJS builds of the Node API and the Playwright fixture beside them, type
// declarations from tsc, and the conformance cases.
//
// `--pack` (npm's `prepack`) builds, then writes the manifest the tarball carries in place of
// this checkout's: not `private` (that guards this repository from a publish, not the kit's
// users), without the scripts that build from sources the tarball does not hold. `--unpack`
// (`postpack`) puts this checkout's manifest back.
import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  cpSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import { createRequire } from 'node:module'
import { build } from 'esbuild'

const require = createRequire(import.meta.url)
/** Where this checkout's own manifest waits while `npm pack` reads the packed one. */
const KEPT_MANIFEST = '.package.json.packing'

if (process.argv.includes('--unpack')) {
  if (existsSync(KEPT_MANIFEST)) renameSync(KEPT_MANIFEST, 'package.json')
  process.exit(0)
}
// A pack that failed before its postpack left the checkout's manifest aside: take it back first.
if (existsSync(KEPT_MANIFEST)) renameSync(KEPT_MANIFEST, 'package.json')
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
    engine: 'src/kit/engine.ts',
    vitest: 'src/kit/vitest.ts',
    playwright: 'src/kit/playwright.ts',
    jest: 'src/kit/jest.ts',
  },
  outdir: 'kit',
  format: 'esm',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
})
// One file, so that what it finds beside itself (the cases) is beside `kit/cli.js`.
await build({ ...shared, entryPoints: { cli: 'src/cli/bin.ts' }, outdir: 'kit', format: 'esm' })
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
  entryPoints: {
    index: 'src/kit/index.ts',
    engine: 'src/kit/engine.ts',
    playwright: 'src/kit/playwright.ts',
    jest: 'src/kit/jest.ts',
  },
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
declarationsForEveryResolution('kit/types')
cpSync('conformance/cases', 'kit/cases', { recursive: true })
if (process.argv.includes('--pack')) packedManifest()

/**
 * The manifest a client's project installs: this one without `private`, the scripts, the
 * development dependencies and this checkout's msw settings. npm runs `postpack` as it read it
 * before `prepack`.
 */
function packedManifest() {
  const text = readFileSync('package.json', 'utf8')
  const {
    private: _private,
    scripts: _scripts,
    devDependencies: _dev,
    msw: _msw,
    ...packed
  } = JSON.parse(text)
  writeFileSync(KEPT_MANIFEST, text)
  writeFileSync('package.json', `${JSON.stringify(packed, null, 2)}\n`)
}

/**
 * tsc writes relative imports in declarations as the sources have them, without extensions:
 * fine under `moduleResolution: bundler`, unresolvable under `node16`/`nodenext`, where every
 * type the kit exports then silently becomes `any`. Each `.d.ts` gets full paths (`./x.js`,
 * `./x/index.js`), and a `.d.cts` twin with `.cjs` paths for CommonJS consumers (the package
 * is `"type": "module"`, so a `.d.ts` reads as an ES module).
 */
function declarationsForEveryResolution(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue
    const file = join(entry.parentPath, entry.name)
    const text = readFileSync(file, 'utf8').replaceAll('"playwright/test"', '"@playwright/test"')
    const rewrite = (extension) =>
      text.replace(
        /(from\s+|import\s*\(\s*|import\s+)(['"])(\.{1,2}\/[^'"]*|\.{1,2})\2/g,
        (_whole, lead, quote, specifier) => {
          const base = join(dirname(file), specifier)
          const path = existsSync(`${base}.d.ts`)
            ? `${specifier}.${extension}`
            : existsSync(join(base, 'index.d.ts'))
              ? `${specifier.replace(/\/$/, '')}/index.${extension}`
              : undefined
          if (!path) throw new Error(`${file}: cannot resolve ${specifier}`)
          return `${lead}${quote}${path}${quote}`
        },
      )
    writeFileSync(file, rewrite('js'))
    // msw's own types are ES modules that CommonJS under node16 cannot load: read them as such.
    const cjs = rewrite('cjs').replace(
      /^import (type )?\{ ?(type )?([^}]*)\} from '(msw(?:\/node)?)';$/gm,
      (_whole, _type, _inner, names, specifier) =>
        `import type { ${names.trim()} } from '${specifier}' with { 'resolution-mode': 'import' };`,
    )
    writeFileSync(file.replace(/\.d\.ts$/, '.d.cts'), cjs)
  }
}
