// What `POST /_account/least-privilege` reads (decision 090): journal entries checked as
// coverage checks them (none: the account's own journal), and the one token asked about.

import { InvalidError } from '../../errors'
import type { Json } from '../../store'
import { readEntries } from '../coverage/request'
import type { CoverageEntry } from '../coverage/tally'

/** A least-privilege request, checked. */
export interface LeastPrivilegeRequest {
  /** Absent: the account's journal. */
  entries?: CoverageEntry[]
  /** With `skipUnreadable`: entries left out. */
  skipped?: number
  /** Only this token's calls (an authorization the account signed). */
  token?: string
}

/** Reads the body: `entries`, `skipUnreadable` (as coverage reads them) and `token`. */
export function readLeastPrivilegeRequest(body: Record<string, Json>): LeastPrivilegeRequest {
  const request: LeastPrivilegeRequest = readEntries(body)
  if (body.token != null) {
    if (typeof body.token !== 'string' || body.token.trim() === '') {
      throw new InvalidError("`token' must be a token (a string), the one to tighten")
    }
    request.token = body.token
  }
  return request
}
