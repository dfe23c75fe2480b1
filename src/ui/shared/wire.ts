/**
 * The UI's wire, one import: a call planned (`call-plan.ts`), written as code
 * (`call-snippets.ts`), sent (`send-plan.ts`), and its answer read (`readable-body.ts`,
 * `said.ts`).
 */
export {
  BODY_FORMATS,
  endpointUrl,
  mediaTypeOf,
  planCall,
  queryValue,
  toTuples,
  type BodyFormat,
  type CallDraft,
  type HttpPlan,
} from './call-plan'
export { asClient, asCurl, asFetch } from './call-snippets'
export { reasonPhrase, sendPlan, type SentRequest, type WireResult } from './send-plan'
export { readBody, toHex, type ReadableBody } from './readable-body'
export { isTupleType, saidIn, type Said } from '../../client/answer'
export { loggedBytes } from '../../client/exchange'
