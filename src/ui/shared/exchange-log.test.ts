import 'fake-indexeddb/auto'
import { QueryClient } from '@tanstack/react-query'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { exchangeLogQuery } from './exchange-log'

describe("the exchange log's first read", () => {
  afterEach(() => vi.restoreAllMocks())

  it("fails with the engine's failure, which is never left unhandled while the page's rows are read", async () => {
    const unhandled: unknown[] = []
    const note = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', note)
    try {
      // The engine's log cannot be reached (its service stopped); the page's own rows come
      // from IndexedDB meanwhile, over several turns of the event loop.
      vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('fetch failed'))
      const config = { baseUrl: 'https://first-read.example.test', serviceName: 'service' }
      const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
      await expect(client.fetchQuery(exchangeLogQuery(config))).rejects.toThrow('fetch failed')
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(unhandled).toEqual([])
    } finally {
      process.off('unhandledRejection', note)
    }
  })
})
