/**
 * `service-playground`: the whole service in your own tests. `startService` answers its base URL
 * in this process through msw; `listen` serves it over HTTP; `startServer` is `serve` as a
 * function, accounts and all. The engine they stand on is `service-playground/engine`.
 */
export {
  checkReceived,
  describeExchange,
  DEFAULT_JOURNAL,
  listen,
  openAccount,
  spawnServe,
  startService,
  type AuthorizeOptions,
  type FaultOptions,
  type Listener,
  type ListenOptions,
  type ReceivedExpectation,
  type ReceivedRequest,
  type RequestFilter,
  type RespondOptions,
  type ServeAccount,
  type ServeProcess,
  type RunServeOptions,
  type RunningServe,
  type Service,
  type StartServiceOptions,
} from '../node'
export { createManualClock, createSystemClock } from '../engine'
export type {
  Checkpoint,
  Counterfactual,
  CoverageReport,
  DiffReport,
  ReachReport,
  SimulateCall,
  SimulateReport,
  Clock,
  ExchangeRecord,
  FaultKind,
  FaultRule,
  Limits,
  SecretView,
} from '../engine'
