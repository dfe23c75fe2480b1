import type { LoggedBody } from '../../engine'
import { fromBase64, toBase64 } from '../../client/wire'
import { HarError, type HarEntry, type HarHeader } from './har-file'

/** An entry's label in messages: its number in the file, method and URL without query. */
export const labelOf = (index: number, entry: HarEntry) =>
  `entry ${index + 1} (${entry.request.method} ${entry.request.url.split('?')[0]})`

export const pairs = (headers: HarHeader[]): Array<[string, string]> =>
  headers.filter(({ name }) => !name.startsWith(':')).map(({ name, value }) => [name, value])

const textBody = (text: string): LoggedBody => ({
  encoding: 'text',
  data: text,
  bytes: new TextEncoder().encode(text).length,
  truncated: false,
})

/** The request's body as logged; a HarError when it says base64 and is not. */
export function requestBody(index: number, entry: HarEntry): LoggedBody | null {
  const post = entry.request.postData
  if (post?.text === undefined || post.text === '') return null
  if (post._encoding !== 'base64') return textBody(post.text)
  return base64Body(`${labelOf(index, entry)}: its request body`, post.text)
}

/** A base64 body as logged, checked: a HarError naming `what` when it does not decode. */
function base64Body(what: string, text: string): LoggedBody {
  let bytes: Uint8Array
  try {
    bytes = fromBase64(text.replace(/\s+/g, ''))
  } catch {
    throw new HarError(`${what} is marked base64 but does not decode`)
  }
  return { encoding: 'base64', data: toBase64(bytes), bytes: bytes.length, truncated: false }
}

/** The answer's body as logged; a HarError when it says base64 and is not. */
export function responseBody(index: number, entry: HarEntry): LoggedBody | null {
  const { text, encoding } = entry.response.content
  if (text === undefined) return null
  if (encoding === undefined) return textBody(text)
  if (encoding !== 'base64') {
    throw new HarError(
      `${labelOf(index, entry)}: its response content's encoding is ${JSON.stringify(encoding)}; a HAR's is base64 or none`,
    )
  }
  return base64Body(`${labelOf(index, entry)}: its response content`, text)
}
