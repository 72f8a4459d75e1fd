/**
 * How one string names the resource an operation's path is about, and the
 * path parameters it holds, as plain rules: a model's id
 * `o0000-falcon/m0000000-kestrel-8b` holds `organization` and `model`; a
 * Skill's id holds its source and slug (`owner/repository/skill` on GitHub,
 * `domain/skill` for a well-known source, whose path has the literal segment
 * `_`); an MCP server's `namespace/name`; an offer's, a family's or a
 * provider's id, a topic's id (its slug), an organization's or an article's
 * slug is the one parameter itself.
 *
 * Imports nothing of Effect: the operations table
 * (rules/src/contract/OperationTable.ts) names these rules, and
 * `Operations` (common/src/contract/Operations.ts) gives each as its public
 * `Key`, whose `parse` answers with the edition's own `Either` or `Result`.
 */

/**
 * What the string of a key is: the resource's own `id`, exactly as the
 * service returns it, or a `slug` that is not its id (an organization's, an
 * article's).
 */
export type KeyBy = "id" | "slug"

/** What a key's parse gives: the path parameters, or why the string holds none. */
export type Parsed<Parameters> =
  | { readonly _tag: "Parsed"; readonly parameters: Parameters }
  | { readonly _tag: "Refused"; readonly reason: string }

/** One rule of a key: what the string is, its forms, and how it is read. */
export interface KeyRule<Name extends string = string, By extends KeyBy = KeyBy> {
  readonly by: By
  /** The forms the string takes, for messages: `<organization>/<model>`. */
  readonly form: string
  /** The path parameters the string holds, or why it holds none (the string itself is not repeated). */
  readonly parse: (text: string) => Parsed<{ readonly [N in Name]: string }>
}

const parsed = <Parameters>(parameters: Parameters): Parsed<Parameters> => ({ _tag: "Parsed", parameters })
const refused = (reason: string): Parsed<never> => ({ _tag: "Refused", reason })

/** Every name of `names` is a member of `record`. */
const holdsAll = <const Names extends ReadonlyArray<string>>(
  names: Names,
  record: Readonly<Record<string, string>>
): record is { readonly [N in Names[number]]: string } => names.every((name) => typeof record[name] === "string")

/** The parameters `names` from `values`, one for one. */
const zip = <const Names extends ReadonlyArray<string>>(
  names: Names,
  values: ReadonlyArray<string>
): Parsed<{ readonly [N in Names[number]]: string }> => {
  const record = Object.fromEntries(names.map((name, index) => [name, values[index] ?? ""]))
  return holdsAll(names, record) ? parsed(record) : refused(`it does not hold ${names.join(", ")}`)
}

const formOf = (names: ReadonlyArray<string>) => names.map((name) => `<${name}>`).join("/")

/** Segments of `text` between slashes: exactly `count`, none empty. */
const segments = (text: string, count: number, form: string): Parsed<ReadonlyArray<string>> => {
  const parts = text.split("/")
  if (parts.some((part) => part === "")) return refused(`must have the form ${form}; one of its parts is empty`)
  return parts.length === count
    ? parsed(parts)
    : refused(`must have the form ${form}; it has ${parts.length} part${parts.length === 1 ? "" : "s"}`)
}

/** A key that is the operation's one path parameter itself. */
const keyOne = <const Name extends string, const By extends KeyBy>(name: Name, by: By): KeyRule<Name, By> => ({
  by,
  form: `<${name}>`,
  parse: (text) => zip([name], [text])
})

/** A key that is the path parameters `names`, joined by slashes. */
const keyJoined = <const Names extends ReadonlyArray<string>>(names: Names): KeyRule<Names[number], "id"> => {
  const form = formOf(names)
  return {
    by: "id",
    form,
    parse: (text) => {
      const parts = segments(text, names.length, form)
      return parts._tag === "Refused" ? parts : zip(names, parts.parameters)
    }
  }
}

const github = ["owner", "repository", "skill"] as const
const wellKnown = ["domain", "skill"] as const
const skillForm = `${formOf(github)} or ${formOf(wellKnown)}`

/**
 * A Skill's id: `owner/repository/skill` for a GitHub source, `domain/skill`
 * for a well-known one, whose path takes the literal `_` as its repository.
 */
const skill: KeyRule<"sourceType" | "owner" | "repository" | "skill", "id"> = {
  by: "id",
  form: skillForm,
  parse: (text) => {
    const onGithub = text.split("/").length === github.length
    const parts = segments(text, onGithub ? github.length : wellKnown.length, skillForm)
    if (parts._tag === "Refused") return parts
    const [owner = "", second = "", third = ""] = parts.parameters
    return onGithub
      ? parsed({ sourceType: "github", owner, repository: second, skill: third })
      : parsed({ sourceType: "well-known", owner, repository: "_", skill: second })
  }
}

/** The keys of the table, by the resources they name. */
export const keys = {
  /** A model's id: `organization/model`. */
  model: keyJoined(["organization", "model"]),
  /** An MCP server's id: `namespace/name`. */
  mcp: keyJoined(["namespace", "name"]),
  /** An offer's, a family's or a provider's id. */
  id: keyOne("id", "id"),
  /** An organization's or an article's slug (not its id). */
  slug: keyOne("slug", "slug"),
  /** A topic's id, which is its slug. */
  topic: keyOne("slug", "id"),
  skill
}
