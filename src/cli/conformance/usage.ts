/** What `conformance`, `verify`, `coverage`, `tokens` and `drift` print for `--help`. */

const TARGET_FLAGS = `target (one of):
  --target handle            the engine in this process (the default)
  --target msw               the engine behind msw in this process
  --target serve             a serve started for the run
  --base-url URL             a running service (--target base-url), with
    --secret KEY             a secret of its account, and/or
    --control-token T        the control token of a serve (our control plane)
  --service-name NAME        the name the service answers to (default proc)
  or, against the real service with the engine compared beside it (shadow mode):
  --shadow URL               the real service's base URL
    --upstream-secret-file FILE
                             its secret (or SERVICE_PLAYGROUND_UPSTREAM_SECRET)
    --shadow-report DIR      where the report goes (default shadow-report)
A value that starts with - (a token may) is given as --flag=value: --control-token=-abc.`

export const CONFORMANCE_USAGE = `usage: service-playground conformance [flags]

Plays the conformance cases against a target. Exit codes: 0 all passed, 1 a case failed,
2 a wrong command line, 3 the target is unusable (the pre-flight check).

${TARGET_FLAGS}

flags:
  --filter TEXT              only the cases whose id holds TEXT
  --junit FILE               the JUnit report (default conformance-results.xml)
  --summary FILE             append a Markdown summary (default GITHUB_STEP_SUMMARY, when set)
  -h, --help                 this text
`

export const VERIFY_USAGE = `usage: service-playground verify CONTRACT.json|DIR... [flags]

Replays contracts (recorded by the kit's helpers or the playground) against a target.
With --base-url and a serve's --control-token, each contract runs in an account of its own
that verify makes (POST /_accounts) and deletes after it: no account already there is
touched. Exit codes: 0 all passed, 1 a contract differs, 2 a wrong command line or contract,
3 the target is unusable, 4 every contract was skipped (nothing was verified).

${TARGET_FLAGS}

flags:
  --reset-account            run the contracts in the account at --base-url instead,
                             RESETTING IT (erasing its keys, procedures, secrets and
                             authorizations) before each contract
  --allow-skipped            exit 0 even when every contract was skipped
  --fail-on-strict           exit 1 when strict mode would refuse a request
  --junit FILE               the JUnit report (default contract-results.xml)
  --summary FILE             append a Markdown summary (default GITHUB_STEP_SUMMARY, when set)
  -h, --help                 this text
`

export const COVERAGE_USAGE = `usage: service-playground coverage FILE... [flags]

The authorization coverage of your tests, from service-coverage.json (the kit's helpers),
exchanges.json (GET /_account/exchanges, the playground's export or HAR) or contracts.
Prints a table and writes report.json and report.html. Exit codes: 0 at or above --min,
1 below it, 2 a wrong command line or file.

flags:
  --min PERCENT              fail below this score
  --out DIR                  where the reports go (default service-coverage)
  --summary FILE             append a Markdown summary (default GITHUB_STEP_SUMMARY, when set)
  --service-name NAME        the name the service answers to (default proc)
  -h, --help                 this text
A value that starts with - is given as --flag=value: --out=-reports.
`

export const REPLAY_USAGE = `usage: service-playground replay RECORDING.json... --target URL [flags]

Sends a recording (saved from GET <baseUrl>/_account/recording?from=<exchange>) again to an
account of ours, each exchange as it was first sent: the account imported as it stood before
the first (its seed, secrets and signing key with it), the controls and the clock put as each
exchange met them. Compares each answer with the recorded one (status, every header but date,
the body's bytes, the decision trace) and names the first that differs. Exit codes: 0 every
exchange answered the same, 1 one differed, 2 a wrong command line or file, 3 the target could
not be used.

The recording holds the account's secrets: keep it private, as an export.

flags:
  --target URL               the base URL of an account of ours: a serve, or a hosted
                             account's /a/<id>; or handle, msw or serve (one started here)
  --control-token T          its control token (serve's, or the hosted account's own)
  -h, --help                 this text
A value that starts with - (a token may) is given as --flag=value: --control-token=-abc.
`

export const TOKENS_USAGE = `usage: service-playground tokens FILE... [flags]

Least privilege from your tests: for every authorization in exchanges.json (GET
/_account/exchanges, the playground's export or HAR) or contracts, the narrowest auth.create
arguments for what it did, proven by replaying its calls, and where the token minted reaches
beyond its use. Prints them and writes tokens.json and tokens.html. No token is printed.
Exit codes: 0 no token reaches more than --max-excess endpoints beyond its use, 1 one does,
2 a wrong command line or file.

flags:
  --max-excess N             fail when a token reaches more than N endpoints beyond its use
  --out DIR                  where the reports go (default service-tokens)
  --summary FILE             append a Markdown summary (default GITHUB_STEP_SUMMARY, when set)
  --service-name NAME        the name the service answers to (default proc)
  -h, --help                 this text
`

export const DRIFT_USAGE = `usage: service-playground drift CONTRACT.json|DIR... --upstream URL [flags]

Plays recorded contracts against the real service, the engine answering each step beside it
(shadow mode), within the service's rate limit, and reports each step whose answer changed
since the contract was recorded (noise left out: a read the service answers differently when
asked the same again). Each changed step is written beside its contract as NAME.drift-N.json
(never over a file), the upstream's answer as what it expects. Exit codes: 0 nothing changed,
1 an answer changed, 2 a wrong command line or contract, 3 the upstream cannot be used, 4 every
contract was skipped (one that needs an empty account or moves the clock needs our control
plane), so nothing was compared.

flags:
  --upstream URL             the real service's base URL (http or https)
  --upstream-secret-file FILE
                             its secret (or SERVICE_PLAYGROUND_UPSTREAM_SECRET, or --secret S)
  --control-token T          for an upstream of ours (serve) instead of a secret
  --rate N                   calls a minute, at most (default 20, the free tier)
  --report DIR               the shadow's report and contracts (default drift-report)
  --summary FILE             append a Markdown summary (default GITHUB_STEP_SUMMARY, when set)
  --service-name NAME        the name the service answers to (default proc)
  -h, --help                 this text
A value that starts with - (a token may) is given as --flag=value: --control-token=-abc.
`
