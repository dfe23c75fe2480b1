// Installs what `npm start` and `npm test` need on a fresh machine, and nothing twice:
//   node scripts/ensure.mjs deps       npm packages, when node_modules is missing or stale
//   node scripts/ensure.mjs chromium   Debian's chromium, for Playwright, when missing
//   node scripts/ensure.mjs postgresql Debian's postgresql, for the PostgreSQL store's tests,
//                                      when no /usr/lib/postgresql/<version>/bin/initdb exists
//   node scripts/ensure.mjs openssl    Debian's openssl, which makes a TLS front's certificate
//                                      in the tests, when missing
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

function run(cmd, args) {
  console.log(`> ${cmd} ${args.join(' ')}`)
  execFileSync(cmd, args, { stdio: 'inherit' })
}

function ensureDeps() {
  const marker = 'node_modules/.package-lock.json'
  const stale =
    !existsSync(marker) || statSync('package-lock.json').mtimeMs > statSync(marker).mtimeMs
  if (stale) run('npm', ['ci', '--no-audit', '--no-fund'])
}

function aptInstall(name) {
  const isRoot = process.getuid?.() === 0
  const apt = (...args) => (isRoot ? run('apt-get', args) : run('sudo', ['apt-get', ...args]))
  process.env.DEBIAN_FRONTEND = 'noninteractive'
  // Another install may hold dpkg's lock: wait for it rather than fail.
  const lock = ['-o', 'DPkg::Lock::Timeout=300']
  apt(...lock, 'update')
  apt(...lock, 'install', '-y', '--no-install-recommends', name)
}

function ensureChromium() {
  if (existsSync(CHROMIUM)) return
  aptInstall('chromium')
  if (!existsSync(CHROMIUM)) {
    console.error(`chromium was not found at ${CHROMIUM} after installing it; set CHROMIUM_PATH`)
    process.exit(1)
  }
}

/** The tests start their own throwaway cluster from these binaries; none is set up here. */
function ensurePostgresql() {
  const root = '/usr/lib/postgresql'
  const installed = () =>
    existsSync(root) &&
    readdirSync(root).some((version) => existsSync(`${root}/${version}/bin/initdb`))
  if (installed()) return
  aptInstall('postgresql')
  if (!installed()) {
    console.error(`postgresql was installed, but no ${root}/<version>/bin/initdb was found`)
    process.exit(1)
  }
}

function ensureOpenssl() {
  const found = () => ['/usr/bin/openssl', '/bin/openssl'].some((path) => existsSync(path))
  if (found()) return
  aptInstall('openssl')
  if (!found()) {
    console.error('openssl was installed, but /usr/bin/openssl was not found')
    process.exit(1)
  }
}

for (const what of process.argv.slice(2)) {
  if (what === 'deps') ensureDeps()
  else if (what === 'chromium') ensureChromium()
  else if (what === 'postgresql') ensurePostgresql()
  else if (what === 'openssl') ensureOpenssl()
  else {
    console.error(`unknown target ${what}; use deps, chromium, postgresql or openssl`)
    process.exit(2)
  }
}
