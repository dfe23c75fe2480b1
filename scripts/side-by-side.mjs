// Runs commands side by side and fails if any fails: `npm run typecheck` and `npm run lint`
// are each a few single-threaded programs, and a machine with two cores runs two at once.
//   node scripts/side-by-side.mjs "tsc -p tsconfig.app.json" "tsc -p tsconfig.node.json"
// Each command's output is printed whole once it ends, under its name, so that two never
// interleave.
import { spawn } from 'node:child_process'

const commands = process.argv.slice(2)
if (commands.length === 0) {
  console.error('usage: node scripts/side-by-side.mjs "<command>" ["<command>" …]')
  process.exit(2)
}

const results = await Promise.all(
  commands.map(
    (command) =>
      new Promise((resolve) => {
        const started = performance.now()
        const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] })
        const output = []
        child.stdout.on('data', (chunk) => output.push(chunk))
        child.stderr.on('data', (chunk) => output.push(chunk))
        child.on('close', (code, signal) => {
          const seconds = ((performance.now() - started) / 1000).toFixed(1)
          const status = code === 0 ? 'ok' : `failed (${signal ?? `exit ${code}`})`
          process.stdout.write(`> ${command}: ${status}, ${seconds} s\n`)
          process.stdout.write(Buffer.concat(output))
          resolve(code === 0)
        })
      }),
  ),
)
process.exit(results.every(Boolean) ? 0 : 1)
