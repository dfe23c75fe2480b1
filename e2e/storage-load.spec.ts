import { expect, test } from './fixtures'

const calls = 5000
const window = 400

// 5,000 calls through the service worker into real IndexedDB: a minute alone, nearly three
// beside two other browsers on two cores.
test.setTimeout(480_000)

test('a call through the worker costs as much after 5,000 calls as at the start', async ({
  app,
  account,
}) => {
  const { key } = await account.createSecret()
  const { baseUrl, serviceName } = app.config
  const vnd = `application/vnd.${serviceName}+json`
  const result = await app.page.evaluate(
    async ({ baseUrl, key, calls, window, vnd }) => {
      const post = async (path: string, token: string, body = '', type = 'text/plain') => {
        const response = await fetch(`${baseUrl}/${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': type },
          body,
        })
        const text = await response.text()
        if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text}`)
        return text
      }
      const token = await post('auth/create?abilities=type,core,keyv%3Fbucket%3Dload', key)
      const composition = JSON.stringify([
        ['$$', 'proc', ['{}', ['>>', ['%%', 'ab']], ['()', 'type.string.reverse']]],
      ])
      const kinds = [
        () => post('type/string/reverse', key, 'abc'),
        () => post('type/string/reverse', token, 'abc'),
        () => post('core/exec', token, composition, vnd),
        (i: number) => post(`keyv/set?bucket=load&key=k${i % 50}&value=${i}`, token),
        () => post('keyv/scan?bucket=load&count=10', token),
      ]
      const durations: number[] = []
      for (let i = 0; i < calls; i++) {
        const started = performance.now()
        await kinds[i % kinds.length]!(i)
        durations.push(performance.now() - started)
      }
      const median = (from: number, to: number) => {
        const slice = durations.slice(from, to).sort((a, b) => a - b)
        return slice[Math.floor(slice.length / 2)]!
      }
      return { first: median(0, window), last: median(calls - window, calls) }
    },
    { baseUrl, key, calls, window, vnd },
  )
  expect(
    result.last / result.first,
    `median ms per call: ${JSON.stringify(result)}`,
  ).toBeLessThanOrEqual(1.3)
})
