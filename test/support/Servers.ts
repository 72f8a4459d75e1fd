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
 */
import { afterAll, beforeAll } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setupFailure } from "../../scripts/localServer.js"
import { startPostgres } from "../../scripts/postgres.js"
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

/** A private PostgreSQL server for this file, its address; `purpose` says which tests need it. */
export const postgres = (purpose: string): { readonly url: string } => {
  const server = forFile(async () => {
    const started = await startPostgres(purpose)
    return { value: started.url, stop: started.stop }
  })
  return {
    get url() {
      return server.get()
    }
  }
}

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
