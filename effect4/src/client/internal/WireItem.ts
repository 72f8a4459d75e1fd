/**
 * Items in wire form, as the service sent them: JSON objects with a string
 * `id`, each checked against the wire form of its operation's item schema
 * (`WireCheck`) and passed on unread.
 *
 * @internal
 */
import { Effect, Predicate, Schema, type SchemaAST, SchemaIssue } from "effect"
import { perItemSchema } from "../../../../rules/src/client/SchemaMemo.js"
import * as WireCheck from "./WireCheck.js"

/** An item in wire form: a JSON object with a string `id`, its other members unread. */
export type WireItem = { readonly id: string } & { readonly [key: string]: unknown }

const isWireItem = (input: unknown): input is WireItem => Predicate.isObject(input) && typeof input["id"] === "string"

/** The issue of an input that is not a JSON object with a string `id`. */
const notWireItem = (input: unknown, ast: SchemaAST.Declaration, options: SchemaAST.ParseOptions): SchemaIssue.Issue => {
  if (!Predicate.isObject(input)) return new SchemaIssue.InvalidType(ast, input, options)
  return new SchemaIssue.Pointer(
    ["id"],
    Object.hasOwn(input, "id") ? new SchemaIssue.InvalidType(Schema.String.ast, input["id"], options) : new SchemaIssue.MissingKey(undefined)
  )
}

/**
 * A schema of items in wire form: JSON objects with a string `id`, each also
 * passed to `check`, which gives the issue of a wrong field. One check per
 * item, not one per member: the items are passed on, not read. A failure
 * says which member is wrong.
 */
export const declareWireItem = (check: (item: unknown) => SchemaIssue.Issue | undefined) =>
  Schema.declareConstructor<WireItem>()(
    [],
    () => (input, ast, options) => {
      if (!isWireItem(input)) return Effect.fail(notWireItem(input, ast, options))
      const issue = check(input)
      return issue === undefined ? Effect.succeed(input) : Effect.fail(issue)
    },
    // No identifier: Schema would name what it expected by the identifier rather than by `expected`.
    { expected: "a JSON object", description: "A JSON object with a string id (an item in wire form)" }
  )

/** The wire form of an operation's items. */
export const wireItemOf = perItemSchema((item: Schema.Top) => declareWireItem(WireCheck.checker(item)))
