import { describe, expect, it } from 'vitest'
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
