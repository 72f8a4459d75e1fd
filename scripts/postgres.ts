/**
 * A private PostgreSQL server for the tests and benchmarks of the mirror:
 * `initdb` into a temporary directory, `postgres` on a free loopback port
 * (trust authentication, no fsync), stopped and removed afterwards.
 *
 * The server binaries are looked up on the `PATH` and in Debian's
 * `/usr/lib/postgresql/<version>/bin`. As root, the server runs as the
 * `postgres` user the Debian package creates (PostgreSQL refuses to run as
 * root). A server that is missing or does not answer within 20 seconds is
 * an error of one line saying what is missing and how to install it.
 *
 * Imports nothing of Effect, so that the tests of both editions start their
 * servers with it; each runs statements with its own PostgreSQL client
 * (`scripts/postgresStatement.ts` for the Effect 3 edition,
 * `effect4/test/support/Mirror.ts` for the Effect 4 one).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { freePort, setupFailure } from "./localServer.js"

const install = "install it with `apt-get install -y postgresql` (or `brew install postgresql`)"

/** The server binaries the setup runs. */
const binaries = ["initdb", "postgres", "pg_isready"]

/** The directory of PostgreSQL's server binaries: the one on the `PATH` that has them all, or Debian's newest. */
const binDirectory = (): string | undefined => {
  const onPath = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8", timeout: 5_000 }).stdout.trim()
  const debian = "/usr/lib/postgresql"
  const versions = existsSync(debian) ? readdirSync(debian).sort((a, b) => Number(b) - Number(a)) : []
  const candidates = [...(onPath === "" ? [] : [path.dirname(onPath)]), ...versions.map((version) => path.join(debian, version, "bin"))]
  return candidates.find((directory) => binaries.every((binary) => existsSync(path.join(directory, binary))))
}

/** The uid and gid of the `postgres` user, when the setup runs as root. */
const serverUser = (purpose: string): { readonly uid: number; readonly gid: number } | undefined => {
  if (process.getuid?.() !== 0) return undefined
  const ids = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }).stdout.trim()
  const groups = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" }).stdout.trim()
  if (ids === "" || groups === "") throw setupFailure(`${purpose} runs PostgreSQL as the user postgres, which does not exist: ${install}`)
  return { uid: Number(ids), gid: Number(groups) }
}

/** Whether the server accepts connections yet. */
const ready = (bin: string, port: number) =>
  spawnSync(path.join(bin, "pg_isready"), ["-h", "127.0.0.1", "-p", String(port), "-q"], { timeout: 2_000 }).status === 0

/** A running private server: its address (user `postgres`, database `postgres`) and how to stop it. */
export interface Server {
  readonly url: string
  /** Stops the server (fast shutdown) and removes its files. */
  readonly stop: () => Promise<void>
}

/**
 * Starts a private PostgreSQL server, or fails with one line saying what is
 * missing and how to install it; `purpose` says who needs it.
 */
export const startPostgres = async (purpose: string): Promise<Server> => {
  const bin = binDirectory()
  if (bin === undefined) throw setupFailure(`PostgreSQL (initdb, postgres) is not installed, and ${purpose}: ${install}`)
  const user = serverUser(purpose)
  const directory = mkdtempSync(path.join(tmpdir(), "effect-catalog-pg-"))
  const data = path.join(directory, "data")
  if (user !== undefined) chownSync(directory, user.uid, user.gid)
  const asServer = user === undefined ? {} : { uid: user.uid, gid: user.gid }
  const initdb = spawnSync(path.join(bin, "initdb"), ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"], {
    ...asServer,
    encoding: "utf8",
    timeout: 20_000
  })
  if (initdb.status !== 0) {
    rmSync(directory, { recursive: true, force: true })
    throw setupFailure(`initdb could not create a PostgreSQL cluster (${(initdb.stderr || initdb.error?.message || "").trim().split("\n")[0]}); ${purpose}: ${install}`)
  }
  const port = await freePort()
  const server: ChildProcess = spawn(
    path.join(bin, "postgres"),
    ["-D", data, "-p", String(port), "-k", directory, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=200"],
    { ...asServer, stdio: ["ignore", "ignore", "pipe"] }
  )
  let exited: string | undefined
  let log = ""
  server.stderr?.on("data", (chunk: Buffer) => (log = (log + chunk.toString()).slice(-2_000)))
  server.once("error", (error) => (exited = error.message))
  server.once("exit", (code, signal) => (exited = `it exited with ${signal ?? `code ${code}`}`))
  const deadline = Date.now() + 20_000
  while (!ready(bin, port)) {
    if (exited !== undefined || Date.now() > deadline) {
      server.kill("SIGKILL")
      rmSync(directory, { recursive: true, force: true })
      const reason = exited ?? "no answer within 20 seconds"
      const said = log.trim().split("\n").pop() ?? ""
      throw setupFailure(`PostgreSQL could not be started on port ${port} (${reason}${said === "" ? "" : `: ${said}`}); ${purpose}: ${install}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () =>
      new Promise<void>((resolve) => {
        const removed = () => {
          rmSync(directory, { recursive: true, force: true })
          resolve()
        }
        if (server.exitCode !== null || server.signalCode !== null) return removed()
        server.once("exit", removed)
        // SIGINT: PostgreSQL's fast shutdown, which ends open sessions.
        server.kill("SIGINT")
      })
  }
}

/** The address of another database of the server at `url`. */
export const databaseUrl = (url: string, name: string): string => url.replace(/\/[^/]*$/, `/${name}`)
