/**
 * The SQLite driver holds: a sync of 1,000,000 models into an SQLite file
 * (better-sqlite3, `MirrorDatabase.layerSqlite`), by an Effect 4 process
 * killed with SIGKILL while a page's transaction is open, then reopened: the
 * file is intact, holds whole pages only, as many items as its run counted,
 * and the next sync goes on from the checkpoint: every model once, for one
 * full scan and at most one page more.
 *
 * The kill lands inside a transaction: the test sees the write lock held
 * from a connection of its own (`BEGIN IMMEDIATE` is refused), stops the
 * process (SIGSTOP), sees the lock still held, and only then kills it;
 * otherwise it lets the process go on (SIGCONT) and tries again. Real time,
 * about a minute on a quiet machine.
 */
import { describe, expect, it } from "@effect/vitest"
import Sqlite from "better-sqlite3"
import { Effect, Layer, Schedule, Stream } from "effect"
import { Mirror, MirrorDatabase } from "effect-catalog/mirror"
import { Simulator } from "effect-catalog/simulator"
import type { ChildProcess } from "node:child_process"
import * as Client from "../support/Client.js"
import * as MirrorStore from "../support/Mirror.js"

const models = 1_000_000

/** Whether another connection holds the file's write lock: an open write transaction. */
const writeLockHeld = (probe: Sqlite.Database): boolean => {
  try {
    probe.exec("BEGIN IMMEDIATE")
    probe.exec("ROLLBACK")
    return false
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "SQLITE_BUSY") return true
    throw error
  }
}

/** Kills `child` with SIGKILL while it holds the write lock: stopped first, killed only if it still holds it. */
const killInsideTransaction = (child: ChildProcess, probe: Sqlite.Database) =>
  Effect.sync(() => {
    if (!writeLockHeld(probe)) return false
    child.kill("SIGSTOP")
    if (writeLockHeld(probe)) return child.kill("SIGKILL")
    child.kill("SIGCONT")
    return false
  }).pipe(Effect.repeat({ until: (killed) => killed, schedule: Schedule.spaced("1 millis") }))

describe("the SQLite driver (better-sqlite3)", () => {
  it.live("1,000,000 models: a sync killed by SIGKILL inside a page's transaction, the file reopened intact with whole pages only, the next sync goes on: every model once, one full scan and at most one page more", () =>
    Effect.gen(function*() {
      const simulator = yield* Simulator.Simulator
      const file = yield* MirrorStore.sqliteFile
      const child = yield* MirrorStore.syncProcess(simulator, file)
      yield* MirrorStore.modelPages(simulator).pipe(Effect.repeat({ until: (pages) => pages >= 1_500, schedule: Schedule.spaced("50 millis") }))
      const probe = yield* Effect.acquireRelease(Effect.sync(() => new Sqlite(file, { timeout: 0 })), (probe) => Effect.sync(() => probe.close()))
      yield* killInsideTransaction(child, probe).pipe(Effect.timeout("60 seconds"))
      expect(yield* MirrorStore.ended(child)).toBe("SIGKILL")
      expect(probe.pragma("integrity_check", { simple: true })).toBe("ok")

      const mirror = Layer.orDie(MirrorDatabase.layerSqlite(file))
      const killed = yield* Effect.gen(function*() {
        const [run] = yield* Mirror.runs(["models"], 1)
        const [rows] = yield* MirrorDatabase.MirrorDatabase.use(({ sql }) => sql<{ readonly n: number }>`SELECT count(*) AS n FROM models`)
        return { run, rows: rows?.n ?? 0 }
      }).pipe(Effect.provide(mirror))
      // The run never ended: it stands at its last committed page, whose items are all there.
      expect(killed.run).toMatchObject({ status: "running", items: killed.rows })
      expect(killed.run?.checkpoint).not.toBeNull()
      expect(killed.rows).toBeGreaterThan(0)
      expect(killed.rows).toBeLessThan(models)

      const changes = yield* Mirror.sync("models").pipe(Stream.runCount, Effect.provide(mirror))
      expect(changes).toBe(models - killed.rows)
      const after = yield* Effect.gen(function*() {
        const [run] = yield* Mirror.runs(["models"], 1)
        const [rows] = yield* MirrorDatabase.MirrorDatabase.use(({ sql }) =>
          sql<{ readonly n: number; readonly live: number; readonly distinct: number }>`
            SELECT count(*) AS n, count(*) FILTER (WHERE deleted_at IS NULL) AS live, count(DISTINCT id) AS "distinct" FROM models`)
        return { run, rows }
      }).pipe(Effect.provide(mirror))
      expect(after.rows).toEqual({ n: models, live: models, distinct: models })
      expect(after.run).toMatchObject({ status: "complete", scan: 1, inserted: models - killed.rows })
      // One full scan is 10,000 pages; the page under way when the process was killed is asked for again.
      expect(yield* MirrorStore.modelPages(simulator)).toBeLessThanOrEqual(models / 100 + 1)
    }).pipe(Effect.scoped, Effect.provide(Client.simulatorWithClient({ sizes: { models } }))), 600_000)
})
