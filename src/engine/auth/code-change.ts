// The change each error code the engine answers a call with asks for (decision 056), read from
// its message where it names an argument.

import type { Counterfactual } from './counterfactual-shape'

/** The argument a 400's message names: ``invalid argument `length' for …``. */
const argumentOf = (message: string | undefined) =>
  message ? /invalid argument `([^']+)'/.exec(message)?.[1] : undefined

/**
 * Every code the engine answers a call with, and its change. `decision 056` lists them; a test
 * finds every code in the source and holds this table to it.
 */
const BY_CODE: Record<string, (message: string | undefined) => Omit<Counterfactual, 'code'>> = {
  missing_ability: () => ({
    change: 'add_ability',
    sentence: 'an authorization holding an ability that covers the endpoint would have been let in',
  }),
  outside_limit: () => ({
    change: 'widen_limit',
    sentence:
      "an ability whose key-value limits reach the call's bucket and key would have let it in",
  }),
  insecure_ability: () => ({
    change: 'set_insecure',
    insecure: true,
    sentence: "add `insecure: true' to the auth.create call to grant insecure abilities",
  }),
  required: (message) => {
    const argument = argumentOf(message)
    return {
      change: 'fix_request',
      ...(argument ? { argument } : {}),
      sentence: `give the argument${argument ? ` \`${argument}'` : ''} the call requires`,
    }
  },
  not_coercible: (message) => {
    const argument = argumentOf(message)
    return {
      change: 'fix_request',
      ...(argument ? { argument } : {}),
      sentence: `give${argument ? ` \`${argument}'` : ' the argument'} a value of the type the endpoint declares (GET /_account/endpoints lists them)`,
    }
  },
  invalid: (message) => {
    const argument = argumentOf(message)
    return {
      change: 'fix_request',
      ...(argument ? { argument } : {}),
      sentence: `fix the request as the message says${message ? `: ${message}` : ''}`,
    }
  },
  syntax_error: (message) => ({
    change: 'fix_request',
    argument: 'code',
    sentence: `correct the program where the message points${message ? `: ${message}` : ''} (the language is in decision 050)`,
  }),
  invalid_cursor: () => ({
    change: 'fix_request',
    argument: 'cursor',
    sentence:
      'repeat the same keyv.scan (same bucket and prefix) with the x-cursor its last page gave, under a credential from the same live secret',
  }),
  not_a_proc: () => ({
    change: 'fix_request',
    argument: 'proc',
    sentence: 'give a "{}" composition or a "()" call where the endpoint runs a procedure',
  }),
  too_deep: () => ({
    change: 'fix_request',
    sentence: 'nest calls, compositions and values less deeply (the limit is in decision 006)',
  }),
  too_many_calls: () => ({
    change: 'fix_request',
    sentence: 'make fewer calls in one request (the limit is in decision 006)',
  }),
  value_too_large: () => ({
    change: 'fix_request',
    sentence: 'produce smaller values (the limit is in decision 006)',
  }),
  number_overflow: () => ({
    change: 'fix_request',
    sentence: 'send numbers past 2^53 as decimal text, never as JSON numbers (decision 023)',
  }),
  number_inexact: () => ({
    change: 'fix_request',
    sentence: 'send numbers past 2^53 as decimal text, never as JSON numbers (decision 023)',
  }),
  body_incomplete: () => ({
    change: 'fix_request',
    sentence: 'send the whole body its content-length announces',
  }),
  too_large: () => ({
    change: 'fix_request',
    sentence: 'send a smaller body or value (the limits are in decision 006)',
  }),
  unsupported_media_type: () => ({
    change: 'fix_request',
    sentence:
      'send the body as text/plain, application/json or the tuple and MessagePack types the message names',
  }),
  method_not_allowed: () => ({ change: 'fix_request', sentence: 'call the endpoint with POST' }),
  undefined: () => ({
    change: 'fix_request',
    sentence:
      'call an endpoint that exists (the message suggests its neighbours; GET /_account/endpoints lists them all)',
  }),
  conflict: () => ({
    change: 'fix_request',
    sentence: 'the procedure already exists: update it instead of creating it',
  }),
  strict: () => ({
    change: 'fix_request',
    sentence:
      'send the request as the interface promises: the deviations are listed in the message',
  }),
  timeout: () => ({
    change: 'wait',
    sentence: 'finish within the time limit: sleep less, or split the work into several calls',
  }),
  client_gone: () => ({
    change: 'wait',
    sentence: 'wait for the answer: the client went away before it, and the work stopped',
  }),
  rate_limited: () => ({
    change: 'wait',
    sentence: 'wait for the rate window to pass (the answer says when: retry-after)',
  }),
  invalid_snapshot: () => ({
    change: 'fix_request',
    sentence:
      'import a file as GET /_account/export writes it (decision 022 says what it may hold)',
  }),
  quota_exceeded: () => ({
    change: 'fix_request',
    sentence: 'free space first (delete keys or procedures): the account is at its quota',
  }),
  too_many_secrets: () => ({
    change: 'operator',
    sentence:
      'the account holds as many secrets as it may: reset it (POST /_account/reset) to go back to its starting secrets',
  }),
  too_many_faults: () => ({
    change: 'operator',
    sentence:
      'the account has as many fault rules set as it may: clear some (POST /_account/faults/clear) first',
  }),
  gone: () => ({
    change: 'operator',
    sentence:
      "the account's history no longer keeps that exchange: go back to before a later one (GET /_account/branches says the oldest it reaches)",
  }),
  too_many_branches: () => ({
    change: 'operator',
    sentence:
      'the account keeps as many branches as it may: delete one (POST /_account/branches/<id>/delete) first',
  }),
  store_closed: () => ({
    change: 'operator',
    sentence:
      "the account's data was closed under the call: the account was deleted (make another), or the server is stopping",
  }),
  contention: () => ({
    change: 'wait',
    sentence:
      'other requests kept changing what this one read: send it again (retry-after says when)',
  }),
  unauthorized: () => ({
    change: 'send_token',
    sentence: 'send a credential that reaches the call',
  }),
  forbidden: () => ({
    change: 'operator',
    sentence: 'the account blocks the call; nothing in the call itself would change that',
  }),
  refused: (message) => ({
    change: 'operator',
    sentence: `the server refused the request before any account answered it${message ? ` (${message})` : ''}: send its control token, a Host it names, or an account it holds`,
  }),
  injected_fault: () => ({
    change: 'operator',
    sentence:
      'a fault set up through the control plane answered: clear it (POST /_account/faults/clear), or let it be used up',
  }),
  store_conflict: () => ({
    change: 'operator',
    sentence: 'another write changed the account at the same moment: send the call again',
  }),
  disk_full: () => ({
    change: 'operator',
    sentence: "the server's disk is full: free space on it, then send the call again",
  }),
  data_damaged: () => ({
    change: 'operator',
    sentence: "the server's data file is damaged: restore it from an export",
  }),
  data_unavailable: () => ({
    change: 'operator',
    sentence: "the server's data file cannot be read: check it, then send the call again",
  }),
  unavailable: () => ({
    change: 'operator',
    sentence: "the server's database cannot be reached: send the call again once it is back",
  }),
  fault: () => ({
    change: 'operator',
    sentence: 'the engine faulted: nothing in the call should cause that, so it is a bug to report',
  }),
}

/** Every code with a counterfactual, credential reasons included. */
export const COUNTERFACTUAL_CODES: readonly string[] = [
  'missing',
  'malformed',
  'unknown_token',
  'bad_signature',
  'expired',
  'secret_rolled',
  'secret_unknown',
  ...Object.keys(BY_CODE),
]

/** Whether `code` has a change of its own (else it is told as a fault). */
export const hasCodeChange = (code: string): boolean => code in BY_CODE

/** The change for an error code, from its message where it names an argument. */
export function forCode(code: string, message: string | undefined): Counterfactual {
  const make = BY_CODE[code] ?? BY_CODE.invalid!
  return { code, ...make(message) }
}
