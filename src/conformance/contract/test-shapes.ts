// What differs between the runners an exported test is written for: its imports, how it gets
// the service, how its starting state and its test are wrapped. The steps are the same for all.

/** The runners a session can be written for. */
export const TEST_RUNNERS = ['vitest', 'jest', 'playwright'] as const
export type TestRunner = (typeof TEST_RUNNERS)[number]

/** Where the written test's service runs: in the test's own process, or on a running `serve`. */
export const TEST_TARGETS = ['in-process', 'serve'] as const
export type TestTarget = (typeof TEST_TARGETS)[number]

/** The parts of a test the shapes wrap: each a list of lines, not yet indented. */
export interface TestParts {
  name: string
  serviceName: string
  baseUrl: string
  /** Variables the starting state binds and the test reads: declared in the file. */
  shared: string[]
  /** The starting state: the calls made before the chosen exchanges, run before the test. */
  fixture: string[]
  /** The test's own steps, its `toHaveReceived` checks last. */
  body: string[]
}

const quote = (value: unknown) => JSON.stringify(value)

const indent = (lines: readonly string[]) =>
  lines
    .map((line) => (line === '' ? '' : `  ${line}`))
    .filter((line, i, all) => line !== '' || (i > 0 && all[i - 1] !== ''))

/** The `serve` the test opens its account on, read from the environment `serve` is named in. */
const SERVE_FROM_ENVIRONMENT = [
  '// The running `serve` the test opens its account on, as `npx service-playground serve` printed it.',
  'const url = process.env.SERVICE_PLAYGROUND_URL',
  'const controlToken = process.env.SERVICE_PLAYGROUND_CONTROL_TOKEN',
  'if (!url || !controlToken) {',
  "  throw new Error('Set SERVICE_PLAYGROUND_URL and SERVICE_PLAYGROUND_CONTROL_TOKEN to the URL and control token `npx service-playground serve` printed')",
  '}',
]

/** `useService`'s options, for Vitest and Jest. */
function useServiceOptions(parts: TestParts, target: TestTarget): string {
  return target === 'serve'
    ? `{ serve: { url, controlToken }, serviceName: ${quote(parts.serviceName)} }`
    : `{ baseUrl: ${quote(parts.baseUrl)}, serviceName: ${quote(parts.serviceName)} }`
}

/** The file for `runner`, with its service in process or on `serve`. */
export function shapeTest(parts: TestParts, runner: TestRunner, target: TestTarget): string {
  const serve = target === 'serve' ? [...SERVE_FROM_ENVIRONMENT, ''] : []
  const shared = parts.shared.length ? [...parts.shared.map((name) => `let ${name} = ''`)] : []
  const lines: string[] = []
  if (runner === 'playwright') {
    // Every call through `fetch` from the test: the worker's service answers it, in this
    // process (through msw) or as the worker's account on `serve`; each test is undone after.
    const options =
      target === 'serve'
        ? `{ serveTarget: { url, controlToken }, workerServiceOptions: { serviceName: ${quote(parts.serviceName)} } }`
        : `{ workerServiceOptions: { baseUrl: ${quote(parts.baseUrl)}, serviceName: ${quote(parts.serviceName)} } }`
    lines.push(
      "import { expect, test } from 'service-playground/playwright'",
      '',
      ...serve,
      `test.use(${options})`,
      '',
    )
    if (parts.fixture.length) {
      lines.push(
        ...shared,
        '// The account as it was before the chosen exchanges, made again before the test.',
        'test.beforeEach(async ({ service }) => {',
        ...indent(parts.fixture),
        '})',
        '',
      )
    }
    lines.push(`test(${quote(parts.name)}, async ({ service }) => {`, ...indent(parts.body), '})')
  } else {
    const globals = ['expect', 'it', ...(parts.fixture.length ? ['beforeEach'] : [])].sort()
    lines.push(
      ...(runner === 'vitest'
        ? [
            `import { ${globals.join(', ')} } from 'vitest'`,
            "import { useService } from 'service-playground/vitest'",
          ]
        : // CommonJS, as a Jest project runs with no transform of its own; Jest's globals.
          ["const { useService } = require('service-playground/jest')"]),
      '',
      ...serve,
      `const service = useService(${useServiceOptions(parts, target)})`,
      '',
    )
    if (parts.fixture.length) {
      lines.push(
        ...shared,
        '// The account as it was before the chosen exchanges, made again before the test.',
        'beforeEach(async () => {',
        ...indent(parts.fixture),
        '})',
        '',
      )
    }
    lines.push(`it(${quote(parts.name)}, async () => {`, ...indent(parts.body), '})')
  }
  return `${lines.join('\n')}\n`
}

/** The file name a test for `runner` and `target` is saved under, as its runner finds it. */
export function testFileName(stem: string, runner: TestRunner, target: TestTarget): string {
  const over = target === 'serve' ? '.serve' : ''
  return runner === 'playwright'
    ? `${stem}${over}.spec.js`
    : runner === 'jest'
      ? `${stem}${over}.test.cjs`
      : `${stem}${over}.test.js`
}
