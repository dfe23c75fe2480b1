export { createEngine, type Engine, type EngineOptions } from './engine'
export { createManualClock, createSystemClock, type Clock } from './clock'
export type { Account, TokenReport } from './account/account'
export type { SecretView, SecretState } from './account/secrets'
export type { AccountSnapshot } from './account/snapshot'
export {
  defaultLimits,
  DEFAULT_BASE_URL,
  DEFAULT_SERVICE_NAME,
  type Limits,
  type EngineSettings,
} from './settings'
export type {
  Store,
  StoreReader,
  Json,
  Mutation,
  StoreSnapshot,
  SecretRecord,
  BucketCount,
} from './store'
export { StoreConflictError } from './store'
export { ServiceError } from './errors'
export type { TokenDetails } from './auth/credentials'
export type { ExchangeRecord, LoggedBody } from './operator/exchange-log'
export type { RequestTrace, CredentialTrace, CallTrace } from './trace'
export type { Route } from './wire/path'
export { urlOf, type Call } from './wire/call'
export { callOf, responseOf } from './wire/fetch'
export type { Hmac, HmacFactory } from './auth/hmac'
export type { FaultKind, Reply, ReplyFault } from './wire/response'
export type { AnswerOptions, CannedAnswer, FaultRule, FaultOptions } from './operator/fault-rule'
export { createLocalOperator, type LocalOperator } from './operator/local'
export type {
  OperatorCapture,
  OperatorModes,
  OperatorState,
  OperatorView,
  RateWindow,
} from './operator/state'
export type { AccountState, Checkpoint, Checkpoints } from './operator/checkpoints'
export type {
  Counterfactual,
  DiffItem,
  DiffReport,
  ReachEndpoint,
  ReachLimit,
  ReachPackage,
  ReachReport,
  SimulateCall,
  SimulatedCall,
  SimulateReport,
  TokenSummary,
  ResourceQuery,
  ReachedBy,
  WhoReachesReport,
  WatchReport,
  WatchesReport,
  CoverageReport,
  CoverageTally,
  CoverageFlag,
  EndpointCoverage,
  LeastPrivilegeReport,
  TokenLeastPrivilege,
} from './insight'
export { bearerToken, readBearer, type Bearer } from './auth/bearer'
export type {
  AnswerOf,
  BodyOf,
  ControlMethod,
  ControlPath,
  ControlRoute,
  ControlRoutes,
  EndpointInfo,
  ExchangePage,
  ParamSpec,
  QueryOf,
  RouteAt,
  StrictReport,
} from './control/control-routes'
