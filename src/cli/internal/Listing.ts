/**
 * A list written by the `catalog` command: every item, page by page, in the
 * format asked for, to stdout or a file, with the progress line while it
 * runs and the summary line at the end (`Progress`).
 */
import type { FileSystem } from "@effect/platform"
import { Chunk, Clock, Duration, Effect, Option, Ref, Stream } from "effect"
import * as Admission from "../../client/Admission.js"
import * as Budget from "../../client/Budget.js"
import * as CatalogClient from "../../client/CatalogClient.js"
import type * as Errors from "../../client/Errors.js"
import type * as Operations from "../../contract/Operations.js"
import * as Resources from "../../contract/Resources.js"
import type { OutputError } from "../CliError.js"
import type * as Connection from "./Connection.js"
import type * as Dispatch from "./Dispatch.js"
import type * as Format from "./Format.js"
import * as Output from "./Output.js"
import * as Progress from "./Progress.js"

const counted = CatalogClient.metricTotal

/**
 * How `scanTo` writes a list and shows where it stands.
 */
export interface ScanOptions {
  /** Names the scan in the progress and summary lines ("scan models"). */
  readonly label: string
  readonly operation: Operations.ListOperation
  readonly run: Dispatch.ListRun
  /** A file, or stdout when none or `-`. */
  readonly out: Option.Option<string>
  readonly max: Option.Option<number>
  readonly writer: Format.ListWriter
  /** Items per request, for the time left. */
  readonly pageSize: number
  readonly limits: Admission.Limits
  /** Show the progress line (on stderr, when it is a terminal). */
  readonly progress: boolean
  /** Read the total from `/stats/` (1 unit) for the progress line. */
  readonly readTotal: boolean
  /** No summary line. */
  readonly quiet: boolean
}

/** The count of a top-level collection in `/stats/`. */
const totalOf = (operation: Operations.ListOperation) =>
  Effect.flatMap(CatalogClient.CatalogClient, (catalog) => Effect.map(catalog.stats(), (stats) => Resources.countOf(stats, operation.id)))

/** How many arrivals of pages the time left is estimated from. */
const recentArrivals = 60

/**
 * Writes every item of a list to stdout or a file, page by page, in the
 * writer's format, with the progress line while it runs (on a terminal) and
 * the summary line at the end (unless quiet); gives the number of items
 * written.
 */
export const scanTo = (
  options: ScanOptions
): Effect.Effect<number, Errors.CatalogError | OutputError, Connection.Services | FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const catalog = yield* CatalogClient.CatalogClient
    const budget = yield* Budget.Budget
    const admission = yield* Admission.Admission
    const known = options.readTotal ? yield* totalOf(options.operation) : Option.none<number>()
    const total = Option.match(options.max, {
      onNone: () => known,
      onSome: (max) => Option.some(Option.match(known, { onNone: () => max, onSome: (count) => Math.min(count, max) }))
    })
    const started = yield* Clock.currentTimeMillis
    const retriesBefore = yield* counted(CatalogClient.metrics.retries)
    const notModifiedBefore = yield* counted(CatalogClient.metrics.notModified)
    const items = yield* Ref.make(0)
    const arrivals = yield* Ref.make<ReadonlyArray<number>>([])
    // The size of the last page: the service may have asked for smaller ones.
    const lastPage = yield* Ref.make(options.pageSize)
    const progress: Effect.Effect<Progress.Progress> = Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const spent = yield* budget.spent
      const retries = (yield* counted(CatalogClient.metrics.retries)) - retriesBefore
      const requests = spent.byOperation.get(options.operation.id)?.requests ?? 0
      const written = yield* Ref.get(items)
      const arrived = (yield* Ref.get(arrivals)).map((arrival) => arrival - now)
      const pageSize = yield* Ref.get(lastPage)
      return {
        items: written,
        pages: Math.max(0, requests - retries),
        units: spent.units,
        waiting: yield* admission.waiting,
        retries,
        notModified: (yield* counted(CatalogClient.metrics.notModified)) - notModifiedBefore,
        elapsed: Duration.millis(now - started),
        total,
        left: Option.map(total, (count) =>
          Progress.timeLeft({ itemsLeft: count - written, pageSize, limits: options.limits, arrivals: arrived }))
      }
    })
    const items$ = Option.isSome(options.max) ? Stream.take(options.run(catalog), options.max.value) : options.run(catalog)
    // The file is closed and the progress line erased before the summary is written.
    yield* Effect.scoped(
      Effect.gen(function*() {
        const sink = yield* Output.sink(options.out)
        yield* sink.write(options.writer.header)
        if (options.progress) yield* Progress.show(Effect.map(progress, (now) => Progress.progressLine(options.label, now)))
        const last = yield* items$.pipe(
          Stream.chunks,
          Stream.runFoldEffect(options.writer, (writer, chunk) =>
            Effect.gen(function*() {
              const { next, text } = writer.chunk(Chunk.toReadonlyArray(chunk))
              yield* sink.write(text)
              yield* Ref.update(items, (count) => count + Chunk.size(chunk))
              const now = yield* Clock.currentTimeMillis
              yield* Ref.update(arrivals, (before) => [...before.slice(1 - recentArrivals), now])
              yield* Ref.set(lastPage, Chunk.size(chunk))
              return next
            }))
        )
        yield* sink.write(last.footer)
      })
    )
    const done = yield* progress
    if (!options.quiet) yield* Output.stderrLine(Progress.summaryLine(options.label, done))
    return done.items
  })
