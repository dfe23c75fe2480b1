import type { Call, Reply } from '../engine'
import { readSeed } from '../engine/auth/random'
import { refusal } from '../engine/wire/response'

/** `POST /_accounts`' body: none, or `{"seed": …}` (decision 086). */
export async function seedOf(call: Call): Promise<string | undefined | Reply> {
  const text = new TextDecoder().decode(await call.body(4096))
  if (text.trim() === '') return undefined
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return refusal(400, 'the body must be JSON: {"seed": "…"}, or nothing')
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return refusal(400, 'the body must be a JSON object: {"seed": "…"}, or nothing')
  }
  const { seed, ...rest } = body as Record<string, unknown>
  if (Object.keys(rest).length > 0) {
    return refusal(
      400,
      `an account is made with a seed, or with nothing: not ${Object.keys(rest).join(', ')}`,
    )
  }
  if (seed === undefined || seed === null) return undefined
  const read = readSeed(seed)
  return typeof read === 'string' ? read : refusal(400, read.problem)
}
