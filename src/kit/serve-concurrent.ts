/**
 * Concurrent tests over `serve`: each on a fork of the file's account of its own, or all
 * sharing one frame on an account that cannot be forked.
 */
import { http, passthrough, type HttpHandler } from 'msw'
import type { AsyncLocalStorage } from 'node:async_hooks'
import type { Checkpoint, ExchangeRecord } from '../engine'
import type { AccountSnapshot } from '../engine/account/snapshot'
import { joinSharedServer, leaveSharedServer } from '../node/shared-server'
import type { FrameParts } from './in-process-handle'
import type { RemoteService } from './remote'
import type { Framed } from './vitest-frames'

/**
 * Each concurrent test on an account of its own, forked from the file's as it stands when the
 * test starts (its own and its blocks' fixtures: keys, procedures, secrets and signing key, so
 * the file's tokens work there, and the clock), answered from it alone and removed after it:
 * inside the test every method of the handle reaches the fork, and so does every request this
 * process sends to the file's account (msw passes it on). Faults, strict mode and the rate
 * window are not part of an account's export: the fork starts without them.
 */
export function forkEach(
  file: () => Promise<RemoteService>,
  forks: AsyncLocalStorage<RemoteService>,
  open: () => Promise<RemoteService & { close(): Promise<void> }>,
): FrameParts['concurrent'] {
  let routing: { handlers: HttpHandler[]; running: number } | undefined
  return async function around(run): Promise<void> {
    const from = await file()
    const fork = await open()
    try {
      // The fixtures' exchanges, for the test's contract: the fork's journal starts empty. They
      // went to the file's account: as the fork's own setup, they are read at the fork's URL.
      const { exchanges } = await from.control<{ exchanges: ExchangeRecord[] }>('exchanges')
      const setup = exchanges.map((exchange) => rebased(exchange, from.baseUrl, fork.baseUrl))
      await fork.control('import', await from.control<AccountSnapshot>('export'))
      routing ??= { handlers: [passOn(from.baseUrl, forks)], running: 0 }
      if (routing.running++ === 0) joinSharedServer(routing.handlers)
      try {
        await forks.run(fork, () => run({ after: 0, shared: false, setup }))
      } finally {
        if (--routing.running === 0) leaveSharedServer(routing.handlers)
      }
    } finally {
      await fork.close()
    }
  }
}

/** `exchange` as if sent to `to`, where it went to `from`. */
function rebased(exchange: ExchangeRecord, from: string, to: string): ExchangeRecord {
  const { url } = exchange.request
  if (!url.startsWith(from)) return exchange
  return { ...exchange, request: { ...exchange.request, url: `${to}${url.slice(from.length)}` } }
}

/**
 * Requests to `baseUrl` made inside a concurrent test go to its fork instead, as they are:
 * method, path, query, headers and body. Every other request goes on untouched.
 */
function passOn(baseUrl: string, forks: AsyncLocalStorage<RemoteService>): HttpHandler {
  return http.all(`${baseUrl}/*`, async ({ request }) => {
    const fork = forks.getStore()
    if (!fork) return passthrough()
    const body = ['GET', 'HEAD'].includes(request.method) ? undefined : await request.arrayBuffer()
    try {
      return await fetch(`${fork.baseUrl}${request.url.slice(baseUrl.length)}`, {
        method: request.method,
        headers: request.headers,
        body,
        redirect: 'manual',
      })
    } catch {
      // The fork dropped the connection (a network fault): so does the answer.
      return Response.error()
    }
  })
}

/**
 * Concurrent tests over one account share one frame, taken when the first of them starts and
 * restored when the last ends: none wipes what another still running wrote.
 */
export function sharedFrame(service: () => Promise<Framed>): FrameParts['concurrent'] {
  let running = 0
  let frame: Promise<Checkpoint> | undefined
  return async function around(run, groupEnded): Promise<void> {
    running += 1
    frame ??= service().then((framed) => framed.checkpoint())
    const taken = await frame
    try {
      await run({ after: taken.journal, shared: true })
    } finally {
      running -= 1
      if (running === 0) {
        frame = undefined
        try {
          await groupEnded(taken.journal)
        } finally {
          await (await service()).restore(taken.id)
        }
      }
    }
  }
}
