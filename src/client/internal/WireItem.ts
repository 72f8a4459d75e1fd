/**
 * Items in wire form, as the service sent them: JSON objects with a string
 * `id`, each checked against the wire form of its operation's item schema
 * (`WireCheck`) and passed on unread.
 */
import { ParseResult, Predicate, Schema } from "effect"
import { perItemSchema } from "../../../rules/src/client/SchemaMemo.js"
import * as WireCheck from "./WireCheck.js"

const isWireItem = (input: unknown): input is { readonly id: string } & { readonly [key: string]: unknown } =>
  typeof input === "object" && input !== null && !Array.isArray(input) && "id" in input && typeof input.id === "string"

/** A schema of items in wire form: JSON objects with a string `id`, each also passed to `check`, which gives the issue of a wrong field. */
export const declareWireItem = (check: (item: unknown) => ParseResult.ParseIssue | undefined) =>
  Schema.declare(
    [],
    {
      // One check per item, not one per member: the items are passed on, not read. A failure says which member is wrong.
      decode: () => (input, _, ast) => {
        if (!isWireItem(input)) {
          return ParseResult.fail(
            Predicate.isRecord(input)
              ? new ParseResult.Pointer("id", input, new ParseResult.Type(Schema.String.ast, input["id"]))
              : new ParseResult.Type(ast, input, "Expected a JSON object")
          )
        }
        const issue = check(input)
        return issue === undefined ? ParseResult.succeed(input) : ParseResult.fail(issue)
      },
      encode: () => ParseResult.succeed
    },
    { identifier: "WireItem", description: "a JSON object with a string id" }
  )

/** The wire form of an operation's items. */
export const wireItemOf = perItemSchema((item: Schema.Schema.AnyNoContext) => declareWireItem(WireCheck.checker(item)))
