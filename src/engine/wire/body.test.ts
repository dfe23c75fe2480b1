import { describe, expect, it, vi } from 'vitest'
import { TooLargeError } from '../errors'
import { readBody } from './body'

describe('readBody', () => {
  it('refuses a body over the limit even when a clone of the request is never read', async () => {
    // msw keeps a clone of each request: cancelling one branch of a teed body only settles
    // once the other is cancelled too, so waiting for it would never answer.
    const request = new Request('https://api.example.test/keyv/set', {
      method: 'POST',
      body: new ReadableStream({
        pull(controller) {
          controller.enqueue(new Uint8Array(64 * 1024))
        },
      }),
      duplex: 'half',
    } as RequestInit)
    const clone = request.clone()
    await expect(readBody(request, 100_000)).rejects.toBeInstanceOf(TooLargeError)
    expect(clone.bodyUsed).toBe(false)
  })
})

describe('readBody with a declared length', () => {
  /** A request whose stream must not be touched: Node's server builds one only when asked. */
  function streamless(body: string, length = body.length) {
    const request = new Request('https://api.example.test/core/echo', {
      method: 'POST',
      headers: { 'content-length': String(length) },
      body,
    })
    Object.defineProperty(request, 'body', {
      get: () => {
        throw new Error('the stream was asked for')
      },
    })
    return request
  }

  it('reads the body in one piece, never asking for its stream', async () => {
    const body = await readBody(streamless('hello'), 100)
    expect(new TextDecoder().decode(body)).toBe('hello')
  })

  it('refuses a declared length over the limit before reading anything', async () => {
    const request = streamless('x'.repeat(10), 1000)
    const read = vi.spyOn(request, 'arrayBuffer')
    await expect(readBody(request, 100)).rejects.toBeInstanceOf(TooLargeError)
    expect(read).not.toHaveBeenCalled()
  })

  it('refuses a body longer than it said, past the limit', async () => {
    await expect(readBody(streamless('x'.repeat(200), 10), 100)).rejects.toBeInstanceOf(
      TooLargeError,
    )
  })
})
