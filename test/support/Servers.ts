/**
 * The servers a test file needs, each started privately for that file alone
 * (before its first test, stopped after its last) by the file that uses it:
 * a run of the client's tests needs none of them installed. A server that
 * is missing or cannot start fails the file's tests at once, in one line
 * saying what is missing and how to install it.
 *
 * @example
 * const redis = Servers.redis("the tests of shared admission need it")
 * it.live("…", () => Effect.gen(function*() { const port = redis.port }))
 * it.live("…", () => Effect.gen(function*() { const url = yield* Servers.postgresUrl("the mirror's tests need it") }))
 */
import { afterAll, beforeAll } from "@effect/vitest"
import { Effect } from "effect"
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setupFailure } from "../../scripts/localServer.js"
import { type Server as PgServer, startPostgres } from "../../scripts/postgres.js"
import { startRedis } from "../../scripts/redis.js"

/** How long a file waits for one of its servers to start, at most. */
const startTimeout = 30_000

/** A server started for the file: what it gives, read once it has started. */
const forFile = <A>(start: () => Promise<{ readonly value: A; readonly stop: () => Promise<void> }>): { readonly get: () => A } => {
  let started: { readonly value: A; readonly stop: () => Promise<void> } | undefined
  beforeAll(async () => {
    started = await start()
  }, startTimeout)
  afterAll(() => started?.stop(), startTimeout)
  return {
    get: () => {
      if (started === undefined) throw setupFailure("the file's server has not started")
      return started.value
    }
  }
}

/** A private `redis-server` for this file; `purpose` says which tests need it. */
export const redis = (purpose: string): { readonly port: number; readonly url: string } => {
  const server = forFile(async () => {
    const started = await startRedis(purpose)
    return { value: started, stop: started.stop }
  })
  return {
    get port() {
      return server.get().port
    },
    get url() {
      return server.get().url
    }
  }
}

/** The file's PostgreSQL server, once a test has asked for it. */
let postgresServer: Promise<PgServer> | undefined

/**
 * Stops the file's PostgreSQL server, if a test started one; registered
 * after every file by `test/setup/eachFile.ts`, since files that share a
 * worker share this module.
 */
export const stopPostgres = async (): Promise<void> => {
  const started = postgresServer
  postgresServer = undefined
  await started?.then((server) => server.stop(), () => undefined)
}

/**
 * The address of a private PostgreSQL server for this file, started by the
 * first test that asks (a file whose tests never ask starts none) and
 * stopped after the file's last test; `purpose` says which tests need it.
 */
export const postgresUrl = (purpose: string): Effect.Effect<string> =>
  Effect.promise(() => (postgresServer ??= startPostgres(purpose)).then((server) => server.url))

const tmuxInstall = "install it with `apt-get install -y tmux` (or `brew install tmux`)"

/**
 * Checks, before the file's tests, that tmux is installed and can start a
 * server (each test's terminal starts a server of its own, `Terminal.open`).
 */
export const tmux = (purpose: string): void => {
  beforeAll(() => {
    if (spawnSync("tmux", ["-V"], { stdio: "ignore", timeout: 5_000 }).error !== undefined) {
      throw setupFailure(`tmux is not installed, and ${purpose}: ${tmuxInstall}`)
    }
    const folder = mkdtempSync(join(tmpdir(), "tmux-check-"))
    const run = (args: ReadonlyArray<string>) =>
      spawnSync("tmux", ["-S", join(folder, "socket"), "-f", "/dev/null", ...args], { encoding: "utf8", timeout: 5_000, killSignal: "SIGKILL" })
    try {
      const started = run(["new-session", "-d", "-x", "20", "-y", "5", "sleep", "10"])
      if (started.error !== undefined || started.status !== 0) {
        const reason = started.error?.message ?? (started.stderr.trim() || `it exited with ${started.signal ?? `code ${started.status}`}`)
        throw setupFailure(`tmux could not start a server (${reason.split("\n")[0]}), and ${purpose}: ${tmuxInstall}`)
      }
    } finally {
      run(["kill-server"])
      rmSync(folder, { recursive: true, force: true })
    }
  }, startTimeout)
}
