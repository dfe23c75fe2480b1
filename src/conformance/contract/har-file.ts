/**
 * A HAR file (HTTP Archive 1.2, as Chromium, Firefox and Playwright's `recordHar` export it)
 * read and checked against its schema, as far as an import reads it.
 */
import { Ajv, type ValidateFunction } from 'ajv'
import schema from '../../../schemas/har.json' with { type: 'json' }

/** The largest HAR read: a browser's export of a long session with its bodies fits well below. */
export const MAX_HAR_BYTES = 64 * 1024 * 1024

/** A HAR that cannot be imported: the message names what is wrong and where. */
export class HarError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'HarError'
  }
}

export interface HarHeader {
  name: string
  value: string
}

export interface HarEntry {
  startedDateTime: string
  time: number
  request: {
    method: string
    url: string
    headers: HarHeader[]
    bodySize?: number
    /** `_encoding: 'base64'`: a binary body (MessagePack), as the playground's own HAR writes it. */
    postData?: { mimeType?: string; text?: string; _encoding?: string }
  }
  response: {
    status: number
    headers: HarHeader[]
    content: { size?: number; mimeType?: string; text?: string; encoding?: string }
  }
}

/** A HAR, as far as it is read. */
export interface Har {
  log: { version: string; entries: HarEntry[] }
}

let compiled: ValidateFunction<Har> | undefined
const validator = () => (compiled ??= new Ajv({ allErrors: false }).compile<Har>(schema))

/** A HAR file's text, checked: JSON, HAR 1.1 or 1.2, and the shape of what is read. */
export function readHar(file: string, text: string): Har {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new HarError(
      `${file} is not JSON (${(error as Error).message}): was the HAR cut short while it was saved?`,
    )
  }
  const validate = validator()
  if (validate(data)) return data
  const [first] = validate.errors ?? []
  const where = first?.instancePath || '(the file)'
  if (first?.instancePath === '/log/version') {
    throw new HarError(
      `${file}: ${where} is ${JSON.stringify((data as Har).log.version)}; import-har reads HAR 1.2 (or 1.1), as browsers export it`,
    )
  }
  throw new HarError(
    `${file}: ${where} ${first?.message ?? 'is not what a HAR holds'}: not a HAR as browsers export it (log.entries[] with request and response)`,
  )
}
