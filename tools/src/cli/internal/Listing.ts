/**
 * A list written by the `catalog` command: every item, page by page, in the
 * format asked for, to stdout or a file, with the progress line while it
 * runs and the summary line at the end (`Progress`).
 */
import type { FileSystem } from "@effect/platform"
import { Chunk, Effect, Option, Ref, Stream } from "effect"
import type * as Admission from "../../../../common/src/client/Admission.js"
import * as CatalogClient from "../../../../common/src/client/CatalogClient.js"
import type * as Errors from "../../../../common/src/client/Errors.js"
import type * as Operations from "../../../../common/src/contract/Operations.js"
import * as Resources from "../../../../common/src/contract/Resources.js"
import type { OutputError } from "../CliError.js"
import type * as Connection from "./Connection.js"
import type * as Dispatch from "./Dispatch.js"
import type * as Format from "./Format.js"
import * as Output from "./Output.js"
import * as Progress from "./Progress.js"

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

/** Where the items go, for the line of an interrupted scan. */
const target = (out: Option.Option<string>) => Option.getOrElse(Option.filter(out, (path) => path !== "-"), () => "stdout")

/**
 * Writes every item of a list to stdout or a file, page by page, in the
 * writer's format, with the progress line while it runs (on a terminal) and
 * the summary line at the end (unless quiet); gives the number of items
 * written. Whatever ends it (its end, a failure, a signal), the output is
 * whole: each page is written whole or not at all, and the format's end
 * follows the last one (a JSON array is closed). A scan a signal
 * interrupts says how far it got.
 */
export const scanTo = (
  options: ScanOptions
): Effect.Effect<number, Errors.CatalogError | OutputError, Connection.Services | FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const catalog = yield* CatalogClient.CatalogClient
    const tracker = yield* Progress.track(options.operation.id, options.limits)
    const known = options.readTotal ? yield* totalOf(options.operation) : Option.none<number>()
    const total = Option.map(
      Option.match(options.max, {
        onNone: () => known,
        onSome: (max) => Option.some(Option.match(known, { onNone: () => max, onSome: (count) => Math.min(count, max) }))
      }),
      (count): Progress.Total => ({ count, about: false })
    )
    const items = yield* Ref.make(0)
    // The size of the last page: the service may have asked for smaller ones.
    const lastPage = yield* Ref.make(options.pageSize)
    const progress: Effect.Effect<Progress.Progress> = Effect.gen(function*() {
      const written = yield* Ref.get(items)
      const pageSize = yield* Ref.get(lastPage)
      return yield* tracker.now({
        items: written,
        total,
        requestsLeft: Option.map(total, ({ count }) => Math.ceil(Math.max(0, count - written) / Math.max(1, pageSize)))
      })
    })
    const items$ = Option.isSome(options.max) ? Stream.take(options.run(catalog), options.max.value) : options.run(catalog)
    // The file is closed and the progress line erased before the summary is written.
    yield* Effect.scoped(
      Effect.gen(function*() {
        const sink = yield* Output.sink(options.out)
        const writer = yield* Ref.make(options.writer)
        const end = Effect.flatMap(Ref.get(writer), (last) => sink.write(last.footer))
        // Where nothing was written (a table before its first row), an end would be all the output holds: none is written.
        const started = Effect.map(Ref.get(items), (count) => count > 0 || options.writer.header !== "")
        yield* sink.write(options.writer.header)
        if (options.progress) yield* Progress.show(Effect.map(progress, (now) => Progress.progressLine(options.label, now)))
        yield* items$.pipe(
          Stream.chunks,
          Stream.runForEach((chunk) =>
            // A page is written whole before a signal takes effect: the output never ends within an item.
            Effect.uninterruptible(Effect.gen(function*() {
              const { next, text } = (yield* Ref.get(writer)).chunk(Chunk.toReadonlyArray(chunk))
              yield* sink.write(text)
              yield* Ref.set(writer, next)
              yield* Ref.update(items, (count) => count + Chunk.size(chunk))
              yield* Ref.set(lastPage, Chunk.size(chunk))
            }))
          ),
          Effect.onError(() => Effect.ignore(Effect.whenEffect(end, started)))
        )
        yield* end
      })
    ).pipe(
      Effect.onInterrupt(() =>
        Effect.flatMap(progress, (now) =>
          Output.stderrLine(
            Progress.interruptedLine(now, `${target(options.out)} holds them, each whole; a scan does not resume: run it again to start over`)
          ))
      )
    )
    const done = yield* progress
    if (!options.quiet) yield* Output.stderrLine(Progress.summaryLine(options.label, done))
    return done.items
  })
