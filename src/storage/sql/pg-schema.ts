import type { PoolClient, QueryConfig } from 'pg'

/**
 * The PostgreSQL store's tables, in a schema of their own (`service_playground` unless told
 * otherwise), numbered like IndexedDB upgrades: `migrations[n]` takes the tables from version
 * `n` to `n + 1`, and the version reached is kept in `<schema>.schema_version`.
 *
 * Every string a caller names things with (meta keys, secret ids and keys, buckets, keys,
 * procedure names) is stored as its UTF-16BE bytes in a `bytea`: PostgreSQL compares `bytea`
 * byte by byte, which for UTF-16BE is the code-unit order the Store contract asks for, and a
 * `bytea` holds what `text` cannot (U+0000, a lone surrogate). Values and records are their
 * JSON text, which escapes both.
 */
const migrations: ((schema: string, role: SchemaRole) => string)[] = [
  (s) => `
    CREATE TABLE ${s}.meta (key bytea PRIMARY KEY, value text NOT NULL);
    CREATE TABLE ${s}.secrets (
      id bytea PRIMARY KEY,
      key bytea NOT NULL CONSTRAINT secrets_key_unique UNIQUE,
      record text NOT NULL
    );
    CREATE TABLE ${s}.keyv (
      bucket bytea NOT NULL, key bytea NOT NULL, value text NOT NULL,
      PRIMARY KEY (bucket, key)
    );
    CREATE TABLE ${s}.procs (name bytea PRIMARY KEY, record text NOT NULL);
  `,
  // The operator's controls (pg-operator.ts): one row of modes and counters, the faults with
  // the calls left of each (null: every call), strict mode's report and the journal. The
  // server's own account also lists the accounts hosted beside it (pg-accounts.ts).
  (s, role) => `
    CREATE TABLE ${s}.operator (
      only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
      strict boolean NOT NULL,
      journal integer NOT NULL,
      rate_limit text NOT NULL,
      window_start double precision NOT NULL DEFAULT '-Infinity',
      window_count integer NOT NULL DEFAULT 0,
      journal_next bigint NOT NULL DEFAULT 1
    );
    CREATE TABLE ${s}.faults (
      position bigserial PRIMARY KEY,
      id text NOT NULL UNIQUE,
      rule text NOT NULL,
      remaining integer CHECK (remaining >= 0)
    );
    CREATE TABLE ${s}.strict_report (position bigserial PRIMARY KEY, entry text NOT NULL);
    CREATE TABLE ${s}.journal (id bigint PRIMARY KEY, record text NOT NULL);
    ${
      role === 'server'
        ? `CREATE TABLE ${s}.accounts (
            id text PRIMARY KEY,
            created_at double precision NOT NULL,
            control_token_hash text NOT NULL,
            secrets text NOT NULL
          );`
        : ''
    }
  `,
]

/**
 * What a schema holds an account for: the server's own (`serve --data postgres://…`, the
 * default), which also lists the accounts hosted beside it, or one of those.
 */
export type SchemaRole = 'server' | 'hosted'

/** The version of the tables this code reads and writes. */
export const SCHEMA_VERSION = migrations.length

/** The constraint that keeps one key to one secret. */
export const SECRET_KEY_UNIQUE = 'secrets_key_unique'

/** A schema name as an identifier; only plain lower-case names, so nothing needs quoting. */
export function schemaIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) {
    throw new Error(
      `the PostgreSQL schema name ${JSON.stringify(name)} must be 1 to 63 characters of a-z, 0-9 and _, not starting with a digit`,
    )
  }
  return name
}

/**
 * Creates the tables, or brings them up to `SCHEMA_VERSION`, in one transaction under an
 * advisory lock, so that processes starting together over one database take turns. Tables of
 * a newer version (written by a newer release) are refused, never touched.
 */
export async function migrate(
  client: PoolClient,
  schema: string,
  where: string,
  role: SchemaRole = 'server',
): Promise<void> {
  await client.query('BEGIN')
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
      `service-playground:${schema}`,
    ])
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.schema_version (version integer NOT NULL)`,
    )
    const { rows } = await client.query<{ version: number }>(
      `SELECT version FROM ${schema}.schema_version`,
    )
    const found = rows[0]?.version ?? 0
    if (found > SCHEMA_VERSION) {
      throw new Error(
        `${where} holds service-playground tables of schema version ${found}, newer than this release reads (${SCHEMA_VERSION}): upgrade service-playground, or give --data another database`,
      )
    }
    for (let version = found; version < SCHEMA_VERSION; version++) {
      await client.query(migrations[version]!(schema, role))
    }
    if (found === 0) {
      await client.query(`INSERT INTO ${schema}.schema_version (version) VALUES ($1)`, [
        SCHEMA_VERSION,
      ])
    } else if (found < SCHEMA_VERSION) {
      await client.query(`UPDATE ${schema}.schema_version SET version = $1`, [SCHEMA_VERSION])
    }
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw error
  }
}

/** A statement, kept prepared on each connection when it has a name. */
export type Statement = Pick<QueryConfig, 'name' | 'text'>

/**
 * Names statements over schema `s`, so that PostgreSQL keeps each prepared on every
 * connection; or leaves them unnamed, parsed each time they run, for schemas that come and go
 * (hosted accounts), whose prepared statements would pile up on every connection.
 */
export function statementNamer(s: string, prepared: boolean) {
  return (name: string, text: string): Statement =>
    prepared ? { name: `${s}.${name}`, text } : { text }
}

/** Every statement the store runs over the tables in `s`. */
export function statements(s: string, prepared = true) {
  const named = statementNamer(s, prepared)
  /** Keys of a bucket from a lower bound (`>=` or `>`), in order, below an upper one or not. */
  const scan = (from: '>=' | '>', bounded: boolean) =>
    named(
      `scan${from === '>' ? 'After' : 'From'}${bounded ? 'Below' : ''}`,
      `SELECT key FROM ${s}.keyv WHERE bucket = $1 AND key ${from} $2
       ${bounded ? 'AND key < $4' : ''} ORDER BY key LIMIT $3`,
    )
  return {
    getMeta: named('getMeta', `SELECT value FROM ${s}.meta WHERE key = $1`),
    /**
     * Taken by every update (a count: the usage, the clock's offset) and by every commit that
     * replaces everything, until its transaction ends, in whatever process it runs.
     */
    lockUpdates: named(
      'lockUpdates',
      `SELECT pg_advisory_xact_lock(hashtext('service-playground:${s}:updates'))`,
    ),
    putMeta: named(
      'putMeta',
      `INSERT INTO ${s}.meta (key, value) VALUES ($1, $2)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    ),
    initMeta: named(
      'initMeta',
      `INSERT INTO ${s}.meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`,
    ),
    deleteMeta: named('deleteMeta', `DELETE FROM ${s}.meta WHERE key = $1`),
    deleteSecret: named('deleteSecret', `DELETE FROM ${s}.secrets WHERE id = $1`),
    getSecret: named('getSecret', `SELECT record FROM ${s}.secrets WHERE id = $1`),
    /** Reads a secret and locks it until the transaction ends: `expectSecret`. */
    lockSecret: named('lockSecret', `SELECT record FROM ${s}.secrets WHERE id = $1 FOR UPDATE`),
    putSecret: named(
      'putSecret',
      `INSERT INTO ${s}.secrets (id, key, record) VALUES ($1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET key = EXCLUDED.key, record = EXCLUDED.record`,
    ),
    getKey: named('getKey', `SELECT value FROM ${s}.keyv WHERE bucket = $1 AND key = $2`),
    setKeys: named(
      'setKeys',
      `INSERT INTO ${s}.keyv (bucket, key, value)
       SELECT * FROM unnest($1::bytea[], $2::bytea[], $3::text[])
       ON CONFLICT (bucket, key) DO UPDATE SET value = EXCLUDED.value`,
    ),
    deleteKeys: named(
      'deleteKeys',
      `DELETE FROM ${s}.keyv WHERE (bucket, key) IN
       (SELECT * FROM unnest($1::bytea[], $2::bytea[]))`,
    ),
    scans: {
      from: scan('>=', false),
      fromBelow: scan('>=', true),
      after: scan('>', false),
      afterBelow: scan('>', true),
    },
    buckets: named(
      'buckets',
      `SELECT bucket, count(*)::integer AS n FROM ${s}.keyv GROUP BY bucket ORDER BY bucket`,
    ),
    getProc: named('getProc', `SELECT record FROM ${s}.procs WHERE name = $1`),
    putProc: named(
      'putProc',
      `INSERT INTO ${s}.procs (name, record) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET record = EXCLUDED.record`,
    ),
    deleteProc: named('deleteProc', `DELETE FROM ${s}.procs WHERE name = $1`),
    allMeta: named('allMeta', `SELECT key, value FROM ${s}.meta`),
    allSecrets: named('allSecrets', `SELECT record FROM ${s}.secrets`),
    allKeys: named('allKeys', `SELECT bucket, key, value FROM ${s}.keyv ORDER BY bucket, key`),
    allProcs: named('allProcs', `SELECT record FROM ${s}.procs ORDER BY name`),
    /** Several statements, so no parameters and no name. */
    clear: `DELETE FROM ${s}.meta; DELETE FROM ${s}.secrets; DELETE FROM ${s}.keyv; DELETE FROM ${s}.procs;`,
    insertMeta: `INSERT INTO ${s}.meta (key, value) SELECT * FROM unnest($1::bytea[], $2::text[])`,
    insertSecrets: `INSERT INTO ${s}.secrets (id, key, record)
      SELECT * FROM unnest($1::bytea[], $2::bytea[], $3::text[])`,
    insertProcs: `INSERT INTO ${s}.procs (name, record) SELECT * FROM unnest($1::bytea[], $2::text[])`,
  }
}

/** The prepared statements of one schema, as `statements` makes them. */
export type Statements = ReturnType<typeof statements>
