/**
 * The `catalog mirror`, `catalog changes` and `catalog plan` subcommands:
 * keep a local copy of the catalog in SQL (`effect-catalog/mirror`), give
 * the changes it has committed, and say what a sync will cost before it
 * starts. The mirror's modules, and the SQL drivers with
 * them, are loaded only when one of these runs.
 *
 * ```sh
 * catalog plan [collections…] [--db FILE | --db postgres://… | --db-file PATH] [--format table|json]
 * catalog mirror [collections…] [--db FILE | --db postgres://… | --db-file PATH] [--changes] [--allow-partial]
 * catalog changes [collections…] [--db …] [--after N] [--subscriber NAME] [--follow]
 * ```
 *
 * `catalog mirror keep` and `catalog mirror status` are `KeepCommand`'s.
 *
 * The database is named as `MirrorOptions` says.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Clock, Duration, Effect, Option, Ref, Stream } from "effect"
import { existsSync } from "node:fs"
import * as Budget from "../../../../common/src/client/Budget.js"
import type * as MirrorModule from "../../../../common/src/mirror/Mirror.js"
import { AllowanceShort, UsageError } from "../CliError.js"
import { changeLine, collectionIds, collectionsArg, collectionsOf, databaseOf, databaseOptions, loadMirror, loggedLine } from "./MirrorOptions.js"
import * as Connection from "./Connection.js"
import * as Format from "./Format.js"
import * as Handler from "./Handler.js"
import * as KeepCommand from "./KeepCommand.js"
import type * as Help from "./Help.js"
import * as Output from "./Output.js"
import * as Progress from "./Progress.js"
import { plural } from "../../../../rules/src/Words.js"

const mib = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`

/** The plan as a table, one row per collection and a total. */
const planTable = (plan: MirrorModule.Plan): string => {
  const rows = [
    ["collection", "items", "requests", "units", "bytes", "time"],
    ...plan.collections.map((step) => [
      step.collection,
      `${step.items}${step.counted === "stats" ? "" : ` (${step.counted})`}`,
      String(step.requests),
      String(step.units),
      mib(step.bytes),
      Progress.duration(step.seconds)
    ]),
    ["total", "", String(plan.requests), String(plan.units), mib(plan.bytes), Progress.duration(plan.seconds)]
  ]
  const left = `${plural(plan.left.units, "unit")}, ${mib(plan.left.bytes)}`
  const verdict = plan.fits ? `fits in what is left today: ${left}` : `does not fit in what is left today: ${left}`
  return `${Format.aligned(rows)}${verdict}\n`
}

/** The plan as one JSON object, for scripts. */
const planJson = (plan: MirrorModule.Plan): string =>
  `${
    JSON.stringify({
      collections: plan.collections.map(({ bytes, collection, counted, items, requests, seconds, units }) => ({
        collection,
        items,
        counted,
        requests,
        units,
        bytes,
        seconds: Math.round(seconds * 10) / 10
      })),
      units: plan.units,
      bytes: plan.bytes,
      seconds: Math.round(plan.seconds * 10) / 10,
      left: plan.left,
      fits: plan.fits
    })
  }\n`

/**
 * The mirror's database, when it holds anything worth reading for a plan:
 * a PostgreSQL database, or an SQLite file that exists (a plan creates none).
 */
const existingDatabase = (mirror: typeof import("../../../../src/mirror/index.js"), database: string) =>
  mirror.MirrorDatabase.isPostgresAddress(database) || existsSync(database) ? Option.some(mirror.MirrorDatabase.layerFrom(database)) : Option.none()

/** What `plan` and `mirror` both start from: the collections, the account's limits, the database and the mirror's modules. */
const readied = (parsed: Parameters<typeof databaseOf>[0] & Connection.Connection & { readonly collections: ReadonlyArray<string> }) =>
  Effect.all({
    collections: collectionsOf(parsed.collections),
    limits: Connection.limitsOf(parsed),
    database: databaseOf(parsed),
    mirror: loadMirror
  })

const plan = Command.make(
  "plan",
  {
    collections: collectionsArg,
    ...databaseOptions,
    format: Options.choice("format", ["table", "json"]).pipe(
      Options.withDescription("A table, or one JSON object for scripts"),
      Options.withDefault("table")
    ),
    ...Connection.options
  },
  (parsed) =>
    Effect.gen(function*() {
      const { collections, database, limits, mirror } = yield* readied(parsed)
      const planned = mirror.Mirror.plan(collections, { limits })
      const withDatabase = Option.match(existingDatabase(mirror, database), {
        onNone: () => planned,
        onSome: (database) => Effect.provide(planned, database)
      })
      const result = yield* Connection.withClient(parsed, withDatabase)
      yield* Output.stdout.write(parsed.format === "json" ? planJson(result) : planTable(result))
    })
).pipe(Command.withDescription(
  "Say what a sync of the mirror will cost before it starts: requests, units, bytes and time, and whether it fits in what is left today (reads /stats/: 1 unit)"
))


/** The summary line of a collection's run. */
const summaryLine = (run: MirrorModule.Run, seconds: number) =>
  `catalog: mirror ${run.collection}: ${run.status}, ${plural(run.items, "item")} (+${run.inserted} ~${run.updated} -${run.deleted}), ${
    plural(run.pages, "page")
  }, ${plural(run.units, "unit")}, ${mib(run.bytes)}, ${Progress.duration(seconds)}${
    run.status === "partial" ? `; the next run goes on from page ${run.pages + 1}` : ""
  }`

const mirrorCommand = Command.make(
  "mirror",
  {
    collections: collectionsArg,
    ...databaseOptions,
    changes: Options.boolean("changes").pipe(Options.withDescription("Write what changed to stdout as NDJSON: Inserted, Updated (before and after) and Deleted")),
    allowPartial: Options.boolean("allow-partial").pipe(
      Options.withDescription("Sync what fits in today's allowance and stop cleanly; the next run goes on from there")
    ),
    ...Connection.options
  },
  (parsed) =>
    Effect.gen(function*() {
      const { collections, database, limits, mirror: { Mirror, MirrorDatabase } } = yield* readied(parsed)
      const program = Effect.gen(function*() {
        const planned = yield* Mirror.plan(collections, { limits })
        if (!planned.fits && !parsed.allowPartial) {
          return yield* new AllowanceShort({
            detail: `the sync needs ${plural(planned.units, "unit")} and ${mib(planned.bytes)}; ${plural(planned.left.units, "unit")} and ${
              mib(planned.left.bytes)
            } are left today. Sync fewer collections, or pass --allow-partial to sync what fits and go on tomorrow`
          })
        }
        const budget = yield* Budget.Budget
        const again = yield* Handler.again("mirror")
        for (const step of planned.collections) {
          const started = yield* Clock.currentTimeMillis
          const tracker = yield* Progress.track(step.collection, limits)
          const synced = yield* Ref.make<MirrorModule.Progress | null>(null)
          const progress = Effect.flatMap(Ref.get(synced), (done) =>
            tracker.now({
              items: done?.items ?? 0,
              total: Option.some({ count: step.items, about: true }),
              requestsLeft: Option.some(Math.max(0, step.requests - (done?.pages ?? 0)))
            }))
          const sync = Mirror.sync(step.collection, { onPage: (now) => Ref.set(synced, now) }).pipe(
            Stream.runForEach((change) => parsed.changes ? Output.stdout.write(changeLine(change)) : Effect.void)
          )
          const line = Effect.map(progress, (now) => Progress.progressLine(`mirror ${step.collection}`, now))
          const stoppedAtAllowance = yield* Effect.scoped(Effect.zipRight(Progress.show(line), sync)).pipe(
            Effect.as(false),
            Effect.catchIf(
              (error) => parsed.allowPartial && Mirror.isStoppedAtAllowance(error),
              () => Effect.succeed(true)
            ),
            Effect.onInterrupt(() =>
              Effect.flatMap(progress, (now) =>
                Output.stderrLine(Progress.interruptedLine(now, `run ${again} again: it goes on from where ${step.collection} stopped`)))
            )
          )
          const [run] = yield* Mirror.runs([step.collection], 1)
          const elapsed = Duration.toSeconds(Duration.millis((yield* Clock.currentTimeMillis) - started))
          if (run !== undefined) yield* Output.stderrLine(summaryLine(run, elapsed))
          if (stoppedAtAllowance) {
            const spent = yield* budget.spent
            yield* Output.stderrLine(`catalog: mirror: stopped at today's allowance after ${plural(spent.units, "unit")}; run ${again} again to go on`)
            return
          }
        }
      })
      yield* Connection.withClient(parsed, Effect.provide(program, MirrorDatabase.layerFrom(database)))
    }).pipe(Handler.handled)
).pipe(Command.withDescription(
  "Keep a copy of the catalog's collections in SQLite (default ./catalog.sqlite) or PostgreSQL; each run goes on from where the last one stopped"
))


const changesCommand = Command.make(
  "changes",
  {
    collections: Args.text({ name: "collection" }).pipe(
      Args.withDescription(`Collections whose changes to give (default: all): ${collectionIds.join(", ")}`),
      Args.repeated
    ),
    ...databaseOptions,
    after: Options.integer("after").pipe(
      Options.withDescription("Give the changes after this position (default: after --subscriber's recorded position, else from the first)"),
      Options.optional
    ),
    subscriber: Options.text("subscriber").pipe(
      Options.withDescription("Go on after the position this subscriber recorded, and record each change's position once its line is written"),
      Options.optional
    ),
    follow: Options.boolean("follow").pipe(Options.withDescription("At the log's end, wait for what the mirror commits next (Ctrl-C ends)"))
  },
  (parsed) =>
    Effect.gen(function*() {
      const collections = yield* collectionsOf(parsed.collections)
      const database = yield* databaseOf({ ...parsed, apiKeyFile: Option.none() })
      const { ChangeFeed, MirrorDatabase } = yield* loadMirror
      if (!MirrorDatabase.isPostgresAddress(database) && !existsSync(database)) {
        return yield* new UsageError({ detail: `no mirror at ${database}: make one with catalog mirror, or name it with --db` })
      }
      const subscriber = Option.getOrUndefined(parsed.subscriber)
      const last = yield* Ref.make(Option.none<number>())
      const feed = ChangeFeed.stream({
        ...(collections.length === collectionIds.length ? {} : { collections }),
        ...Option.match(parsed.after, { onNone: () => ({}), onSome: (after) => ({ after }) }),
        ...(subscriber === undefined ? {} : { subscriber }),
        ...(parsed.follow ? { follow: "1 second" } : {})
      }).pipe(
        Stream.runForEach((logged) =>
          Output.stdout.write(loggedLine(logged)).pipe(
            Effect.zipRight(subscriber === undefined ? Effect.void : ChangeFeed.record(subscriber, logged.position)),
            Effect.zipRight(Ref.set(last, Option.some(logged.position)))
          )
        )
      )
      const again = yield* Handler.again("changes")
      const stopped = Effect.flatMap(Ref.get(last), (position) =>
        Output.stderrLine(Option.match(position, {
          onNone: () => "catalog: changes: stopped before any change",
          onSome: (position) =>
            `catalog: changes: stopped after position ${position}; ${
              subscriber === undefined ? `go on with --after ${position}` : `run ${again} again: it goes on from there`
            }`
        })))
      yield* Effect.provide(Effect.onInterrupt(feed, () => stopped), MirrorDatabase.layerFrom(database))
    }).pipe(Handler.handled)
).pipe(Command.withDescription(
  "Give the changes the mirror has committed, in commit order, as NDJSON with their positions: from any position on, a subscriber's recorded one, or as they come (--follow)"
))

/**
 * The `mirror`, `changes` and `plan` subcommands.
 */
export const commands = [Command.withSubcommands(mirrorCommand, KeepCommand.commands), changesCommand, plan] as const

/**
 * The `mirror`, `changes` and `plan` subcommands with the examples of their help.
 */
export const subcommands: ReadonlyArray<Help.Entry> = [
  {
    command: mirrorCommand.descriptor,
    guide: { sections: [], examples: ["catalog mirror models skills --db catalog.sqlite", "catalog mirror --db \"$DATABASE_URL\" --changes"] }
  },
  ...KeepCommand.subcommands.map((entry) => ({ ...entry, parent: "mirror" })),
  {
    command: changesCommand.descriptor,
    guide: { sections: [], examples: ["catalog changes --db catalog.sqlite --after 0", "catalog changes models --db catalog.sqlite --subscriber indexer"] }
  },
  { command: plan.descriptor, guide: { sections: [], examples: ["catalog plan", "catalog plan models --format json"] } }
]
