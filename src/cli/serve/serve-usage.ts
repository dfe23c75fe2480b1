import { DEFAULT_MAX_ACCOUNTS } from '../../server/host'

/** What `serve --help` prints: every flag, with its default. */
export const SERVE_USAGE = `usage: service-playground serve [flags]

The whole service over HTTP until SIGINT, SIGTERM or SIGHUP (or until the process that
started it ends). Exit codes: 0 stopped, 1 it could not start or export, 2 a wrong flag.

flags:
  --port N                   where to listen (default 8787; 0 picks a free port)
  --host ADDRESS             the address to listen on (default 127.0.0.1; any other needs
                             --control-token)
  --service-name NAME        the service's name in its media types and messages
                             (default service; the real service's is proc)
  --base-url URL             the address deploy links name (default: the one each request
                             came in by, from its Host header)
  --secret KEY               a secret the account holds from the start (repeatable; one is
                             made and printed if none is given)
  --control-token T          the token of the control plane (/_account/*, /_accounts);
                             made and printed if not given
  --control-token-file FILE  write the control token to FILE (mode 600)
  --allowed-host NAME        a Host header to answer besides the loopback names (repeatable)
  --trust-proxy              behind a front (a reverse proxy, a TLS terminator): links and
                             account URLs name the origin its Forwarded header (or
                             X-Forwarded-Host and X-Forwarded-Proto) gives, not the Host
                             the front sent; without the flag those headers are ignored
  --rate-limit               enforce the service's rate limit (429 past it)
  --strict                   refuse what the interface does not promise
  --journal N                exchanges each account keeps for GET /_account/exchanges
                             (default 0); while it keeps them, its history too: any of
                             them can be gone back to before (POST /_account/rewind)
  --seed S                   make the account deterministic: every value it draws comes
                             from a generator keyed by S and its own signing key, and its
                             clock stands still (moved only when moved); the accounts it
                             hosts too, unless POST /_accounts names a seed of their own
  --max-accounts N           accounts POST /_accounts may make (default ${DEFAULT_MAX_ACCOUNTS})
  --data FILE|postgres://…   keep the account in a SQLite file or PostgreSQL (default memory)
  --import FILE              start from an export (into an empty data file only)
  --export-on-exit FILE      write the account to FILE when stopped by a signal (mode 600:
                             it holds the secrets)
  -h, --help                 this text

shadow mode, in front of the real service (every request answered by it, the engine beside):
  --upstream URL             the real service's base URL
  --upstream-secret-file FILE
                             its secret, read from FILE (or SERVICE_PLAYGROUND_UPSTREAM_SECRET,
                             or --upstream-secret KEY); never logged
  --upstream-secret KEY      its secret, given on the command line
  --shadow-report DIR        where the report and a contract per difference go
                             (default shadow-report)

A value that starts with - (a token may) is given as --flag=value: --control-token=-abc.
`
