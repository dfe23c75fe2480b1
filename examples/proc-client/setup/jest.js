// Under Jest: each test file gets the service in its own environment, answering
// https://proc.run through msw, with the secret the suite reads from its environment. Frames as
// under Vitest: beforeAll data stays for the file's (or block's) tests, each test's own writes
// are undone, a concurrent test runs on a copy of its own.
import { useService } from 'service-playground/jest'

process.env.SECRET ??= 'suite-secret-0123456789'
useService({ baseUrl: 'https://proc.run', serviceName: 'proc', secrets: [process.env.SECRET] })
