/**
 * From a command line to a call of the client: the operation named by its
 * contract id, path parameters in the order of `operation.pathParameters`
 * (or the resource's id alone, as `scan` prints it, where it holds them),
 * filters as `--name value` checked with the operation's query schema, and
 * one typed entry per operation that calls the client's own method and
 * writes each item back in its wire form. Everything is checked before the
 * client exists, so bad usage costs no request.
 */
import { Effect, Either, Option, Schema, Stream } from "effect"
import type * as CatalogClient from "../../../../common/src/client/CatalogClient.js"
import type * as Errors from "../../../../common/src/client/Errors.js"
import * as Operations from "../../../../common/src/contract/Operations.js"
import { describeError } from "../../../../common/src/contract/Parameters.js"
import { alternatives, didYouMean, nearest } from "../../internal/Suggest.js"
import { UsageError } from "../CliError.js"
import * as KnownValues from "../../../../rules/src/contract/KnownValues.js"
import * as OperationTable from "../../../../rules/src/contract/OperationTable.js"
import * as ParameterTexts from "../../../../rules/src/contract/ParameterTexts.js"
import * as TerminalText from "../../../../rules/src/TerminalText.js"
import { plural } from "../../../../rules/src/Words.js"

type Catalog = CatalogClient.Links & CatalogClient.Wire

type ListOperation = Operations.ListOperation
type DetailOperation = Operations.DetailOperation

/**
 * A list, ready to run: every item in its wire form, as the service sent it.
 */
export type ListRun = (catalog: Catalog) => Stream.Stream<unknown, Errors.CatalogError>

/**
 * A detail read, ready to run: the operation that answered and the
 * resource in its wire form.
 */
export type DetailRun = (catalog: Catalog) => Effect.Effect<Read, Errors.CatalogError>

/**
 * A resource read: the operation that answered, and the resource in its
 * wire form (encoded back with the operation's schema).
 */
export interface Read {
  readonly operation: Operations.AnyOperation
  readonly wire: unknown
}

/**
 * What a command line gives a list: path parameters, query parameters in
 * their wire form (filters) with the names to show for them in messages
 * as it gave them (`--open_weights`, `<q>`; `--` and the flag otherwise),
 * and the page size it asks for (`--page-size`), sent as `limit`.
 */
export interface ListInput {
  readonly path: ReadonlyArray<string>
  readonly query: Readonly<Record<string, string>>
  readonly labels?: Readonly<Record<string, string>>
  readonly pageSize: Option.Option<number>
}

/**
 * The path parameters a command line gives: one value for each, in order,
 * or where the operation has a key (`Operations.Key`) and takes several,
 * the key alone, as `scan` prints the id (`o0000-falcon/m0000000-kestrel-8b`).
 */
const pathOf = (
  operation: { readonly id: string; readonly pathParameters: ReadonlyArray<string>; readonly key: Operations.AnyKey | null },
  values: ReadonlyArray<string>
): Either.Either<Readonly<Record<string, string>>, UsageError> => {
  const { key, pathParameters } = operation
  const [only] = values
  const expected = pathParameters.map((name) => `<${name}>`).join(" ")
  const orKey = key !== null && pathParameters.length > 1 ? ` or its ${key.by} ${key.form}` : ""
  const takes = `${operation.id} takes ${plural(pathParameters.length, "path parameter")} (${expected})${orKey}`
  if (key !== null && pathParameters.length > 1 && values.length === 1 && only !== undefined) {
    return Either.mapLeft(key.parse(only), (why) => new UsageError({ detail: `${takes}; got ${JSON.stringify(only)}, and the ${key.by} ${why}` }))
  }
  if (values.length !== pathParameters.length) {
    return Either.left(
      new UsageError({
        detail: pathParameters.length === 0
          ? `${operation.id} takes no path parameters; got ${values.map((value) => JSON.stringify(value)).join(" ")}`
          : `${takes}; got ${values.length}`
      })
    )
  }
  return Either.right(Object.fromEntries(pathParameters.map((name, index) => [name, values[index] ?? ""])))
}

/**
 * The page size a command line asks for as the wire's `limit`, checked
 * against the operation's largest page here, so that a refusal names the
 * option typed and its range rather than the wire's name.
 */
const limitOf = (operation: ListOperation, pageSize: Option.Option<number>): Either.Either<Readonly<Record<string, string>>, UsageError> =>
  Option.match(pageSize, {
    onNone: () => Either.right({}),
    onSome: (size) =>
      size >= 1 && size <= operation.maxLimit
        ? Either.right({ limit: String(size) })
        : Either.left(
          new UsageError({ detail: `${ParameterTexts.limitMessage(operation.maxLimit, "--page-size")} for ${operation.id}; got ${size}` })
        )
  })

const queryOf = (
  query: Schema.Schema.AnyNoContext,
  parameters: Readonly<Record<string, string>>,
  labels: Readonly<Record<string, string>>
): Either.Either<Readonly<Record<string, unknown>>, UsageError> =>
  Either.mapLeft(Schema.decodeUnknownEither(query, { onExcessProperty: "error" })(parameters), (error) => {
    const described = describeError(error)
    const separator = described.indexOf(": ")
    const name = separator < 0 ? "" : described.slice(0, separator)
    const label = labels[name] ?? `--${flagOf(name)}`
    return new UsageError({ detail: separator < 0 ? described : `${label}${described.slice(separator)}` })
  })

/**
 * A list operation's run from what a command line gives it: its path
 * parameters, filters and page size checked by the operation's schemas
 * and largest page, its items listed in their wire form (the client's
 * `wire`).
 */
export const listRun = (operation: ListOperation, input: ListInput): Either.Either<ListRun, UsageError> =>
  Either.gen(function*() {
    const path = yield* pathOf(operation, input.path)
    const limit = yield* limitOf(operation, input.pageSize)
    const query = yield* queryOf(operation.query, { ...input.query, ...limit }, input.labels ?? {})
    // The items as the service sent them, checked for an id: no decoding into the typed model and back.
    const run: ListRun = (catalog) => catalog.wire(operation.id, { ...path, ...query })
    return run
  })

/** A resource read by `follow` or `read`, in its wire form. */
const wireRead = (followed: CatalogClient.Followed): Effect.Effect<Read> => {
  const operation = Operations.all.find((candidate) => candidate.id === followed.operation)
  if (operation === undefined) return Effect.dieMessage(`no operation ${followed.operation}`)
  const item: Schema.Schema.AnyNoContext = operation.item
  // A decoded value always encodes back; a failure here is a bug, not an answer.
  return Effect.map(Effect.orDie(Schema.encodeUnknown(item)(followed.value)), (wire) => ({ operation, wire }))
}

/**
 * A detail operation's run from its path parameters: the client's `read`,
 * the resource in its wire form.
 */
export const detailRun = (operation: DetailOperation, path: ReadonlyArray<string>): Either.Either<DetailRun, UsageError> =>
  Either.map(pathOf(operation, path), (parameters): DetailRun => (catalog) => Effect.flatMap(catalog.read(operation.id, parameters), wireRead))

/**
 * The filters of an operation: its query parameters but the page size and
 * the cursor.
 */
export const filtersOf = (operation: { readonly query: { readonly fields: object } }): ReadonlyArray<string> =>
  Object.keys(operation.query.fields).filter((name) => name !== "limit" && name !== "cursor")

/**
 * The option of a query parameter on the command line: its name in kebab
 * case, as every other option is spelled (`open-weights` for the service's
 * `open_weights`).
 */
export const flagOf = (parameter: string): string => parameter.replaceAll("_", "-")

/** Text given on the command line, quoted and inert as shown on a terminal. */
const quoted = (text: string): string => TerminalText.json(JSON.stringify(text))

/**
 * What to warn of a filter's value that is none of the values the contract
 * names for it (`KnownValues`), with the nearest of them; nothing for a
 * known value or a filter without known values. The value is still sent:
 * the list is open, and the service may know it. Without the warning, a
 * misspelt value would answer an empty list and no error.
 */
const unknownValueWarning = (operation: ListOperation, filter: string, shownAs: string, value: string): ReadonlyArray<string> => {
  const known = KnownValues.knownValuesOf(OperationTable.rows[operation.id].filters, filter)
  if (known === undefined || known.includes(value)) return []
  const near = nearest(value, known)
  const suggestion = near.length === 0 ? "." : `; did you mean ${alternatives(near.map(quoted))}?`
  return [
    `${shownAs} ${quoted(value)} is not a value the contract names (${known.join(", ")})${suggestion} Sent as given: the service may know it, or answer no items.`
  ]
}

/** The filter an option names: by its flag, or by the parameter's own name, which keeps working (`--open_weights`). */
const filterNamed = (filters: ReadonlyArray<string>, option: string): string | undefined =>
  filters.find((filter) => flagOf(filter) === option || filter === option)

/**
 * How an operation is called on the command line.
 */
export const usageOf = (operation: Operations.AnyOperation): string =>
  [operation.id, ...operation.pathParameters.map((name) => `<${name}>`), ...filtersOf(operation).map((name) => `[--${flagOf(name)} value]`)]
    .join(" ")

const idsOf = (kind: "list" | "detail") => Operations.all.filter((operation) => operation.kind === kind).map((operation) => operation.id)

/** The operation named `id`; an unknown name is answered with the nearest ones of the kind asked for. */
const findOperation = (id: string, kind: "list" | "detail"): Either.Either<Operations.AnyOperation, UsageError> => {
  const operation = Operations.all.find((candidate) => candidate.id === id)
  if (operation !== undefined) return Either.right(operation)
  const suggestion = didYouMean(id, idsOf(kind)) || didYouMean(id, Operations.all.map((candidate) => candidate.id))
  return Either.left(
    new UsageError({ detail: `unknown operation ${JSON.stringify(id)}${suggestion} (catalog help ${kind === "list" ? "scan" : "get"} lists them)` })
  )
}

/**
 * Positional arguments and `--name value` (or `--name=value`) pairs, in
 * the order given.
 */
export const splitArguments = (
  tokens: ReadonlyArray<string>
): Either.Either<{ readonly positional: ReadonlyArray<string>; readonly named: ReadonlyArray<readonly [string, string]> }, UsageError> => {
  const positional: Array<string> = []
  const named: Array<readonly [string, string]> = []
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index] ?? ""
    if (!token.startsWith("--") || token.length === 2) {
      positional.push(token)
      continue
    }
    const equals = token.indexOf("=")
    if (equals >= 0) {
      named.push([token.slice(2, equals), token.slice(equals + 1)])
      continue
    }
    const value = tokens[index + 1]
    if (value === undefined) return Either.left(new UsageError({ detail: `${token} needs a value` }))
    named.push([token.slice(2), value])
    index++
  }
  return Either.right({ positional, named })
}

/**
 * A list operation from its id and the rest of the command line (path
 * parameters, then filters), with the page size asked for: ready to run,
 * with the warnings to write before it runs (a filter value none of the
 * known ones), or the usage error that explains what is wrong, naming
 * each option as it was typed. An unknown option is answered with the
 * nearest filter or option of the command (`commandOptions`, without
 * their dashes).
 */
export const prepareList = (
  id: string,
  tokens: ReadonlyArray<string>,
  pageSize: Option.Option<number>,
  commandOptions: ReadonlyArray<string> = []
): Either.Either<
  { readonly operation: ListOperation; readonly run: ListRun; readonly warnings: ReadonlyArray<string> },
  UsageError
> =>
  Either.gen(function*() {
    const operation = yield* findOperation(id, "list")
    if (operation.kind !== "list") {
      return yield* Either.left(new UsageError({ detail: `${id} is not a list; read it with: catalog get ${usageOf(operation)}` }))
    }
    const { named, positional } = yield* splitArguments(tokens)
    const filters = filtersOf(operation)
    const flags = filters.map(flagOf)
    const query: Record<string, string> = {}
    const labels: Record<string, string> = {}
    const warnings: Array<string> = []
    for (const [name, value] of named) {
      const filter = filterNamed(filters, name)
      // The parser takes an option of the command once; a second one is left among the arguments.
      if (filter === undefined && commandOptions.includes(name)) return yield* Either.left(new UsageError({ detail: `--${name} is given twice` }))
      if (filter === undefined) {
        return yield* Either.left(
          new UsageError({
            detail: `unknown option --${name} for ${id}${didYouMean(name, [...flags, ...commandOptions], (option) => `--${option}`)} (${
              filters.length === 0 ? "it takes no filters" : `its filters: ${flags.map((flag) => `--${flag}`).join(", ")}`
            })`
          })
        )
      }
      if (query[filter] !== undefined) return yield* Either.left(new UsageError({ detail: `--${flagOf(filter)} is given twice` }))
      query[filter] = value
      labels[filter] = `--${name}`
      warnings.push(...unknownValueWarning(operation, filter, `--${name}`, value))
    }
    const run = yield* listRun(operation, { path: positional, query, labels, pageSize })
    return { operation, run, warnings }
  })

/**
 * A detail operation from its id and its path parameters: ready to run, or
 * the usage error that explains what is wrong (an unknown option is
 * answered with the nearest of `commandOptions`).
 */
export const prepareDetail = (
  id: string,
  tokens: ReadonlyArray<string>,
  commandOptions: ReadonlyArray<string> = []
): Either.Either<{ readonly operation: DetailOperation; readonly run: DetailRun }, UsageError> =>
  Either.gen(function*() {
    const operation = yield* findOperation(id, "detail")
    if (operation.kind !== "detail") {
      return yield* Either.left(new UsageError({ detail: `${id} is a list; read it with: catalog scan ${usageOf(operation)}` }))
    }
    const option = tokens.find((token) => token.startsWith("--") && token.length > 2)
    if (option !== undefined) {
      const name = (option.split("=")[0] ?? option).slice(2)
      return yield* Either.left(
        new UsageError({ detail: `unknown option --${name} for ${id}${didYouMean(name, commandOptions, (known) => `--${known}`)}` })
      )
    }
    const run = yield* detailRun(operation, tokens)
    return { operation, run }
  })

/**
 * Reads what an `api_url` names (with the client's `follow`, which refuses
 * a URL outside the base URL), in its wire form.
 */
export const follow = (apiUrl: string): DetailRun => (catalog) => Effect.flatMap(catalog.follow(apiUrl), wireRead)

/**
 * What an `api_url` gives the command: a resource, read, or a list, ready
 * to scan.
 */
export type UrlTarget =
  | { readonly _tag: "Resource"; readonly read: Read }
  | { readonly _tag: "List"; readonly operation: ListOperation; readonly run: ListRun; readonly warnings: ReadonlyArray<string> }

/**
 * Reads what an `api_url` names: a resource (as `follow` does), or a list
 * (a resource's `api_url` and its sub-list), whose items are then listed
 * in their wire form with the query the URL carries, and the warnings of
 * its filter values that are none of the known ones.
 */
export const followUrl = (apiUrl: string) => (catalog: Catalog): Effect.Effect<UrlTarget, Errors.CatalogError> =>
  Effect.flatMap(catalog.locate(apiUrl), ({ operation, parameters }): Effect.Effect<UrlTarget, Errors.CatalogError> => {
    if (operation.kind !== "list") return Effect.map(follow(apiUrl)(catalog), (read) => ({ _tag: "Resource", read }))
    const run: ListRun = (client) => client.wire(operation.id, parameters)
    const warnings = filtersOf(operation).flatMap((filter) => {
      const value = parameters[filter]
      return typeof value === "string" ? unknownValueWarning(operation, filter, `the link's ${filter}`, value) : []
    })
    return Effect.succeed({ _tag: "List", operation, run, warnings })
  })
