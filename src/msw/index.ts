export { createHandlers } from './handlers'
