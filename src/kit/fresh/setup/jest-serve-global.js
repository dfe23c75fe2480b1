// One `serve` for the serve project's run, on a free port; Jest's workers start after this, with
// the environment it sets, whichever project they run: the serve project's own setup file
// (setup/jest-serve.js) hands it to its files.
import { spawnServe } from 'service-playground'

export default async function serveForTheRun() {
  const server = await spawnServe(['--port', '0', '--service-name', 'proc'])
  globalThis.kitServe = server
  process.env.KIT_SERVE_RUN = JSON.stringify({ url: server.url, controlToken: server.controlToken })
}
