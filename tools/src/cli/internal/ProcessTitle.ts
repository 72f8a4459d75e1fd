/**
 * The command line as the process list shows it. Every local user can read
 * a process's arguments (`ps`, `/proc/PID/cmdline`), so a secret given as
 * a flag value would stay visible for the whole run: the command rewrites
 * its title at once, before it loads anything else, with each secret as
 * `***` (`catalog get model acme ok --api-key ***`). On Linux, Node writes
 * the title over the memory the arguments were in (all of it: the rest is
 * zeroed, and a longer title is cut to its length), and that memory is what
 * `/proc/PID/cmdline` shows. The value is still visible in the moment the
 * process starts, which the environment and the `--…-file` options avoid.
 */
import { hidden, withoutCredentials } from "../../../../rules/src/Credentials.js"

/** The options whose value is a secret as a whole. */
const secretOptions = ["--api-key"]

/** Whether an argument is an address whose secrets are hidden: `--db`, `--redis`, `--base-url` or an api_url. */
const isAddress = (argument: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(argument)

/** A value as the title shows it. */
const shown = (value: string, secret: boolean): string =>
  secret ? hidden : isAddress(value) ? withoutCredentials(value) ?? hidden : value

/** An argument as the title shows it, given the argument before it (an option whose value may be secret). */
const argumentShown = (argument: string, previous: string | undefined): string => {
  const inline = /^(--[^=]+)=(.*)$/s.exec(argument)
  if (inline !== null) return `${inline[1]}=${shown(inline[2] ?? "", secretOptions.includes(inline[1] ?? ""))}`
  return shown(argument, previous !== undefined && secretOptions.includes(previous))
}

/** The arguments of a command line (`process.argv`, with the node and script paths), every secret in them hidden. */
const argumentsShown = (argv: ReadonlyArray<string>): ReadonlyArray<string> => {
  const args = argv.slice(2)
  return args.map((argument, index) => argumentShown(argument, args[index - 1]))
}

/**
 * The title of a command line (`process.argv`, with the node and script
 * paths): `catalog` and its arguments, every secret in them hidden;
 * `undefined` when they hold no secret, and the title stays as it was. Like
 * all of this module, it loads nothing, so that it runs first.
 */
export const withoutSecrets = (argv: ReadonlyArray<string>): string | undefined => {
  const shownArgs = argumentsShown(argv)
  return shownArgs.every((argument, index) => argument === argv[index + 2]) ? undefined : ["catalog", ...shownArgs].join(" ")
}

/** An argument as a shell reads it back: in single quotes when it holds anything but letters, digits and `@%+=:,./_-`. */
const quoted = (argument: string) => /^[\w@%+=:,./-]+$/.test(argument) ? argument : `'${argument.replaceAll("'", "'\\''")}'`

/**
 * A command line as one would type it again: `catalog` and its arguments,
 * every secret in them hidden, quoted for a shell
 * (`catalog mirror models --db 'postgres://mirror:***@db/catalog'`).
 */
export const commandShown = (argv: ReadonlyArray<string>): string => ["catalog", ...argumentsShown(argv).map(quoted)].join(" ")

/**
 * Sets the process's title to its command line without secrets, when it
 * holds any. Not on Windows, where the title is the console window's and
 * hides nothing.
 */
export const hideSecrets = (argv: ReadonlyArray<string>): void => {
  const title = withoutSecrets(argv)
  if (title !== undefined && process.platform !== "win32") process.title = title
}
