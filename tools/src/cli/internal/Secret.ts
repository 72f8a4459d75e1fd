/**
 * A secret of the command (the API key, the mirror's database address)
 * from the first of its sources that gives one: its flag (`--api-key
 * VALUE`), its file (`--api-key-file PATH`, `-` for standard input), its
 * environment variable (`CATALOG_API_KEY`). The flag and the file together
 * are a usage error; an empty value counts as none. A file holds the secret
 * on one line, its trailing newline dropped; a file that cannot be read,
 * that is empty, that holds more than one line or more than any secret is
 * a usage error naming the file, never what it holds. The file and the
 * environment keep the secret out of the process list, where a flag's
 * value shows while the command starts.
 */
import { isPlatformError } from "@effect/platform/Error"
import * as FileSystem from "@effect/platform/FileSystem"
import * as NodeStream from "@effect/platform-node/NodeStream"
import { Effect, Option, Redacted, Stream } from "effect"
import { UsageError } from "../CliError.js"

/** The most a secret file is read of: a key or an address is far smaller, and a larger file is not one. */
const maxBytes = 64 * 1024

/** Where a secret may come from. */
export interface Sources {
  /** The flag's name without its dashes (`api-key`); the file's flag is `--<flag>-file`. */
  readonly flag: string
  readonly value: Option.Option<Redacted.Redacted<string>>
  readonly file: Option.Option<string>
  /** The environment's value, read only when neither flag is given. */
  readonly environment: Effect.Effect<Option.Option<Redacted.Redacted<string>>, UsageError>
}

/** The path that means standard input. */
export const standardInput = "-"

/** The first bytes of a stream, up to one more than `maxBytes`: enough to know a file holds more than a secret. */
const firstBytes = <E>(source: Stream.Stream<Uint8Array, E>): Effect.Effect<Buffer, E> =>
  source.pipe(
    Stream.runFoldWhile(Buffer.alloc(0), (read) => read.length <= maxBytes, (read, chunk) => Buffer.concat([read, chunk])),
    Effect.map((read) => read.subarray(0, maxBytes + 1))
  )

/** Why a file could not be read, as the system said it (which names the path, never what the file holds). */
const reasonOf = (error: unknown): string =>
  isPlatformError(error)
    ? error._tag === "SystemError" ? error.description ?? error.reason : error.message
    : error instanceof Error
    ? error.message
    : String(error)

/** Reads the secret a file (or standard input) holds. */
const read = (flag: string, path: string): Effect.Effect<Redacted.Redacted<string>, UsageError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const named = `--${flag}-file ${path === standardInput ? "- (standard input)" : path}`
    const refused = (detail: string) => new UsageError({ detail: `${named} ${detail}` })
    const fs = yield* FileSystem.FileSystem
    const bytes = yield* firstBytes(
      path === standardInput
        ? NodeStream.fromReadable(() => process.stdin, reasonOf)
        : Stream.mapError(fs.stream(path, { bytesToRead: maxBytes + 1 }), reasonOf)
    ).pipe(Effect.mapError((reason) => refused(`cannot be read: ${reason}`)))
    if (bytes.length > maxBytes) return yield* refused(`holds more than ${maxBytes / 1024} KiB: not a secret`)
    const text = bytes.toString("utf8").replace(/\r?\n$/, "")
    if (text === "") return yield* refused("is empty")
    if (/[\r\n]/.test(text)) return yield* refused("holds more than one line; the secret goes on one line")
    return Redacted.make(text)
  })

/**
 * The secret of its sources, in their order: the flag, its file, the
 * environment; none when none gives one.
 */
export const chosen = (sources: Sources): Effect.Effect<Option.Option<Redacted.Redacted<string>>, UsageError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    if (Option.isSome(sources.value) && Option.isSome(sources.file)) {
      return yield* new UsageError({ detail: `--${sources.flag} and --${sources.flag}-file do not go together: give one of them` })
    }
    const given = Option.isSome(sources.value)
      ? sources.value
      : Option.isSome(sources.file)
      ? Option.some(yield* read(sources.flag, sources.file.value))
      : yield* sources.environment
    return Option.filter(given, (secret) => Redacted.value(secret) !== "")
  })
