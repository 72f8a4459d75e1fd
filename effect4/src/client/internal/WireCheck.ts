/**
 * The check of an item passed on in its wire form: that each field has the
 * type the resource's schema gives it on the wire (ids and other strings,
 * counts as integers, booleans, nulls where allowed, decimal strings where
 * exact values are sent as text), without decoding the item into its typed
 * model. It is `Schema.is(Schema.toEncoded(schema))` in meaning, compiled
 * from the encoded AST into plain predicates for the nodes the resources are
 * made of (strings, numbers, booleans, null, undefined, literals, unions,
 * arrays, structs, each with its checks), with Schema's own guard for any
 * other node: about twice as fast as Effect 4's generic guard on the
 * resources (Effect 3's was several times slower), which matters on a path
 * that checks every item of every page. An item it refuses is decoded by
 * Schema itself, for the issue that names the field.
 *
 * For example:
 *
 *   const check = WireCheck.checker(Schema.Struct({ id: Schema.String, offer_count: Schema.Int }))
 *   check({ id: "a", offer_count: 1 }) // undefined
 *   check({ id: "a", offer_count: 2.5 }) // the issue at offer_count: Expected an integer, got 2.5
 *
 * @internal
 */
import { Predicate, Result, Schema, SchemaAST, type SchemaIssue, SchemaParser } from "effect"

/** A compiled guard of one node of a schema. */
type Guard = (input: unknown) => boolean

const parseOptions: SchemaAST.ParseOptions = {}

/** Whether `input`, already of the node's type, passes `check` of the node `ast`. */
const passes = (check: SchemaAST.Check<unknown>, input: unknown, ast: SchemaAST.AST): boolean =>
  check._tag === "Filter" ? check.run(input, ast, parseOptions) === undefined : check.checks.every((inner) => passes(inner, input, ast))

/** The guard of a struct whose members are `signatures`. */
const objectGuard = (signatures: ReadonlyArray<SchemaAST.PropertySignature>): Guard => {
  const fields = signatures.map((signature) => ({
    name: signature.name,
    isOptional: SchemaAST.isOptional(signature.type),
    // A name `Object.prototype` has too (`constructor`) must be read as the item's own member only.
    isInherited: signature.name in Object.prototype,
    guard: compile(signature.type)
  }))
  return (input) => {
    if (!Predicate.isObject(input)) return false
    for (const field of fields) {
      // Asking whether a member is the item's own costs more than reading it: only an undefined one is asked about.
      const value = field.isInherited && !Object.hasOwn(input, field.name) ? undefined : input[field.name]
      const present = value !== undefined || Object.hasOwn(input, field.name)
      if (present ? !field.guard(value) : !field.isOptional) return false
    }
    return true
  }
}

/** The guard of a node without its checks: a plain predicate where the node is one resources are made of, else undefined. */
const plain = (ast: SchemaAST.AST): Guard | undefined => {
  switch (ast._tag) {
    case "String":
      return Predicate.isString
    case "Number":
      return Predicate.isNumber
    case "Boolean":
      return Predicate.isBoolean
    case "Null":
      return Predicate.isNull
    case "Undefined":
      return Predicate.isUndefined
    case "Literal": {
      const literal = ast.literal
      return (input) => input === literal
    }
    case "Union": {
      const members = ast.types.map(compile)
      return (input) => members.some((member) => member(input))
    }
    case "Arrays": {
      const [rest, ...others] = ast.rest
      if (ast.elements.length > 0 || rest === undefined || others.length > 0) return undefined
      const element = compile(rest)
      return (input) => Array.isArray(input) && input.every((value) => element(value))
    }
    case "Objects":
      return ast.indexSignatures.length > 0 ? undefined : objectGuard(ast.propertySignatures)
    default:
      return undefined
  }
}

/** The guard of a node: its plain predicate and its checks, or Schema's own guard. */
const compile = (ast: SchemaAST.AST): Guard => {
  const guard = plain(ast)
  if (guard === undefined) return SchemaParser.is(Schema.make<Schema.Top>(ast))
  const checks = ast.checks
  return checks === undefined ? guard : (input) => guard(input) && checks.every((check) => passes(check, input, ast))
}

/**
 * The check of items of `schema` in their wire form: `undefined` for an
 * item whose fields all have their wire types, or the issue that names the
 * first field that has not (with what came there).
 */
export const checker = (schema: Schema.Top): (item: unknown) => SchemaIssue.Issue | undefined => {
  const encoded = Schema.toEncoded(schema)
  const accepts = compile(encoded.ast)
  const validate = SchemaParser.decodeUnknownResult(encoded, { reportInput: true })
  return (item) => {
    if (accepts(item)) return undefined
    const validated = validate(item)
    return Result.isFailure(validated) ? validated.failure : undefined
  }
}
