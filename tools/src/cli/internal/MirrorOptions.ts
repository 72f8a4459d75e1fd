/**
 * What the mirror's subcommands share: the mirror's modules, loaded on
 * first use (they bring the SQL drivers), the collections named on the
 * command line, the options that name the mirror's database, and the
 * lines changes are written as.
 *
 * The database comes from `--db`, `--db-file` (`-` for standard input) or
 * `CATALOG_DB_URL`, in that order, else `./catalog.sqlite`; the file and
 * the environment keep a password out of the process list.
 */
import * as Args from "@effect/cli/Args"
import type * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import type * as FileSystem from "@effect/platform/FileSystem"
import { Config, Effect, Option, Redacted } from "effect"
import * as Operations from "../../../../common/src/contract/Operations.js"
import { didYouMean } from "../../internal/Suggest.js"
import { UsageError } from "../CliError.js"
import * as Connection from "./Connection.js"
import * as Format from "./Format.js"
import * as Output from "./Output.js"
import * as Secret from "./Secret.js"
import type * as Change from "../../../../common/src/mirror/Change.js"
import type * as ChangeFeedModule from "../../../../common/src/mirror/ChangeFeed.js"

/** The mirror's modules, loaded on first use: they bring the SQL drivers. */
export const loadMirror = Effect.tryPromise({
  try: () => import("../../../../src/mirror/index.js"),
  catch: (cause) =>
    new UsageError({
      detail: `the mirror needs @effect/sql and @effect/experimental, and the driver of its database (README, Install): ${
        cause instanceof Error ? cause.message.split("\n")[0] : String(cause)
      }`
    })
})

export const collectionIds: ReadonlyArray<Operations.CollectionId> = Operations.collections.map((operation) => operation.id)


/** The collections named on the command line, all of them if none. */
export const collectionsOf = (names: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<Operations.CollectionId>, UsageError> => {
  const unknown = names.find((name) => !Operations.isCollectionId(name))
  if (unknown !== undefined) {
    return Effect.fail(
      new UsageError({ detail: `unknown collection "${unknown}"${didYouMean(unknown, collectionIds)} (collections: ${collectionIds.join(", ")})` })
    )
  }
  const chosen = names.filter(Operations.isCollectionId)
  return Effect.succeed(chosen.length === 0 ? collectionIds : [...new Set(chosen)])
}

export const collectionsArg = Args.text({ name: "collection" }).pipe(
  Args.withDescription(`Collections to mirror (default: all): ${collectionIds.join(", ")}`),
  Args.repeated
)

/** The options that name the mirror's database. */
export const databaseOptions = {
  db: Connection.optional(
    Options.text("db"),
    "The mirror: an SQLite file, or a postgres:// address (default: CATALOG_DB_URL, else ./catalog.sqlite). A flag's value shows in the process list while the command starts: --db-file or CATALOG_DB_URL keep a password out of it"
  ),
  dbFile: Connection.optional(
    Options.text("db-file"),
    "The path of a file that holds the mirror's database (as --db) on one line, or - for standard input: keeps its password out of the process list"
  )
}

/** The database when none is named. */
const defaultDatabase = "./catalog.sqlite"

/**
 * The mirror's database: `--db`, `--db-file` or `CATALOG_DB_URL`, else
 * `./catalog.sqlite`. Standard input gives one secret: the key's file and
 * the database's cannot both be `-`.
 */
export const databaseOf = (
  parsed: Command.Command.ParseConfig<typeof databaseOptions> & Pick<Connection.Connection, "apiKeyFile">
): Effect.Effect<string, UsageError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fromStandardInput = (file: Option.Option<string>) => Option.contains(file, Secret.standardInput)
    if (fromStandardInput(parsed.dbFile) && fromStandardInput(parsed.apiKeyFile)) {
      return yield* new UsageError({ detail: "--db-file and --api-key-file cannot both be - (standard input): put one of them in a file" })
    }
    const database = yield* Secret.chosen({
      flag: "db",
      value: Option.map(parsed.db, Redacted.make),
      file: parsed.dbFile,
      environment: Connection.fromEnv(Config.redacted("CATALOG_DB_URL"))
    })
    return Option.match(database, { onNone: () => defaultDatabase, onSome: Redacted.value })
  })

/** The changes written as NDJSON: inert on a terminal, exact elsewhere. */
const changeLines = Format.listWriter("ndjson", [], { terminal: Output.isTerminal(Option.none()) })

/** A change as one line of JSON, its kind first: `{"_tag":"Inserted",…}`. */
export const changeLine = ({ _tag, ...fields }: Change.Change) => changeLines.chunk([{ _tag, ...fields }]).text

/** A logged change as one line of JSON: the change as `mirror --changes` writes it, then its position and commit time. */
export const loggedLine = ({ change: { _tag, ...fields }, committedAt, position }: ChangeFeedModule.Logged) =>
  changeLines.chunk([{ _tag, ...fields, position, committed_at: committedAt.toISOString() }]).text

