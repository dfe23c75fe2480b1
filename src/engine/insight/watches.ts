import { update } from '../account/update'
import { prefixed } from '../auth/random'
import { InvalidError, UndefinedError } from '../errors'
import type { Json } from '../store'
import { momentOf, type InsightContext, type InsightRun } from './context'
import { catalogue, entryNamed, stopsOf } from './reach'
import { simulate } from './simulate'
import type { SimulateCall, TokenSummary, WatchesReport, WatchReport } from './types'
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
        // A token this account does not know (an export brought from another account) says
        // nothing of what the account lets in: such a watch never holds, and its reason says why.
        holds: result.decision === watch.expect && !isStranger(simulated.token),
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

/** A token this account never made: not one of its keys, nor an authorization it signed. */
const isStranger = (subject: TokenSummary): boolean =>
  subject.kind === 'unknown' || subject.reason === 'secret_unknown'

/** What a call that is not one is answered with, whatever its token: 400, 404 or 413. */
const NOT_A_CALL = new Set([400, 404, 413])

/**
 * Refuses a watch that could never say anything about its token: an endpoint the account does
 * not have (404, with what its package holds), a token this account never made (400, with the
 * engine's reason: a dead one is taken, since "the leaked token cannot call it" is worth
 * watching), or a call the endpoint would refuse as a request whatever the token (400: a key
 * that is not one, a missing argument, a body that does not parse). A watched token the engine
 * refuses before it reads the call has the call checked with a live secret instead, which no
 * ability stops; simulated both times, so nothing is written.
 */
async function checkPinnable(
  ctx: InsightContext,
  token: string,
  call: SimulateCall,
  now: number,
  run: InsightRun,
): Promise<void> {
  entryNamed(ctx, await catalogue(ctx), call.endpoint)
  const watched = await simulate(ctx, token, [call], now, run)
  const subject = watched.token
  if (isStranger(subject)) {
    throw new InvalidError(
      `a watch's token must be one this account made, a secret key or an authorization, live or dead; this one is not: ${subject.explanation}`,
    )
  }
  let result = watched.results[0]!
  if (subject.state !== 'usable') {
    const live = (await ctx.account.listSecrets()).find((secret) => secret.state !== 'expired')
    if (live) result = (await simulate(ctx, live.key, [call], now, run)).results[0]!
  }
  if (NOT_A_CALL.has(result.status)) {
    throw new InvalidError(
      `a watch's call must be one \`${call.endpoint}' accepts, whatever the token; it is answered ${result.status}: ${result.message ?? result.explanation}`,
    )
  }
}

/**
 * Pins a watch: `body` is `{token, call, expect, label?}`; answers every watch, asked again.
 * What could never be one is refused first (`checkPinnable`), with what is wrong.
 */
export async function addWatch(
  ctx: InsightContext,
  body: Record<string, Json>,
  run: InsightRun = {},
): Promise<WatchesReport> {
  const problem = watchProblem(body, false)
  if (problem) throw new InvalidError(`a watch's ${problem}`)
  const now = await ctx.account.now()
  await checkPinnable(
    ctx,
    (body.token as string).trim(),
    body.call as unknown as SimulateCall,
    now,
    run,
  )
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
