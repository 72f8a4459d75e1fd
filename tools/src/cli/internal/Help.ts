/**
 * The help of the `catalog` command, within 80 columns and without colours:
 * `catalog --help` (the subcommands, the options every run takes, the exit
 * codes) and `catalog help <subcommand>` or `catalog <subcommand> --help`
 * (usage, arguments, options, the subcommand's own sections such as its
 * operations, and examples). Descriptions and options are read from the
 * `@effect/cli` commands themselves; a `Guide` adds the examples.
 */
import * as CliConfig from "@effect/cli/CliConfig"
import * as Descriptor from "@effect/cli/CommandDescriptor"
import type * as HelpDoc from "@effect/cli/HelpDoc"
import type * as Span from "@effect/cli/HelpDoc/Span"
import type * as Usage from "@effect/cli/Usage"
import { Duration, Option } from "effect"
import * as CatalogConfig from "../../../../common/src/client/CatalogConfig.js"
import * as ExitCodes from "../ExitCodes.js"

/**
 * The columns help is written within.
 */
export const width = 80

/**
 * What the help of a subcommand adds to what its definition says: sections
 * of its own (its operations, say) and examples, each one command line.
 */
export interface Guide {
  readonly sections: ReadonlyArray<{ readonly title: string; readonly lines: ReadonlyArray<string> }>
  readonly examples: ReadonlyArray<string>
}

/**
 * A subcommand (its `descriptor`) with its guide.
 */
export interface Entry {
  readonly command: Descriptor.Command<unknown>
  readonly guide: Guide
  /** Its arguments take options of their own (an operation's filters), which it checks itself. */
  readonly argumentOptions?: boolean
  /** The subcommand it is a subcommand of (`mirror` for `mirror keep`). */
  readonly parent?: string
}

/**
 * Words wrapped within `columns`, every line indented by `indent` spaces
 * and the lines after the first by `hanging` more (a word longer than a
 * line is left whole).
 */
export const wrap = (text: string, indent: number, columns: number = width, hanging: number = 0): ReadonlyArray<string> => {
  const lines: Array<string> = []
  const pad = () => " ".repeat(lines.length === 0 ? indent : indent + hanging)
  let line = ""
  for (const word of text.split(/\s+/).filter((word) => word !== "")) {
    if (line !== "" && pad().length + line.length + 1 + word.length > columns) {
      lines.push(pad() + line)
      line = word
    } else {
      line = line === "" ? word : `${line} ${word}`
    }
  }
  if (line !== "") lines.push(pad() + line)
  return lines
}

/** A term and its description as two columns, the description wrapped under itself (or below a long term). */
const definition = (term: string, description: string, termWidth: number): ReadonlyArray<string> => {
  const indent = 2 + termWidth + 2
  const wrapped = wrap(description, indent)
  if (term.length > termWidth || wrapped.length === 0) return [`  ${term}`, ...wrapped]
  const [first = "", ...rest] = wrapped
  return [`  ${term.padEnd(termWidth)}  ${first.trimStart()}`, ...rest]
}

const spanText = (span: Span.Span): string => {
  switch (span._tag) {
    case "Sequence":
      return spanText(span.left) + spanText(span.right)
    case "Text":
    case "URI":
      return span.value
    default:
      return spanText(span.value)
  }
}

/** Sentences `@effect/cli` adds to every description, which the usage line already says. */
const generated = /^(A user-defined piece of text|An integer\.|A floating point number\.|A true or false value\.|One of the following|A file|A directory|A path|This setting is optional\.$|This argument may be repeated)/

const paragraphs = (doc: HelpDoc.HelpDoc): ReadonlyArray<string> => {
  switch (doc._tag) {
    case "Sequence":
      return [...paragraphs(doc.left), ...paragraphs(doc.right)]
    case "Paragraph":
      return [spanText(doc.value)]
    default:
      return []
  }
}

interface Sections {
  readonly description: ReadonlyArray<string>
  readonly definitions: ReadonlyMap<string, ReadonlyArray<readonly [string, string]>>
}

/** The sections of a command's `@effect/cli` help: its description, and its lists of arguments and options. */
const sectionsOf = (doc: HelpDoc.HelpDoc): Sections => {
  const description: Array<string> = []
  const definitions = new Map<string, Array<readonly [string, string]>>()
  let header = ""
  const visit = (node: HelpDoc.HelpDoc): void => {
    switch (node._tag) {
      case "Sequence":
        visit(node.left)
        visit(node.right)
        return
      case "Header":
        header = spanText(node.value)
        return
      case "Paragraph":
        if (header === "DESCRIPTION") description.push(spanText(node.value))
        return
      case "DescriptionList": {
        const list = definitions.get(header) ?? []
        for (const [term, body] of node.definitions) {
          const text = paragraphs(body).filter((paragraph) => !generated.test(paragraph)).join(" ")
          list.push([spanText(term).replace("This setting is optional. ", ""), text.replace(/This setting is optional\. Defaults to: (.*)$/, "(default: $1)")])
        }
        definitions.set(header, list)
        return
      }
      default:
        return
    }
  }
  visit(doc)
  return { description, definitions }
}

const helpConfig = (builtIns: boolean) => CliConfig.make({ showBuiltIns: builtIns, showTypes: false })

/**
 * The name of a command.
 */
export const nameOf = (command: Entry["command"]): string => [...Descriptor.getNames(command)][0] ?? ""

/**
 * The name of a subcommand as a command line gives it: its parent's name
 * before its own (`mirror keep`).
 */
export const entryName = (entry: Entry): string => entry.parent === undefined ? nameOf(entry.command) : `${entry.parent} ${nameOf(entry.command)}`

/**
 * The subcommand a command line names: its first two words (`mirror keep`),
 * else its first.
 */
export const entryOf = (entries: ReadonlyArray<Entry>, tokens: ReadonlyArray<string | undefined>): Entry | undefined => {
  const [first, second] = tokens
  return entries.find((entry) => entryName(entry) === `${first} ${second}`) ?? entries.find((entry) => entryName(entry) === first)
}

/** The named parts of a usage: options, and arguments (`<name>`). */
const namedIn = (usage: Usage.Usage): ReadonlyArray<Usage.Named> => {
  switch (usage._tag) {
    case "Named":
      return [usage]
    case "Optional":
    case "Repeated":
      return namedIn(usage.usage)
    case "Concat":
    case "Alternation":
      return [...namedIn(usage.left), ...namedIn(usage.right)]
    default:
      return []
  }
}

const optionsIn = (command: Entry["command"]) => namedIn(Descriptor.getUsage(command)).filter(({ names }) => names[0]?.startsWith("-") === true)

const withoutDashes = (name: string) => name.replace(/^-+/, "")

/**
 * The names of a command's options, without their dashes.
 */
export const optionNames = (command: Entry["command"]): ReadonlyArray<string> =>
  optionsIn(command).flatMap(({ names }) => names.map(withoutDashes))

/**
 * The values each option of a command with a fixed choice accepts (such as
 * `--format`), by the option's name without its dashes.
 */
export const choicesOf = (command: Entry["command"]): ReadonlyMap<string, ReadonlyArray<string>> =>
  new Map(optionsIn(command).flatMap(({ acceptedValues, names }) =>
    Option.match(acceptedValues, {
      onNone: () => [],
      onSome: (values) => values.includes(" | ") ? names.map((name) => [withoutDashes(name), values.split(" | ")] as const) : []
    })
  ))

/** The positional part of a usage: `<operationId> <parameter>...`, with `[…]` around what may be left out. */
const positional = (usage: Usage.Usage): string => {
  switch (usage._tag) {
    case "Named":
      return usage.names.every((name) => name.startsWith("<")) ? usage.names.join(" ") : ""
    case "Optional": {
      const inner = positional(usage.usage)
      return inner === "" ? "" : `[${inner}]`
    }
    case "Repeated": {
      const inner = positional(usage.usage)
      return inner === "" ? "" : `${inner}...`
    }
    case "Concat":
    case "Alternation":
      return [positional(usage.left), positional(usage.right)].filter((part) => part !== "").join(" ")
    default:
      return ""
  }
}

const block = (title: string, lines: ReadonlyArray<string>): ReadonlyArray<string> => lines.length === 0 ? [] : ["", `${title}:`, ...lines]

const definitions = (list: ReadonlyArray<readonly [string, string]> | undefined, termWidth: number) =>
  (list ?? []).flatMap(([term, description]) => definition(term, description, termWidth))

const examples = (lines: ReadonlyArray<string>) => block("Examples", lines.flatMap((line) => wrap(line, 2, width, 4)))

/**
 * Every variable of the environment the command reads, with what it is
 * for: the Environment section of `catalog --help`, one line each.
 */
export const environment: ReadonlyArray<readonly [string, string]> = [
  [CatalogConfig.settings.apiKey.variable, "The API key (or --api-key-file, --api-key)"],
  [CatalogConfig.settings.baseUrl.variable, `The base URL, e.g. ${CatalogConfig.exampleBaseUrl}`],
  [CatalogConfig.settings.timeout.variable, `How long a request may take (default "${Duration.toSeconds(CatalogConfig.defaultTimeout)} seconds")`],
  [CatalogConfig.settings.timeScale.variable, "Multiplies the account's windows (--time-scale)"],
  [CatalogConfig.settings.dailyBudget.variable, "Units a run may spend today (--daily-budget)"],
  ["CATALOG_REDIS_URL", "A redis:// URL to share the limits by (--redis)"],
  ["CATALOG_DB_URL", "The mirror's database (--db)"],
  ["CATALOG_STATE_DIR", "The folder of the state files"],
  ["XDG_STATE_HOME", "Its parent when unset (default ~/.local/state)"],
  ["NO_COLOR", "Set and not empty: no colours, even on a terminal"],
  ["COLUMNS", "The width of tables when stdout is no terminal"]
]

/**
 * The usage line of the command: how its subcommands are called.
 */
export const commandUsage = "Usage: catalog <subcommand> [arguments] [options]"

/**
 * The usage line of a subcommand: its arguments, then `[options]`.
 */
export const usageOf = (entry: Entry): string => {
  const args = positional(Descriptor.getUsage(entry.command))
  return `Usage: catalog ${entryName(entry)}${args === "" ? "" : ` ${args}`} [options]`
}

/**
 * What a help document of `@effect/cli` says (such as the reason of a
 * `ValidationError`), as one line of plain text.
 */
export const textOf = (doc: HelpDoc.HelpDoc): string => paragraphs(doc).join(" ").replace(/\s+/g, " ").trim()

/**
 * The help of one subcommand.
 */
export const ofSubcommand = (entry: Entry): string => {
  const { command, guide } = entry
  const sections = sectionsOf(Descriptor.getHelp(command, helpConfig(false)))
  return [
    ...wrap(usageOf(entry), 0),
    "",
    ...sections.description.flatMap((text) => wrap(text, 0)),
    ...block("Arguments", definitions(sections.definitions.get("ARGUMENTS"), 16)),
    ...guide.sections.flatMap((section) => block(section.title, section.lines.flatMap((line) => wrap(line, 2, width, 4)))),
    ...block("Options", definitions(sections.definitions.get("OPTIONS"), 24)),
    ...examples(guide.examples),
    "",
    "Exit codes: catalog --help lists them.",
    ""
  ].join("\n")
}

const firstSentence = (text: string) => text.split(/(?<=\.)\s|: |; /)[0]?.replace(/\.$/, "") ?? text

/**
 * The help of the whole command: its subcommands, the options every run
 * takes, the variables of the environment it reads, and the exit codes.
 */
export const ofCommand = (root: Entry["command"], entries: ReadonlyArray<Entry>, version: string): string => {
  const sections = sectionsOf(Descriptor.getHelp(root, helpConfig(true)))
  const subcommands = entries.map((entry) => {
    const description = sectionsOf(Descriptor.getHelp(entry.command, helpConfig(false))).description[0] ?? ""
    return [entryName(entry), firstSentence(description)] as const
  })
  return [
    `catalog ${version}`,
    "",
    commandUsage,
    "       catalog help <subcommand>",
    "",
    ...sections.description.flatMap((text) => wrap(text, 0)),
    ...block("Subcommands", definitions(subcommands, 14)),
    ...block("Options", definitions(sections.definitions.get("OPTIONS"), 24)),
    ...block("Environment", definitions(environment, 20)),
    ...block("Exit codes", ExitCodes.table.flatMap(({ code, meaning }) => definition(String(code), meaning, 4))),
    ...examples(entries.map(({ guide }) => guide.examples[0] ?? "").filter((line) => line !== "")),
    ""
  ].join("\n")
}
