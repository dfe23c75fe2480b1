/**
 * jest-circus (Jest's runner since Jest 27) as the Jest helper reaches it: its blocks and tests,
 * and its events, the ones a custom environment's `handleTestEvent` receives: each awaited, each
 * where no hook of the user can come before or after it. Jest 30 keeps its handlers on the test
 * file's global; Jest 29 keeps them inside its own copy of its state module, out of a test
 * file's reach, so there the same events are given by hooks placed first and last in the lists
 * its state holds.
 */
export interface CircusTest {
  type: 'test'
  name: string
  concurrent: boolean
  fn?: (this: unknown, ...args: unknown[]) => unknown
  parent: CircusBlock
  errors: unknown[]
}
export interface CircusHook {
  type: 'beforeAll' | 'afterAll' | 'beforeEach' | 'afterEach'
  fn: () => unknown
  parent: CircusBlock
}
export interface CircusBlock {
  type: 'describeBlock'
  name: string
  parent?: CircusBlock
  children: Array<CircusBlock | CircusTest>
  hooks: CircusHook[]
}
export interface CircusEvent {
  name: string
  describeBlock?: CircusBlock
  test?: CircusTest
}
export interface CircusState {
  rootDescribeBlock: CircusBlock
  currentDescribeBlock: CircusBlock
  currentlyRunningTest: CircusTest | null
  unhandledErrors: unknown[]
}
export type Handler = (event: CircusEvent, state: CircusState) => void | Promise<void>

/** The key jest-circus 30 keeps its event handlers under, on the test file's global. */
const EVENT_HANDLERS = Symbol.for('EVENT_HANDLERS')
/** The description of the (unregistered) symbol jest-circus keeps its state under. */
const STATE = 'JEST_STATE_SYMBOL'

export interface Events {
  subscribe(handler: Handler): void
  /**
   * Whether concurrent tests are started before their block's `beforeAll` hooks have run (Jest
   * 29 starts every one of a file at its start): then each also hears `block_ready`, once its
   * block's `beforeAll` hooks are done, and waits for it.
   */
  startEarly: boolean
}

/**
 * How a handler hears jest-circus's events: added to its list (Jest 30), or, where the list is
 * out of reach (Jest 29), given the same events by hooks that stand first and last where each
 * event stands: `undefined` when jest-circus is not running this file.
 */
export function circusEvents(): Events | undefined {
  const global = globalThis as Record<symbol, unknown>
  const handlers = global[EVENT_HANDLERS]
  if (Array.isArray(handlers)) {
    return { subscribe: (handler) => void handlers.push(handler), startEarly: false }
  }
  const key = Object.getOwnPropertySymbols(global).find((symbol) => symbol.description === STATE)
  const state = key && (global[key] as CircusState | undefined)
  if (!state?.rootDescribeBlock) return undefined
  return { subscribe: (handler) => hookEvents(state, handler), startEarly: true }
}

/**
 * The events from hooks (Jest 29): its state's hook lists are read as each block and test
 * runs, and every block and test is defined once the file's first `beforeAll` runs. There,
 * `run_start`; then each block gets a first `beforeAll` (`run_describe_start`), a last one
 * (`block_ready`) and a last `afterAll` (`run_describe_finish`), and the file a first
 * `beforeEach` (`test_started`) and a last `afterEach` (`test_done`); `run_finish` in the file's
 * `afterAll`.
 */
function hookEvents(state: CircusState, handler: Handler): void {
  const { beforeAll, afterAll } = globalThis as unknown as Record<
    'beforeAll' | 'afterAll',
    (fn: () => unknown) => void
  >
  const root = state.rootDescribeBlock
  const start = async () => {
    // A hook as jest-circus made this one, doing something else (its timeout, its stack).
    const template = root.hooks.find((hook) => hook.fn === start)!
    const hook = (type: CircusHook['type'], parent: CircusBlock, fn: () => unknown) => ({
      ...template,
      type,
      parent,
      fn,
    })
    const frame = (block: CircusBlock) => {
      for (const child of block.children) {
        if (child.type !== 'describeBlock') continue
        child.hooks.unshift(
          hook('beforeAll', child, () =>
            handler({ name: 'run_describe_start', describeBlock: child }, state),
          ),
        )
        child.hooks.push(
          hook('beforeAll', child, () =>
            handler({ name: 'block_ready', describeBlock: child }, state),
          ),
          hook('afterAll', child, () =>
            handler({ name: 'run_describe_finish', describeBlock: child }, state),
          ),
        )
        frame(child)
      }
    }
    frame(root)
    root.hooks.unshift(
      hook('beforeEach', root, () =>
        handler({ name: 'test_started', test: state.currentlyRunningTest! }, state),
      ),
    )
    root.hooks.push(
      hook('afterEach', root, () =>
        handler({ name: 'test_done', test: state.currentlyRunningTest! }, state),
      ),
    )
    await handler({ name: 'run_start' }, state)
  }
  beforeAll(start)
  afterAll(() => handler({ name: 'run_finish' }, state))
}

export type Around = (test: CircusTest, run: () => Promise<unknown>) => Promise<unknown>

/**
 * Runs every test's function through `around.concurrent` or `around.serial`, `this` and all (a
 * test taking a `done` callback keeps it).
 */
export function wrapTests(
  block: CircusBlock,
  around: { concurrent: Around; serial: Around },
): void {
  for (const child of block.children) {
    if (child.type === 'describeBlock') {
      wrapTests(child, around)
      continue
    }
    const fn = child.fn
    if (!fn) continue
    const wrap = child.concurrent ? around.concurrent : around.serial
    child.fn =
      fn.length === 0
        ? function (this: unknown) {
            return wrap(child, async () => fn.call(this))
          }
        : function (this: unknown, done: unknown) {
            return wrap(child, async () => fn.call(this, done))
          }
  }
}
