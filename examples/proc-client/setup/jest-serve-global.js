// One `serve` for the Jest run, on a free port; each test file gets an account of its own on it.
// Jest's workers start after this, with the environment it sets.
import { spawnServe } from 'service-playground'

export default async function serveForTheRun() {
  const server = await spawnServe(['--port', '0', '--service-name', 'proc'])
  globalThis.procServe = server
  process.env.PROC_SERVE_URL = server.url
  process.env.PROC_SERVE_CONTROL_TOKEN = server.controlToken
}
