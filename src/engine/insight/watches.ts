import { update } from '../account/update'
import { prefixed } from '../auth/random'
import { InvalidError, UndefinedError } from '../errors'
import type { Json } from '../store'
import { momentOf, type InsightContext, type InsightRun } from './context'
import { stopsOf } from './reach'
import { simulate } from './simulate'
import type { WatchesReport, WatchReport } from './types'
import { MAX_WATCHES, readWatches, WATCHES, watchProblem, type Watch } from '../account/watch'

/** The watches the account keeps; what is not a watch (an older engine's meta) is left out. */
async function kept(ctx: InsightContext): Promise<Watch[]> {
  const value = await ctx.settings.store.getMeta(WATCHES)
  if (value === undefined) return []
  try {
    return readWatches(value, (path, problem) => {
      throw new Error(`${path} ${problem}`)
    })
  } catch {
    return Array.isArray(value)
      ? (value.filter((watch) => watchProblem(watch, true) === undefined) as unknown as Watch[])
      : []
  }
}

/**
 * Every watch, asked again of the engine's rules at `at` (now by default): the call simulated
 * with its token, as a real call would meet it, writing nothing; whether that is what the watch
 * expects; and the first moment a watched token stops (its expiry, its secret's roll), when the
 * answers may change without anything else changing. No token is repeated: each is described.
 * The calls take turns as `run` says.
 */
export async function watchesReport(
  ctx: InsightContext,
  at?: number,
  run: InsightRun = {},
): Promise<WatchesReport> {
  const now = await momentOf(ctx, at)
  const watches: WatchReport[] = []
  let changesAt: number | null = null
  for (const watch of await kept(ctx)) {
    let report: WatchReport
    try {
      const simulated = await simulate(ctx, watch.token, [watch.call], now, run)
      const { calls: _calls, ...result } = simulated.results[0]!
      const stops = stopsOf(simulated.token).at
      if (stops !== null && stops > now && (changesAt === null || stops < changesAt)) {
        changesAt = stops
      }
      report = {
        id: watch.id,
        label: watch.label,
        call: watch.call,
        expect: watch.expect,
        createdAt: watch.createdAt,
        subject: simulated.token,
        result,
        holds: result.decision === watch.expect,
      }
    } catch (error) {
      // A call the engine cannot even simulate (its body is not base64, say) fails the watch.
      report = {
        id: watch.id,
        label: watch.label,
        call: watch.call,
        expect: watch.expect,
        createdAt: watch.createdAt,
        subject: null,
        result: {
          endpoint: watch.call.endpoint,
          decision: 'failed',
          status: 400,
          code: 'invalid',
          message: error instanceof Error ? error.message : String(error),
          explanation: error instanceof Error ? error.message : String(error),
        },
        holds: false,
      }
    }
    watches.push(report)
  }
  return {
    at: now,
    watches,
    failing: watches.filter((watch) => !watch.holds).length,
    changesAt,
  }
}

/** Pins a watch: `body` is `{token, call, expect, label?}`; answers every watch, asked again. */
export async function addWatch(
  ctx: InsightContext,
  body: Record<string, Json>,
  run: InsightRun = {},
): Promise<WatchesReport> {
  const problem = watchProblem(body, false)
  if (problem) throw new InvalidError(`a watch's ${problem}`)
  const now = await ctx.account.now()
  const held = await ctx.settings.store.getMeta(WATCHES)
  const count = Array.isArray(held) ? held.length : 0
  const random = ctx.account.randomNow()
  const watch = {
    id: await prefixed('w_', random.bytes('watch-id', `${now}.${count}`, 9)),
    token: (body.token as string).trim(),
    call: body.call,
    expect: body.expect,
    label: typeof body.label === 'string' && body.label.trim() !== '' ? body.label.trim() : null,
    createdAt: now,
  } as unknown as Watch
  await update(ctx.settings.store, async (reader) => {
    const held = (await reader.getMeta(WATCHES)) ?? []
    const list = Array.isArray(held) ? held : []
    if (list.length >= MAX_WATCHES) {
      throw new InvalidError(
        `the account keeps at most ${MAX_WATCHES} watches: remove one (POST /_account/watches/<id>/delete) first`,
        'quota_exceeded',
      )
    }
    return [{ op: 'putMeta', key: WATCHES, value: [...list, watch as unknown as Json] }]
  })
  return watchesReport(ctx, undefined, run)
}

/** Removes the watch `id`; answers the watches left, asked again. A 404 when there is none. */
export async function removeWatch(
  ctx: InsightContext,
  id: string,
  run: InsightRun = {},
): Promise<WatchesReport> {
  let found = false
  await update(ctx.settings.store, async (reader) => {
    const held = await reader.getMeta(WATCHES)
    const list = Array.isArray(held) ? held : []
    const left = list.filter((watch) => (watch as { id?: unknown } | null)?.id !== id)
    found = left.length < list.length
    return found ? [{ op: 'putMeta', key: WATCHES, value: left }] : []
  })
  if (!found) throw new UndefinedError(`no watch \`${id}'`)
  return watchesReport(ctx, undefined, run)
}
