// A small client of the service in the style of the real ones: connect once with a token, call
// endpoints by name with an input and named arguments, get the value back or a thrown error.

export class ProcError extends Error {
  constructor(status, message) {
    super(message)
    this.name = 'ProcError'
    this.status = status
  }
}

const defaultBaseUrl = () => globalThis.process?.env?.PROC_BASE_URL ?? 'https://proc.run'

/** A connection with `token` (a secret key or an authorization). */
export function connect(token, { baseUrl = defaultBaseUrl(), serviceName = 'proc' } = {}) {
  if (!token) throw new Error('connect needs a token: is the secret set?')
  const type = `application/vnd.${serviceName}+json`
  const client = {
    /** Every key of a bucket, page by page, following `x-cursor` as the real clients do. */
    async scan(bucket, { prefix, count = 100 } = {}) {
      const keys = []
      let cursor = ''
      do {
        const { value, headers } = await client.send('keyv.scan', undefined, {
          bucket,
          count,
          ...(prefix ? { prefix } : {}),
          ...(cursor ? { cursor } : {}),
        })
        keys.push(...value)
        cursor = headers.get('x-cursor') ?? ''
      } while (cursor)
      return keys
    },
    async call(name, input, args = {}) {
      return (await client.send(name, input, args)).value
    },
    async send(name, input, args = {}) {
      const tuples = [
        ...(input === undefined ? [] : [['>>', input]]),
        ...Object.entries(args).map(([key, value]) => ['$$', key, value]),
      ]
      const response = await fetch(`${baseUrl}/${name.split('.').join('/')}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': type, accept: type },
        body: JSON.stringify(tuples),
      })
      const [[marker, value]] = await response.json()
      if (marker === '!!') throw new ProcError(response.status, value.message)
      return { value, headers: response.headers }
    },
  }
  return client
}
