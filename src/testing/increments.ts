import { INCREMENT } from './increment'
import { callTuples } from './serve-process'

/**
 * Sets `n` to 0, then sends `count` increments at once, spread over `urls` in turn (one `serve`,
 * or several over one database): the statuses answered, and the final value of `n`.
 */
export async function incrementAtOnce(urls: string[], secret: string, count: number) {
  const first = urls[0]!
  const reset = await callTuples(first, secret, 'keyv.set', [
    ['$$', 'key', 'n'],
    ['$$', 'value', 0],
  ])
  if (reset.status !== 200) throw new Error(`keyv.set answered ${reset.status}`)
  const answers = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      callTuples(urls[i % urls.length]!, secret, 'keyv.set', INCREMENT),
    ),
  )
  const final = await callTuples(first, secret, 'keyv.get', [['$$', 'key', 'n']])
  return { statuses: answers.map(({ status }) => status), final: final.value }
}
