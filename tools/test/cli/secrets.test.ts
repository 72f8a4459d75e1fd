/**
 * No secret of the `catalog` command anywhere but where it is used: the API
 * key, a PostgreSQL password (of a role that needs it) and a Redis password
 * (of a `redis-server` that needs it) are looked for in the command's
 * stdout and stderr (debug logs and failing runs included), the SQLite
 * mirror, the state files and `/proc/PID/cmdline` of the running command,
 * which runs as it ships (bundled by the test setup) against a simulator
 * over HTTP. And the two functions that hide them: addresses without their
 * credentials, and the process title.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { Context, Effect, Layer, Redacted, Schedule } from "effect"
import * as PgClient from "@effect/sql-pg/PgClient"
import fc from "fast-check"
import { inject } from "vitest"
import { spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { cleanEnv } from "../../../scripts/cleanEnv.js"
import { freePort } from "../../../scripts/localServer.js"
import { databaseUrl } from "../../../scripts/postgres.js"
import { runOn } from "../../../scripts/postgresStatement.js"
import { withoutSecrets } from "../../src/cli/internal/ProcessTitle.js"
import { withoutCredentials } from "../../../rules/src/Credentials.js"
import * as Simulator from "../../src/simulator/Simulator.js"
import * as Servers from "../../../test/support/Servers.js"

const postgres = Servers.postgresUrl("the tests of database passwords need it")

const sizes = { models: 300, skills: 10, mcps: 10, organizations: 10, providers: 5, families: 6, topics: 4, articles: 4 }

/** A secret no run may show: long and random, so that it appears nowhere by chance. */
const secret = (name: string) => `${name}-S3cr3t-${randomBytes(12).toString("hex")}`

describe("addresses without their credentials", () => {
  it("hide the userinfo password and every credential parameter of the drivers, in any case, and keep the rest", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["postgres://mirror:PW@db.internal:5432/catalog", "postgres://mirror:***@db.internal:5432/catalog"],
      ["postgres://mirror@db/catalog?password=PW", "postgres://mirror@db/catalog?password=***"],
      ["postgres://mirror@db/catalog?PASSWORD=PW&Password=PW2", "postgres://mirror@db/catalog?PASSWORD=***&Password=***"],
      ["postgresql://db/catalog?user=mirror&pass%77ord=PW", "postgresql://db/catalog?user=mirror&password=***"],
      [
        "postgres://db/catalog?sslmode=verify-full&sslkey=/keys/client.key&sslpassword=PW&sslcert=/keys/client.crt",
        "postgres://db/catalog?sslmode=verify-full&sslkey=%2Fkeys%2Fclient.key&sslpassword=***&sslcert=%2Fkeys%2Fclient.crt"
      ],
      ["postgres://db/catalog?passfile=/home/me/.pgpass&application_name=mirror", "postgres://db/catalog?passfile=/home/me/.pgpass&application_name=mirror"],
      ["postgres://u:PW@db/catalog?password=PW2&password=PW3#password=PW4", "postgres://u:***@db/catalog?password=***&password=***"],
      ["redis://:PW@127.0.0.1:6379/0", "redis://:***@127.0.0.1:6379/0"],
      ["rediss://default:PW@cache:6380?sentinelPassword=PW2&sslPassPhrase=PW3", "rediss://default:***@cache:6380?sentinelPassword=***&sslPassPhrase=***"],
      ["redis://cache:6379?passwd=PW&token=PW2&client_secret=PW3&db=2", "redis://cache:6379?passwd=***&token=***&client_secret=***&db=2"],
      ["postgres://mirror@db/catalog", "postgres://mirror@db/catalog"]
    ]
    for (const [address, shown] of cases) expect(withoutCredentials(address), address).toBe(shown)
  })

  it("show nothing of an address they cannot read", () => {
    for (const address of ["postgres://u:pa#ss@db/catalog", "postgres://u:PW@/catalog", "postgres://u:PW@db:port/catalog", "not an address"]) {
      expect(withoutCredentials(address), address).toBeUndefined()
    }
  })

  it("never keep a password, whatever it holds, in the userinfo or the query", () =>
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40, unit: "grapheme" }),
        fc.constantFrom("password", "PASSWORD", "sslpassword", "sentinelPassword"),
        (text, parameter) => {
          const password = `S3cr3t${text}`
          const encoded = encodeURIComponent(password)
          const shown = withoutCredentials(`postgres://mirror:${encoded}@db/catalog?${parameter}=${encoded}&sslmode=require`)
          expect(shown).toBe(`postgres://mirror:***@db/catalog?${parameter}=***&sslmode=require`)
        }
      )
    ))
})

describe("the process title", () => {
  const argv = (...args: ReadonlyArray<string>) => ["/usr/bin/node", "/usr/lib/catalog.js", ...args]

  it("hides the key given as a flag's value and the passwords of addresses, and keeps the rest of the command readable", () => {
    expect(withoutSecrets(argv("get", "model", "acme", "ok", "--api-key", "KEY"))).toBe("catalog get model acme ok --api-key ***")
    expect(withoutSecrets(argv("stats", "--api-key=KEY", "--format", "table"))).toBe("catalog stats --api-key=*** --format table")
    expect(withoutSecrets(argv("mirror", "--db", "postgres://u:PW@db/catalog?sslpassword=PW2"))).toBe(
      "catalog mirror --db postgres://u:***@db/catalog?sslpassword=***"
    )
    expect(withoutSecrets(argv("mirror", "--db=postgres://u@db/catalog?password=PW"))).toBe("catalog mirror --db=postgres://u@db/catalog?password=***")
    expect(withoutSecrets(argv("scan", "models", "--redis", "redis://:PW@cache:6379"))).toBe("catalog scan models --redis redis://:***@cache:6379")
    expect(withoutSecrets(argv("mirror", "--db", "postgres://u:pa#ss@db/catalog"))).toBe("catalog mirror --db ***")
  })

  it("stays as it was when the command line holds no secret", () => {
    expect(withoutSecrets(argv("scan", "models", "--max", "5", "--api-key-file", "/run/secrets/key"))).toBeUndefined()
    expect(withoutSecrets(argv("mirror", "--db", "postgres://u@db/catalog", "--redis", "redis://cache:6379"))).toBeUndefined()
  })
})

/** What the runs against a simulator use: its key, and a PostgreSQL and a Redis that need passwords. */
interface Fixture {
  readonly simulator: Simulator.Service
  readonly apiKey: string
  /** A database of the test server whose role logs in with `password` only. */
  readonly postgres: { readonly host: string; readonly role: string; readonly database: string; readonly password: string }
  /** A `redis-server` of this file's own that needs `password`. */
  readonly redis: { readonly port: number; readonly password: string }
  /** The folder of the runs' state files. */
  readonly stateDirectory: string
}

class Secrets extends Context.Tag("test/Secrets")<Secrets, Fixture>() {}

/**
 * A role with a password and a database of its own in the test server, the
 * server told to ask that role for it (its other roles keep logging in
 * without one): the first line of `pg_hba.conf` is the role's, and the
 * server reloads it. Ready once a wrong password is refused.
 */
const postgresWithPassword = Effect.gen(function*() {
  const admin = yield* postgres
  const role = `catalog_secrets_${randomBytes(4).toString("hex")}`
  const password = secret("postgres")
  yield* runOn(admin, `CREATE ROLE ${role} LOGIN PASSWORD '${password}'`)
  yield* runOn(admin, `CREATE DATABASE ${role} OWNER ${role}`)
  // The file is read before COPY opens it for writing, which empties it.
  yield* runOn(
    admin,
    `DO $$ DECLARE hba text := pg_read_file(current_setting('hba_file')); BEGIN EXECUTE format($copy$COPY (
      SELECT line FROM (
        SELECT 0::bigint AS n, 'host all ${role} 127.0.0.1/32 scram-sha-256' AS line
        UNION ALL SELECT n, translate(line, E'\\t', ' ') FROM regexp_split_to_table(%L, E'\\n') WITH ORDINALITY AS lines(line, n)
      ) AS hba ORDER BY n
    ) TO %L$copy$, hba, current_setting('hba_file')); END $$`
  )
  yield* runOn(admin, "SELECT pg_reload_conf()")
  const host = new URL(admin).host
  const wrong = Redacted.make(`postgres://${role}:wrong@${host}/${role}`)
  yield* Effect.flatMap(PgClient.PgClient, (sql) => sql`SELECT 1`).pipe(
    Effect.provide(PgClient.layer({ url: wrong, maxConnections: 1, connectTimeout: "2 seconds" })),
    Effect.flip,
    Effect.retry(Schedule.spaced("100 millis").pipe(Schedule.intersect(Schedule.recurs(100))))
  )
  return { host, role, database: role, password }
})

/** A `redis-server` on a free port that needs a password, stopped with the scope. */
const redisWithPassword = Effect.gen(function*() {
  const port = yield* Effect.promise(freePort)
  const password = secret("redis")
  yield* Effect.acquireRelease(
    Effect.sync(() =>
      spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--requirepass", password, "--save", "", "--appendonly", "no"], {
        stdio: "ignore"
      })
    ),
    (server) => Effect.sync(() => server.kill("SIGKILL"))
  )
  const listening = Effect.async<void, Error>((resume) => {
    const socket = connect(port, "127.0.0.1")
    socket.once("connect", () => {
      socket.destroy()
      resume(Effect.void)
    })
    socket.once("error", (error) => resume(Effect.fail(error)))
  })
  yield* Effect.retry(listening, Schedule.spaced("50 millis").pipe(Schedule.intersect(Schedule.recurs(200))))
  return { port, password }
})

const fixture = Layer.scoped(
  Secrets,
  Effect.gen(function*() {
    const simulator = yield* Simulator.Simulator
    const stateDirectory = yield* Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "catalog-secrets-"))),
      (folder) => Effect.sync(() => rmSync(folder, { recursive: true, force: true }))
    )
    return {
      simulator,
      apiKey: Redacted.value(simulator.keys.full),
      postgres: yield* postgresWithPassword,
      redis: yield* redisWithPassword,
      stateDirectory
    }
  })
).pipe(Layer.provide(Simulator.layer({ sizes, enforceLimits: false })))

/** What a run printed, its exit code, and the command lines `/proc` showed while it ran. */
interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  readonly cmdlines: ReadonlyArray<string>
}

interface RunOptions {
  readonly env?: Readonly<Record<string, string>>
  /** What the command reads on standard input. */
  readonly input?: string
  /** Once this is done, `/proc/PID/cmdline` is read every 20 ms until the command ends. */
  readonly sampleAfter?: Effect.Effect<void>
}

/** Runs the command as it ships, with no `CATALOG_` setting but the base URL, the time scale and the state folder; at most 60 s. */
const run = (args: ReadonlyArray<string>, options: RunOptions = {}) =>
  Effect.gen(function*() {
    const { simulator, stateDirectory } = yield* Secrets
    const env = {
      ...Object.fromEntries(Object.entries(cleanEnv()).filter(([name]) => !name.startsWith("CATALOG_"))),
      CATALOG_BASE_URL: simulator.baseUrl,
      CATALOG_TIME_SCALE: "0.001",
      CATALOG_STATE_DIR: stateDirectory,
      ...options.env
    }
    const output = { stdout: "", stderr: "" }
    const cmdlines = new Set<string>()
    const { child, closed } = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const child = spawn(process.execPath, [inject("catalogCommand"), ...args], {
          cwd: tmpdir(),
          env,
          stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"]
        })
        child.stdout?.on("data", (chunk) => (output.stdout += chunk))
        child.stderr?.on("data", (chunk) => (output.stderr += chunk))
        child.stdin?.end(options.input)
        const closed = new Promise<number | null>((resolve) => child.once("close", resolve))
        return { child, closed }
      }),
      ({ child }) => Effect.sync(() => child.kill("SIGKILL"))
    )
    const sample = Effect.sync(() => {
      try {
        cmdlines.add(readFileSync(`/proc/${child.pid}/cmdline`, "utf8").replace(/\0+$/, "").replaceAll("\0", " "))
      } catch {
        // The process has ended.
      }
    })
    if (options.sampleAfter !== undefined) {
      yield* Effect.forkScoped(Effect.zipRight(options.sampleAfter, Effect.repeat(sample, Schedule.spaced("20 millis"))))
    }
    const code = yield* Effect.promise(() => closed).pipe(Effect.timeoutFail({ duration: "60 seconds", onTimeout: () => new Error(`catalog ${args.join(" ")} did not end`) }))
    return { code, ...output, cmdlines: [...cmdlines].filter((cmdline) => cmdline !== "") } satisfies Ran
  }).pipe(Effect.scoped)

/** Every secret of the fixture, and the wrong ones the runs give. */
const wrong = { apiKey: secret("key"), postgres: secret("postgres"), redis: secret("redis") }
const secretsOf = ({ apiKey, postgres, redis }: Fixture) => [apiKey, postgres.password, redis.password, wrong.apiKey, wrong.postgres, wrong.redis]

/** No secret in `text`. */
const expectNoSecret = (fixture: Fixture, text: string, where: string) => {
  for (const value of secretsOf(fixture)) expect(text, where).not.toContain(value)
}

/** A run's outcome, and no secret in what it printed nor in its command line while it ran. */
const expectRun = (fixture: Fixture, ran: Ran, code: number, where: string) => {
  expect(ran.code, `${where}\n${ran.stderr}`).toBe(code)
  expectNoSecret(fixture, ran.stdout + ran.stderr, where)
  for (const cmdline of ran.cmdlines) expectNoSecret(fixture, cmdline, `${where}: /proc/PID/cmdline`)
}

/** Every file under a folder, as bytes read as Latin-1 (a secret is ASCII). */
const filesUnder = (folder: string): ReadonlyArray<readonly [string, string]> =>
  readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name)
      return [path, readFileSync(path, "latin1")] as const
    })

/** A folder for the life of the scope. */
const scratch = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "catalog-secrets-files-"))),
  (folder) => Effect.sync(() => rmSync(folder, { recursive: true, force: true }))
)

/** Waits until the simulator has answered one more request than now: the command runs by then. */
const nextAnswer = Effect.gen(function*() {
  const { simulator } = yield* Secrets
  const before = (yield* simulator.answered).length
  return simulator.answered.pipe(
    Effect.repeat({ until: (answered) => answered.length > before, schedule: Schedule.spaced("10 millis") }),
    Effect.asVoid
  )
})

/** Runs an effect with every request of the simulator answered slowly, so that a run lasts while its command line is read. */
const slowly = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(Secrets, ({ simulator }) =>
    Effect.acquireUseRelease(
      simulator.setFaults({ slow: 1, slowMillis: 150 }),
      () => effect,
      () => simulator.setFaults({ slow: 0 })
    ))

const postgresUrl = ({ postgres }: Fixture, password: string, host = postgres.host) =>
  `postgres://${postgres.role}:${password}@${host}/${postgres.database}`

const redisUrl = ({ redis }: Fixture, password: string) => `redis://:${password}@127.0.0.1:${redis.port}`

layer(fixture, { excludeTestServices: true, timeout: 60_000 })("the catalog command keeps its secrets", (it) => {
  it.scoped("a key and passwords given as flags' values are gone from /proc/PID/cmdline while the command runs", () =>
    Effect.gen(function*() {
      const fixture = yield* Secrets
      const scanned = yield* slowly(
        run(
          ["scan", "models", "--page-size", "10", "--max", "80", "--api-key", fixture.apiKey, "--redis", redisUrl(fixture, fixture.redis.password)],
          { sampleAfter: yield* nextAnswer }
        )
      )
      expectRun(fixture, scanned, 0, "scan with --api-key and --redis")
      expect(scanned.stdout.split("\n").filter((line) => line !== "")).toHaveLength(80)
      expect(scanned.cmdlines.length).toBeGreaterThan(0)
      expect(scanned.cmdlines).toContain(
        `catalog scan models --page-size 10 --max 80 --api-key *** --redis redis://:***@127.0.0.1:${fixture.redis.port}`
      )

      const database = `${postgresUrl(fixture, fixture.postgres.password)}?application_name=secrets&password=${fixture.postgres.password}`
      const mirrored = yield* slowly(
        run(["mirror", "models", "--db", database, "--api-key", fixture.apiKey, "--no-limits"], { sampleAfter: yield* nextAnswer })
      )
      expectRun(fixture, mirrored, 0, "mirror with --api-key and --db postgres://role:PW@…?password=PW")
      expect(mirrored.cmdlines).toContain(
        `catalog mirror models --db postgres://${fixture.postgres.role}:***@${fixture.postgres.host}/${fixture.postgres.database}?application_name=secrets&password=*** --api-key *** --no-limits`
      )
    }), 120_000)

  it.scoped("the key from a flag, a file, standard input or the environment, in that order, is never printed, even at debug level or refused", () =>
    Effect.gen(function*() {
      const fixture = yield* Secrets
      const folder = yield* scratch
      const keyFile = join(folder, "key")
      const wrongKeyFile = join(folder, "wrong-key")
      const emptyFile = join(folder, "empty")
      const twoLines = join(folder, "two-lines")
      writeFileSync(keyFile, `${fixture.apiKey}\n`)
      writeFileSync(wrongKeyFile, wrong.apiKey)
      writeFileSync(emptyFile, "\n")
      writeFileSync(twoLines, `${fixture.apiKey}\n${wrong.apiKey}\n`)
      const get = ["get", "model", ...((yield* fixture.simulator.listed("models"))[0]?.id.split("/") ?? [])]
      const withWrongKey = { env: { CATALOG_API_KEY: wrong.apiKey } }

      const [flag, file, stdin, environment, refused, both, empty, missing, notOneLine, endless] = yield* Effect.all([
        run([...get, "--api-key", fixture.apiKey, "--log-level", "debug"], withWrongKey),
        run([...get, "--api-key-file", keyFile, "--log-level", "debug"], withWrongKey),
        run([...get, "--api-key-file", "-"], { ...withWrongKey, input: `${fixture.apiKey}\r\n` }),
        run(get, { env: { CATALOG_API_KEY: fixture.apiKey } }),
        run([...get, "--api-key-file", wrongKeyFile, "--log-level", "debug"]),
        run([...get, "--api-key", fixture.apiKey, "--api-key-file", keyFile]),
        run([...get, "--api-key-file", emptyFile]),
        run([...get, "--api-key-file", join(folder, "missing")]),
        run([...get, "--api-key-file", twoLines]),
        run([...get, "--api-key-file", "/dev/zero"])
      ], { concurrency: 2 })
      for (const [ran, where] of [[flag, "--api-key"], [file, "--api-key-file"], [stdin, "--api-key-file -"], [environment, "CATALOG_API_KEY"]] as const) {
        expectRun(fixture, ran, 0, where)
        expect(JSON.parse(ran.stdout)).toHaveProperty("id")
      }
      expectRun(fixture, refused, 3, "a refused key from a file")
      expectRun(fixture, both, 2, "--api-key and --api-key-file")
      expect(both.stderr).toContain("--api-key and --api-key-file do not go together")
      expectRun(fixture, empty, 2, "an empty key file")
      expect(empty.stderr).toContain(`--api-key-file ${emptyFile} is empty`)
      expectRun(fixture, missing, 2, "a missing key file")
      expect(missing.stderr).toContain(`--api-key-file ${join(folder, "missing")} cannot be read: ENOENT`)
      expectRun(fixture, notOneLine, 2, "a key file of two lines")
      expect(notOneLine.stderr).toContain(`--api-key-file ${twoLines} holds more than one line`)
      expectRun(fixture, endless, 2, "a key file without end")
      expect(endless.stderr).toContain("--api-key-file /dev/zero holds more than 64 KiB")
    }), 120_000)

  it.scoped("a PostgreSQL password in --db, --db-file or CATALOG_DB_URL is shown as *** when the password is wrong or missing or the host wrong", () =>
    Effect.gen(function*() {
      const fixture = yield* Secrets
      const folder = yield* scratch
      const right = postgresUrl(fixture, fixture.postgres.password)
      const dbFile = join(folder, "database")
      writeFileSync(dbFile, `${right}\n`)
      const key = { CATALOG_API_KEY: fixture.apiKey }
      const mirror = (...args: ReadonlyArray<string>) => ["mirror", "models", "--no-limits", ...args]
      const withoutPasswordAt = (host: string) => `postgres://${fixture.postgres.role}:***@${host}/${fixture.postgres.database}`

      // One sync of a database at a time: these two write it.
      const file = yield* run(mirror("--db-file", dbFile), { env: { ...key, CATALOG_DB_URL: postgresUrl(fixture, wrong.postgres) } })
      const environment = yield* run(mirror("--log-level", "debug"), { env: { ...key, CATALOG_DB_URL: right } })
      const [wrongPassword, wrongPasswordInQuery, wrongHost, both] = yield* Effect.all([
        run(mirror("--db", postgresUrl(fixture, wrong.postgres), "--log-level", "debug"), { env: key }),
        run(
          mirror("--db", `postgres://${fixture.postgres.role}@${fixture.postgres.host}/${fixture.postgres.database}?PassWord=${wrong.postgres}`, "--log-level", "debug"),
          { env: key }
        ),
        run(mirror("--db", postgresUrl(fixture, fixture.postgres.password, "127.0.0.1:1"), "--log-level", "debug"), { env: key }),
        run(mirror("--db", right, "--db-file", dbFile), { env: key })
      ], { concurrency: 2 })
      expectRun(fixture, file, 0, "--db-file (over CATALOG_DB_URL)")
      expectRun(fixture, environment, 0, "CATALOG_DB_URL")
      expectRun(fixture, wrongPassword, 7, "a wrong password")
      expect(wrongPassword.stderr).toContain(`The mirror's database ${withoutPasswordAt(fixture.postgres.host)} cannot be used`)
      expect(wrongPassword.stderr).toContain("password authentication failed")
      // node-postgres reads `password` alone: this role is given no password, which ends the run too.
      expectRun(fixture, wrongPasswordInQuery, 7, "a ?PassWord= the driver does not read")
      expect(wrongPasswordInQuery.stderr).toContain("?PassWord=*** cannot be used")
      expectRun(fixture, wrongHost, 7, "a host where no PostgreSQL listens")
      expect(wrongHost.stderr).toContain(`The mirror's database ${withoutPasswordAt("127.0.0.1:1")} cannot be used`)
      expectRun(fixture, both, 2, "--db and --db-file")

      const rows = yield* runOn(databaseUrl(yield* postgres, fixture.postgres.database), "SELECT count(*)::int AS n FROM models")
      expect(rows).toEqual([{ n: sizes.models }])
    }), 120_000)

  it.scoped("neither the SQLite mirror nor the state files hold the key, and a Redis password is never printed, right or wrong", () =>
    Effect.gen(function*() {
      const fixture = yield* Secrets
      const folder = yield* scratch
      const sqlite = join(folder, "catalog.sqlite")
      const key = { CATALOG_API_KEY: fixture.apiKey }

      const mirrored = yield* run(["mirror", "models", "--db", sqlite, "--api-key", fixture.apiKey, "--log-level", "debug"])
      const planned = yield* run(["plan", "--db", sqlite, "--format", "json"], { env: key })
      const [shared, refusedPassword, noRedis] = yield* Effect.all([
        run(["scan", "models", "--max", "5", "--log-level", "debug"], { env: { ...key, CATALOG_REDIS_URL: redisUrl(fixture, fixture.redis.password) } }),
        run(["scan", "models", "--max", "5", "--redis", redisUrl(fixture, wrong.redis), "--log-level", "debug"], { env: key }),
        run(["stats", "--redis", `redis://:${fixture.redis.password}@127.0.0.1:1`, "--log-level", "debug"], { env: key })
      ], { concurrency: 2 })
      expectRun(fixture, mirrored, 0, "mirror into SQLite with --api-key")
      expectRun(fixture, planned, 0, "plan of the SQLite mirror")
      expectRun(fixture, shared, 0, "scan through a Redis with its password")
      expectRun(fixture, refusedPassword, 9, "a wrong Redis password")
      expectRun(fixture, noRedis, 9, "no Redis where the URL says")

      const sqliteFiles = filesUnder(folder)
      expect(sqliteFiles.map(([path]) => path)).toContain(sqlite)
      for (const [path, bytes] of sqliteFiles) expectNoSecret(fixture, bytes, path)
      const stateFiles = filesUnder(fixture.stateDirectory)
      expect(stateFiles.length).toBeGreaterThan(0)
      for (const [path, bytes] of stateFiles) expectNoSecret(fixture, bytes, path)
    }), 120_000)
})
