import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import type { Checkpoint } from '../engine'

/** What the helper needs of a service to stack frames on it. */
export interface Framed {
  checkpoint(): Promise<Checkpoint>
  restore(id: string): Promise<void>
}

interface SuiteLike {
  type: string
  name: string
  tasks?: SuiteLike[]
}
type Hook = (...args: unknown[]) => unknown
type GetHooks = (suite: SuiteLike) => { beforeAll: Hook[]; afterAll: Hook[] } | undefined

/**
 * Vitest's own hook lists of a suite, from the `@vitest/runner` Vitest itself loaded (resolved
 * from Vitest's package, so the same module). `undefined` if this Vitest does not have them.
 */
async function runnerHooks(): Promise<GetHooks | undefined> {
  try {
    const vitest = createRequire(import.meta.url).resolve('vitest')
    const runner = createRequire(vitest).resolve('@vitest/runner')
    const loaded = (await import(pathToFileURL(runner).href)) as { getHooks?: GetHooks }
    return loaded.getHooks
  } catch {
    return undefined
  }
}

/**
 * Gives every `describe` block of the file a frame: a checkpoint before its own `beforeAll`
 * hooks run, restored after its own `afterAll` hooks, so what the block's setup wrote is there
 * for its tests and gone after the block. The file's own frame is the service itself (it starts
 * with the file, and stops or is removed after it).
 */
export async function frameDescribeBlocks(
  file: SuiteLike,
  service: () => Promise<Framed>,
): Promise<void> {
  const getHooks = await runnerHooks()
  if (!getHooks) {
    throw new Error(
      'useService: this Vitest does not let the helper give describe blocks frames of their own; use Vitest 4.1 or later',
    )
  }
  const visit = (suite: SuiteLike) => {
    for (const child of suite.tasks ?? []) {
      if (child.type !== 'suite') continue
      const hooks = getHooks(child)
      if (hooks) {
        let frame: Checkpoint | undefined
        // First in the list: Vitest runs a suite's beforeAll hooks in order, and its afterAll
        // hooks in reverse (`sequence.hooks: 'stack'`, the default), so these wrap the block's own.
        hooks.beforeAll.unshift(async () => {
          frame = await (await service()).checkpoint()
        })
        hooks.afterAll.unshift(async () => {
          if (frame) await (await service()).restore(frame.id)
          frame = undefined
        })
      }
      visit(child)
    }
  }
  visit(file)
}
