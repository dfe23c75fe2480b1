import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import react from '@vitejs/plugin-react'
import type { HtmlTagDescriptor, Plugin, Rolldown } from 'vite'
import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

const APP_WORKER = 'app-worker.js'
const SHELL_PLACEHOLDER = "const APP_SHELL = { version: '', files: [], first: [] }"

/**
 * Writes the built files into the service worker's precache list (`public/app-worker.js`),
 * with a version that changes with them: a new build is then a new worker, which the browser
 * installs, and the old cache goes on activate. `first` names the scripts the first screen
 * runs (the page's own, its service, its home view and what they import): a first visit caches
 * those at install, where Chromium compiles them ahead for the next visit, and the rest once
 * the engine answers (decision 062). The dev server serves the worker unchanged.
 */
function appShell(): Plugin {
  let publicDir = ''
  return {
    name: 'app-shell',
    apply: 'build',
    configResolved(config) {
      publicDir = config.publicDir
    },
    generateBundle(_options, bundle) {
      const built = Object.keys(bundle).filter((name) => !/\.(html|map)$/.test(name))
      const files = ['/', ...built.sort().map((name) => `/${name}`)]
      const version = createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 16)
      const source = readFileSync(join(publicDir, APP_WORKER), 'utf8')
      if (!source.includes(SHELL_PLACEHOLDER)) {
        this.error(`${APP_WORKER} no longer holds the line ${SHELL_PLACEHOLDER}`)
      }
      const first = [...firstScreenChunks(bundle, true)].sort().map((name) => `/${name}`)
      const shell = `const APP_SHELL = ${JSON.stringify({ version, files, first })}`
      // Emitted over the copy of the public folder, which Vite writes first.
      this.emitFile({
        type: 'asset',
        fileName: APP_WORKER,
        source: source.replace(SHELL_PLACEHOLDER, shell),
      })
    },
  }
}

/** The modules the first screen waits for besides the page's own: its service and its view. */
const FIRST_SCREEN = ['src/msw/playground.ts', 'src/ui/account/secrets-view.tsx']

type Bundle = Rolldown.OutputBundle

/**
 * The chunks of the first screen's modules and of what they import; with `entries`, the page's
 * own script and what it imports too.
 */
function firstScreenChunks(bundle: Bundle, entries: boolean): Set<string> {
  const wanted = new Set<string>()
  const add = (fileName: string) => {
    const chunk = bundle[fileName]
    if (wanted.has(fileName) || chunk?.type !== 'chunk') return
    wanted.add(fileName)
    chunk.imports.forEach(add)
  }
  for (const chunk of Object.values(bundle)) {
    if (chunk.type !== 'chunk') continue
    const entry = chunk.facadeModuleId
    if (
      (entries && chunk.isEntry) ||
      (entry && FIRST_SCREEN.some((path) => entry.endsWith(path)))
    ) {
      add(chunk.fileName)
    }
  }
  return wanted
}

/**
 * Lets the browser fetch the first screen's chunks from the start, beside the page's own
 * script, instead of once that script has run and asked for them (`<link rel="modulepreload">`
 * for the page's service, the home view, and what they import).
 */
function firstScreen(): Plugin {
  return {
    name: 'first-screen',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return []
        const wanted = firstScreenChunks(bundle, false)
        if (wanted.size < FIRST_SCREEN.length) {
          this.error(`first-screen: not every one of ${FIRST_SCREEN.join(', ')} is a chunk`)
        }
        // What the page's own script imports is linked already.
        return [...wanted]
          .filter((fileName) => !html.includes(fileName))
          .map((fileName): HtmlTagDescriptor => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${fileName}` },
            injectTo: 'head',
          }))
      },
    },
  }
}

/**
 * Vitest's order (its cache's slowest first, else the largest files, project by project by
 * name), with the `pack` project's file moved to the front: it takes minutes (it packs, installs
 * into fresh projects, runs the README's examples and the client suite there), mostly waiting on
 * the processes it starts, and the rest of the suite runs beside it instead of before it.
 */
class PackFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const isPack = (file: TestSpecification) => file.project.name === 'pack'
    return [...sorted.filter(isPack), ...sorted.filter((file) => !isPack(file))]
  }
}

/**
 * The engine's test files that run once, isolated, in `node`, and in none of the unisolated
 * engine projects: the fence reads the sources, the composer language uses no transport or
 * store, and `*.node.test.ts` make engines of their own in Node.
 */
const ENGINE_ISOLATED = [
  'src/engine/fence.test.ts',
  'src/engine/lang/rb/**/*.test.ts',
  'src/**/*.node.test.ts',
]

export default defineConfig({
  plugins: [react(), appShell(), firstScreen()],
  server: { port: 5173, strictPort: false },
  preview: { port: 4173, strictPort: true },
  build: {
    rolldownOptions: {
      output: {
        // The page's own modules (what its script imports, and what they import) in one chunk,
        // not in the shared chunks the views' would otherwise cut them into: the first screen
        // asks for a dozen files instead of twenty (decision 116).
        codeSplitting: { groups: [{ name: 'page', tags: ['$initial'] }] },
      },
    },
  },
  test: {
    // Two files at a time even on two cores (the default there is one): most of the suite
    // waits on processes, sockets and timers.
    maxWorkers: 2,
    // Three times what the slowest tests without a timeout of their own take beside another
    // file on two cores (about 5 s): Vitest's 5 s and 10 s defaults are within 2x of them.
    testTimeout: 15_000,
    hookTimeout: 30_000,
    // The packed kit's file first, so that it runs beside the rest instead of after it.
    sequence: { sequencer: PackFirstSequencer },
    // The commands append to the job's summary when it is set: not the suite's own job's.
    env: { GITHUB_STEP_SUMMARY: '' },
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          // Outside the engine, and the engine's files that stay isolated.
          include: ['src/!(engine)/**/*.test.ts', 'src/*.test.ts', ...ENGINE_ISOLATED],
          exclude: ['src/ui/**', 'src/**/pg-*.test.ts', 'src/kit/pack.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          // The engine's suites, one module graph per worker as in `fetch` and `idb`: the engine
          // is pure (no globals, servers or processes of its own) and every harness makes its own
          // engine and store.
          name: 'engine',
          environment: 'node',
          include: ['src/engine/**/*.test.ts'],
          exclude: ENGINE_ISOLATED,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // The packed kit, beside the rest: it packs from a copy of the checkout
          // (src/testing/pack-copy.ts), so no test here sees the packed manifest.
          name: 'pack',
          environment: 'node',
          include: ['src/kit/pack.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          environment: 'node',
          include: [
            'src/**/pg-*.test.ts',
            // Run again with their accounts in PostgreSQL (src/testing/pg-harness.setup.ts).
            'src/engine/operator/*.test.ts',
            'src/engine/rate-window.test.ts',
            'src/engine/account/{account,usage}.test.ts',
          ],
          globalSetup: ['src/testing/postgres-cluster.setup.ts'],
          setupFiles: ['src/testing/pg-harness.setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'fetch',
          environment: 'node',
          include: ['src/engine/**/*.test.ts'],
          // One module graph per worker: each file imported the whole engine, msw and its setup
          // again, more than half of these files' time. The setup file still runs per file, and
          // every harness makes its own engine and store (src/testing/engine-harness.ts).
          isolate: false,
          exclude: ENGINE_ISOLATED,
          setupFiles: ['src/testing/fetch-transport.setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'idb',
          environment: 'node',
          include: ['src/engine/**/*.test.ts'],
          // As in `fetch`: every harness opens a database of its own in a factory of its own.
          isolate: false,
          exclude: ENGINE_ISOLATED,
          setupFiles: ['src/testing/idb-harness.setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['src/ui/**/*.test.{ts,tsx}'],
          setupFiles: ['src/testing/dom.setup.ts'],
        },
      },
    ],
  },
})
