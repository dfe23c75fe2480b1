import { expect, test } from './fixtures'

// One page for the five: the calls share no state but the account, and each makes its own secret.
test('the service worker answers the base URL in every body format, and nothing outside it', async ({
  wire,
  account,
  page,
  config,
  consoleProblems,
}) => {
  await test.step('the service worker answers core.ping under the base URL', async () => {
    const { key } = await account.createSecret()
    const response = await wire.call('core.ping', { token: key })
    expect(response.status).toBe(200)
    expect(response.body).toBe('true')
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(response.headers['x-rate-limit']).toBe('20;window=60')
  })

  await test.step("the worker says on its port when it has taken a page's engine in", async () => {
    const taken = await page.evaluate(
      (baseUrl) =>
        new Promise<unknown>((resolve, reject) => {
          const { port1, port2 } = new MessageChannel()
          port1.onmessage = (event) => resolve(event.data)
          setTimeout(() => reject(new Error('the worker did not answer ENGINE_READY')), 10_000)
          navigator.serviceWorker.controller!.postMessage({ type: 'ENGINE_READY', baseUrl }, [
            port2,
          ])
        }),
      config.baseUrl,
    )
    expect(taken).toEqual({ type: 'ENGINE_READY_TAKEN' })
  })

  await test.step('text/plain, application/json and vnd+json bodies reach type.string.reverse', async () => {
    const { key } = await account.createSecret()

    const text = await wire.call('type.string.reverse', { token: key, body: 'foo>>' })
    expect([text.status, text.headers['content-type'], text.body]).toEqual([
      200,
      'text/plain; charset=utf-8',
      '>>oof',
    ])

    const json = await wire.call('type.string.reverse', {
      token: key,
      contentType: 'application/json',
      body: JSON.stringify('foo'),
    })
    expect([json.status, json.headers['content-type'], JSON.parse(json.body)]).toEqual([
      200,
      'application/json',
      'oof',
    ])

    const tuples = await wire.call('type.string.reverse', {
      token: key,
      contentType: 'application/vnd.service+json',
      body: JSON.stringify([['>>', 'foo']]),
    })
    expect(tuples.status).toBe(200)
    expect(tuples.headers['content-type']).toBe('application/vnd.service+json')
    expect(JSON.parse(tuples.body)).toEqual([['<<', 'oof']])
  })

  await test.step('an unknown endpoint is a 404 naming it', async () => {
    const { key } = await account.createSecret()
    const response = await wire.call('foo.bar.baz', { token: key })
    expect(response.status).toBe(404)
    expect(response.body).toBe("undefined service `foo.bar.baz'")
  })

  await test.step('requests outside the base URL are not answered by the engine', async () => {
    const sameOrigin = await wire.fetch(new URL('/core/ping', page.url()).href, { method: 'POST' })
    expect(sameOrigin.body).not.toBe('true')
    expect(sameOrigin.headers['x-rate-limit']).toBeUndefined()

    // Nothing answers this host: without the engine, the request fails on the network.
    const otherHost = await wire.fetch('https://elsewhere.example.test/core/ping', {
      method: 'POST',
    })
    expect(otherHost).toMatchObject({
      status: 0,
      error: expect.stringContaining('Failed to fetch'),
    })
    // The browser reports the failed request, as it should: the one problem expected here.
    await expect
      .poll(() => consoleProblems)
      .toEqual(['error: Failed to load resource: net::ERR_FAILED'])
    consoleProblems.length = 0
  })
})
