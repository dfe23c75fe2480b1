// Before the test file is imported: an account of its own on the run's `serve`, whose secret
// and base URL the suite reads from its environment, as it would in production. Every test
// starts from the account's starting state.
import { afterAll, afterEach, inject } from 'vitest'
import { openAccount } from 'service-playground'

const account = await openAccount(inject('serve'))
process.env.SECRET = account.secret
process.env.PROC_BASE_URL = account.baseUrl
afterEach(() => account.reset())
afterAll(() => account.close())
