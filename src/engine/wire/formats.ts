import { UnsupportedMediaError } from '../errors'

/**
 * The wire formats, by media type: `text` (text/plain), `json` (application/json),
 * `tuples` (application/vnd.<service>+json) and `msgpack` (application/vnd.<service>+msgpack).
 */
export type Format = 'text' | 'json' | 'tuples' | 'msgpack'

export function mediaType(format: Format, serviceName: string): string {
  switch (format) {
    case 'text':
      return 'text/plain; charset=utf-8'
    case 'json':
      return 'application/json'
    case 'tuples':
      return `application/vnd.${serviceName}+json`
    case 'msgpack':
      return `application/vnd.${serviceName}+msgpack`
  }
}

/** The format of a content type, or `undefined` when it is not one the service reads. */
export function bodyFormat(contentType: string | null, serviceName: string): Format | undefined {
  if (contentType === null || contentType.trim() === '') return 'text'
  return formatOf(essence(contentType), serviceName)
}

function formatOf(type: string, serviceName: string): Format | undefined {
  if (type === 'text/plain') return 'text'
  if (type === 'application/json') return 'json'
  if (type === `application/vnd.${serviceName}+json`) return 'tuples'
  if (type === `application/vnd.${serviceName}+msgpack`) return 'msgpack'
  return undefined
}

const essence = (value: string) => value.split(';')[0]!.trim().toLowerCase()

/** The request body's format; a missing content type means text. 415 for anything else. */
export function requestFormat(contentType: string | null, serviceName: string): Format {
  const format = bodyFormat(contentType, serviceName)
  if (format) return format
  throw new UnsupportedMediaError(
    `content type \`${essence(contentType!)}' is not supported; use text/plain, application/json, application/vnd.${serviceName}+json or application/vnd.${serviceName}+msgpack`,
  )
}

/**
 * The response format: the acceptable one with the highest quality, in the order given;
 * a wildcard, an absent header or nothing acceptable falls back to `fallback`.
 */
export function responseFormat(
  accept: string | null,
  fallback: Format,
  serviceName: string,
): Format {
  if (!accept) return fallback
  const ranges = accept
    .split(',')
    .map((part, index) => {
      const [type = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase())
      const q = params.find((param) => param.startsWith('q='))
      return { type, q: q ? Number(q.slice(2)) : 1, index }
    })
    .filter((range) => range.type !== '' && range.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
  for (const { type } of ranges) {
    if (type === '*/*') return fallback
    const exact = formatOf(type, serviceName)
    if (exact) return exact
    if (type === 'text/*') return 'text'
    if (type === 'application/*') return fallback === 'text' ? 'json' : fallback
  }
  return fallback
}
