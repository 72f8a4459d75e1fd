/**
 * The `catalog mirror keep` and `catalog mirror status` subcommands: keep
 * the mirror fresh to freshness targets within a share of the account's
 * allowance (`Mirror.keep`), and say how fresh the keeper has kept it
 * (`Mirror.freshness`).
 *
 * ```sh
 * catalog mirror keep --fresh models=1h,skills=6h [--share 0.9] [--at-promise] [--changes] [--db …]
 * catalog mirror status [--db …] [--format table|json]
 * ```
 *
 * On a terminal, `keep` draws a table on stderr, one row per collection:
 * the age of its last verification against its target, the share of the
 * time it has been within it, the units spent on it, its next walk and its
 * items' estimated changes a day. Elsewhere it writes one JSON line on
 * stderr per plan and per visit. With `--changes`, stdout carries what the
 * keeper commits, as `catalog changes` writes it.
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Clock, Duration, Effect, Option, Ref, Stream } from "effect"
import { existsSync } from "node:fs"
import * as Budget from "../../../../common/src/client/Budget.js"
import * as Operations from "../../../../common/src/contract/Operations.js"
import type * as MirrorModule from "../../../../common/src/mirror/Mirror.js"
import * as TerminalText from "../../../../rules/src/TerminalText.js"
import { didYouMean } from "../../internal/Suggest.js"
import { UsageError } from "../CliError.js"
import * as Connection from "./Connection.js"
import * as Format from "./Format.js"
import * as Handler from "./Handler.js"
import type * as Help from "./Help.js"
import { collectionIds, databaseOf, databaseOptions, loadMirror, loggedLine } from "./MirrorOptions.js"
import * as Output from "./Output.js"
import * as Progress from "./Progress.js"

const secondsPer: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 }

/** An age as the command line gives it (`90s`, `30m`, `1h`, `2d`); `undefined` when it is none. */
const ageOf = (text: string): Duration.Duration | undefined => {
  const match = /^(\d+(?:\.\d+)?)([smhd])$/.exec(text.trim())
  const seconds = match === null ? 0 : Number(match[1]) * (secondsPer[match[2] ?? ""] ?? 0)
  return seconds > 0 ? Duration.seconds(seconds) : undefined
}

/** What `--fresh` may name: the collections, and every model's offers. */
const keepable = [...collectionIds, "modelOffers"]

/** `--fresh models=1h,skills=6h,modelOffers=1d` as the keeper's targets. */
export const targetsOf = (text: string): Effect.Effect<MirrorModule.KeepOptions["targets"], UsageError> => {
  const targets: Partial<Record<Operations.CollectionId | "modelOffers", Duration.Duration>> = {}
  for (const part of text.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "")) {
    const [name = "", age = ""] = part.split("=")
    if (!Operations.isCollectionId(name) && name !== "modelOffers") {
      return Effect.fail(
        new UsageError({ detail: `--fresh: unknown collection "${name}"${didYouMean(name, keepable)} (collections: ${collectionIds.join(", ")}, and modelOffers)` })
      )
    }
    const duration = ageOf(age)
    if (duration === undefined) {
      return Effect.fail(new UsageError({ detail: `--fresh: ${name}=${age} is no age: give one as 90s, 30m, 1h or 2d` }))
    }
    targets[name] = duration
  }
  return Object.keys(targets).length === 0
    ? Effect.fail(new UsageError({ detail: "--fresh names no collection: give targets as models=1h,skills=6h" }))
    : Effect.succeed(targets)
}

/** Seconds for people, or a dash for none. */
const age = (seconds: number | null) => seconds === null ? "-" : Progress.duration(Math.max(0, seconds))

/** How long until `at`, for people. */
const until = (at: Date | null, now: number) => at === null ? "now" : at.getTime() <= now ? "due" : `in ${Progress.duration((at.getTime() - now) / 1000)}`

/** The share of the time each collection has been within its target, sampled each time the table is drawn. */
type Within = ReadonlyMap<string, { readonly within: number; readonly seen: number }>

const header = ["collection", "age", "target", "within", "units", "next walk", "changes/day"]

/** The keeper's table: one row per collection. */
const tableOf = (rows: ReadonlyArray<MirrorModule.CollectionFreshness>, within: Within, spent: ReadonlyMap<string, number>, now: number) =>
  Format.aligned([
    header,
    ...rows.map((row) => {
      const sampled = within.get(row.collection)
      return [
        row.collection,
        age(row.age),
        age(row.target),
        sampled === undefined || sampled.seen === 0 ? "-" : `${Math.round((100 * sampled.within) / sampled.seen)}%`,
        String(spent.get(row.collection) ?? 0),
        until(row.nextDue, now),
        row.changesPerDay.toFixed(2)
      ]
    })
  ])

/** A visit or a plan as one JSON line for stderr. */
const visitLine = (visit: MirrorModule.Visit) =>
  JSON.stringify({ event: "visit", ...visit, began: visit.began.toISOString(), ended: visit.ended.toISOString() })

const planLine = (plan: MirrorModule.KeepPlan) => JSON.stringify({ event: "plan", ...plan })


/** Redraws `table` on stderr every second while the scope lives, on a terminal; the lines it drew are erased when it closes. */
const drawn = <R>(table: Effect.Effect<string, never, R>) =>
  Effect.gen(function*() {
    const drawnLines = yield* Ref.make(0)
    const erase = Effect.map(Ref.get(drawnLines), (count) => count === 0 ? "" : `\r\x1b[${count}A\x1b[J`)
    const draw = Effect.flatMap(Effect.zip(table, erase), ([text, erasing]) =>
      Effect.zipRight(
        Ref.set(drawnLines, text.split("\n").length),
        Effect.sync(() => process.stderr.write(`${erasing}${TerminalText.lines(text)}\n`))
      ))
    yield* Effect.addFinalizer(() => Effect.flatMap(erase, (erasing) => Effect.sync(() => process.stderr.write(erasing))))
    yield* Effect.forkScoped(Effect.forever(Effect.zipRight(draw, Effect.sleep("1 second"))))
  })

const keepCommand = Command.make(
  "keep",
  {
    ...databaseOptions,
    fresh: Options.text("fresh").pipe(
      Options.withDescription("The freshness targets: collection=age, comma-separated, ages as 90s, 30m, 1h or 2d (models=1h,skills=6h); modelOffers is every model's offers")
    ),
    share: Options.float("share").pipe(
      Options.withDescription("The share of the account's day and windows the keeper may spend (default 0.9: a tenth left to other users)"),
      Options.withDefault(0.9)
    ),
    atPromise: Options.boolean("at-promise").pipe(
      Options.withDescription("When the targets do not fit, keep the collections at the ages the keeper can promise rather than stop")
    ),
    changes: Options.boolean("changes").pipe(Options.withDescription("Write what the keeper commits to stdout as NDJSON, as catalog changes does")),
    ...Connection.options
  },
  (parsed) =>
    Effect.gen(function*() {
      const targets = yield* targetsOf(parsed.fresh)
      if (!(parsed.share > 0 && parsed.share <= 1)) return yield* new UsageError({ detail: `--share ${parsed.share}: give a share above 0 and at most 1` })
      const database = yield* databaseOf(parsed)
      const { ChangeFeed, Mirror, MirrorDatabase } = yield* loadMirror
      const terminal = process.stderr.isTTY === true
      const within = yield* Ref.make<Within>(new Map())
      const sampledAt = yield* Ref.make(Option.none<number>())
      const program = Effect.scoped(Effect.gen(function*() {
        const budget = yield* Budget.Budget
        const table = Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          const rows = yield* Effect.orElseSucceed(Mirror.freshness, () => [])
          const last = yield* Ref.getAndSet(sampledAt, Option.some(now))
          const step = Option.match(last, { onNone: () => 0, onSome: (at) => now - at })
          const sampled = yield* Ref.updateAndGet(within, (seen) =>
            new Map(rows.map((row) => {
              const before = seen.get(row.collection) ?? { within: 0, seen: 0 }
              return [row.collection, { within: before.within + (row.withinTarget ? step : 0), seen: before.seen + step }]
            })))
          const spent = yield* budget.spent
          const units = new Map([...spent.byOperation].map(([operation, spending]) => [operation, spending.units]))
          return tableOf(rows, sampled, units, now)
        })
        if (terminal) yield* drawn(table)
        if (parsed.changes) {
          const after = yield* ChangeFeed.end
          yield* Effect.forkScoped(ChangeFeed.stream({ after, follow: "200 millis" }).pipe(Stream.runForEach((logged) => Output.stdout.write(loggedLine(logged)))))
        }
        return yield* Mirror.keep({
          targets,
          share: parsed.share,
          whenInfeasible: parsed.atPromise ? "promise" : "fail",
          onVisit: (visit) => terminal ? Effect.void : Output.stderrLine(visitLine(visit)),
          onPlan: (plan) => terminal ? Effect.void : Output.stderrLine(planLine(plan))
        })
      }))
      const again = yield* Handler.again("mirror keep")
      yield* Connection.withClient(parsed, Effect.provide(program, MirrorDatabase.layerFrom(database))).pipe(
        Effect.onInterrupt(() => Output.stderrLine(`catalog: mirror keep: stopped; the mirror stands whole at its last committed page: run ${again} again to go on`))
      )
    }).pipe(Handler.handled)
).pipe(Command.withDescription(
  "Keep the mirror fresh to freshness targets within a share of the allowance: each collection walked when it is due, its pages revalidated by ETag (a 304 costs no unit); Ctrl-C stops it, and the next run goes on"
))

/** The freshness report as a table. */
const statusTable = (rows: ReadonlyArray<MirrorModule.CollectionFreshness>, now: number) =>
  Format.aligned([
    ["collection", "age", "target", "promise", "fresh", "next walk", "changes/day"],
    ...rows.map((row) => [
      row.collection,
      age(row.age),
      age(row.target),
      age(row.promise),
      row.withinTarget ? "yes" : "no",
      until(row.nextDue, now),
      row.changesPerDay.toFixed(2)
    ])
  ])

const statusCommand = Command.make(
  "status",
  {
    ...databaseOptions,
    format: Options.choice("format", ["table", "json"]).pipe(Options.withDescription("A table, or one JSON line per collection"), Options.withDefault("table"))
  },
  (parsed) =>
    Effect.gen(function*() {
      const database = yield* databaseOf({ ...parsed, apiKeyFile: Option.none() })
      const { Mirror, MirrorDatabase } = yield* loadMirror
      if (!MirrorDatabase.isPostgresAddress(database) && !existsSync(database)) {
        return yield* new UsageError({ detail: `no mirror at ${database}: make one with catalog mirror keep, or name it with --db` })
      }
      const rows = yield* Effect.provide(Mirror.freshness, MirrorDatabase.layerFrom(database))
      const now = yield* Clock.currentTimeMillis
      yield* Output.stdout.write(
        parsed.format === "json"
          ? rows.map((row) => `${JSON.stringify({ ...row, nextDue: row.nextDue?.toISOString() ?? null })}\n`).join("")
          : statusTable(rows, now)
      )
    }).pipe(Handler.handled)
).pipe(Command.withDescription("Say how fresh the keeper has kept the mirror: each collection's age against its target and promise, its next walk, its estimated changes"))

/** `keep` and `status`, the subcommands of `catalog mirror`. */
export const commands = [keepCommand, statusCommand] as const

/** `keep` and `status` with the examples of their help. */
export const subcommands: ReadonlyArray<Help.Entry> = [
  {
    command: keepCommand.descriptor,
    guide: { sections: [], examples: ["catalog mirror keep --db catalog.sqlite --fresh models=1h,skills=6h"] }
  },
  { command: statusCommand.descriptor, guide: { sections: [], examples: ["catalog mirror status --db catalog.sqlite"] } }
]
