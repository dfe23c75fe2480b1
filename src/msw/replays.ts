import { http, type HttpHandler } from 'msw'
import type { Engine } from '../engine'
import { startThrowawayEngine } from './throwaway'

/** Where the throwaway accounts answer: `<baseUrl>/_replay/<id>/...`, one account per id. */
export const REPLAY_PATH = '_replay'

/** The most throwaway accounts kept at once; the oldest goes first. */
export const MAX_REPLAYS = 4

const ID = /^[A-Za-z0-9_-]{1,64}$/

/**
 * Handlers for the playground's throwaway accounts: a contract opened in the page replays on
 * an account of its own, at `<baseUrl>/_replay/<id>` (endpoints below it, its control plane at
 * `<baseUrl>/_replay/<id>/_account/...`), so the account a person came to check is never
 * touched. Each id gets an engine over memory the first time it is called, started as `serve`
 * starts one (a secret of its own, which a reset brings back); the last `MAX_REPLAYS` are kept.
 * Listed before the page's own handlers, which would otherwise answer below the base URL.
 */
export function createReplayHandlers({
  baseUrl,
  serviceName,
  exchangeLog,
}: {
  baseUrl: string
  serviceName: string
  exchangeLog: number
}): HttpHandler[] {
  const engines = new Map<string, Promise<Engine>>()

  function engineFor(id: string): Promise<Engine> {
    let engine = engines.get(id)
    if (!engine) {
      engine = startThrowawayEngine({
        serviceName,
        baseUrl: `${baseUrl}/${REPLAY_PATH}/${id}`,
        exchangeLog,
      })
      engines.set(id, engine)
      for (const old of engines.keys()) {
        if (engines.size <= MAX_REPLAYS) break
        engines.delete(old)
      }
    }
    return engine
  }

  const forward = async ({ request, params }: { request: Request; params: { id?: unknown } }) => {
    const id = typeof params.id === 'string' ? params.id : ''
    if (!ID.test(id)) {
      return new Response(
        `a throwaway account is named by 1 to 64 letters, digits, _ and -, not \`${id}'`,
        { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } },
      )
    }
    return (await engineFor(id)).handle(request)
  }
  const base = `${baseUrl}/${REPLAY_PATH}/:id`
  return [http.all(base, forward), http.all(`${base}/*`, forward)]
}
