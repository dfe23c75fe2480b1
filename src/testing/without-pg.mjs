// `node --import ./src/testing/without-pg.mjs …`: runs as if the optional dependency pg were
// not installed, so the tests can read what a user without it is told.
import { register } from 'node:module'

const hook = `
export async function resolve(specifier, context, next) {
  if (specifier === 'pg' || specifier.startsWith('pg/')) {
    const error = new Error("Cannot find package 'pg'")
    error.code = 'ERR_MODULE_NOT_FOUND'
    throw error
  }
  return next(specifier, context)
}`
register(`data:text/javascript,${encodeURIComponent(hook)}`)
