/**
 * The admission the `catalog` command keeps an account's limits with. With
 * `--redis URL` (or `CATALOG_REDIS_URL`) every process given the same Redis
 * shares them, on one host or several. Otherwise the command remembers the
 * start times of its recent requests in a small state file per account, so
 * that two runs one after the other provoke no 429: under
 * `$CATALOG_STATE_DIR`, else `$XDG_STATE_HOME/effect-catalog`, else
 * `~/.local/state/effect-catalog`; beside it, the page sizes that fitted
 * the account's lists after a refusal (`PageSizes`), so that the next run's
 * scans start there. An account is named by a hash of its base
 * URL and key: neither the key nor the hash of it alone is written anywhere.
 *
 * A Redis that fails is said on stderr at its first failure, with the time
 * the command waits for it until at the latest (`RedisAdmission`'s timeout);
 * a request it fails ends with `AdmissionUnavailable` (exit code 9), whose
 * line names Redis's address, never its password, and what to check.
 */
import * as KeyValueStore from "@effect/platform/KeyValueStore"
import * as Path from "@effect/platform/Path"
import type * as FileSystem from "@effect/platform/FileSystem"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { createHash } from "node:crypto"
import { homedir } from "node:os"
import * as Admission from "../../../../common/src/client/Admission.js"
import { AdmissionUnavailable } from "../../../../common/src/client/Errors.js"
import * as PageSizes from "../../../../common/src/client/PageSizes.js"
import { UsageError } from "../CliError.js"
import * as Output from "./Output.js"
import * as Reachability from "./Reachability.js"

/**
 * What the admission of one account is made from.
 */
export interface Options {
  readonly baseUrl: string
  readonly apiKey: Redacted.Redacted<string>
  readonly limits: Admission.Limits
  readonly redisUrl: Option.Option<string>
}

/**
 * The name of an account: a hash of its base URL and key, the same in every
 * process that uses them.
 */
export const accountName = (baseUrl: string, apiKey: Redacted.Redacted<string>): string =>
  createHash("sha256").update(`effect-catalog\n${baseUrl}\n${Redacted.value(apiKey)}`).digest("hex").slice(0, 32)

/** The folder of the command's state files. */
const stateDirectory = Effect.map(Path.Path, (path) => {
  const configured = process.env["CATALOG_STATE_DIR"]
  if (configured !== undefined && configured !== "") return configured
  const xdg = process.env["XDG_STATE_HOME"]
  return path.join(xdg !== undefined && xdg !== "" ? xdg : path.join(homedir(), ".local", "state"), "effect-catalog")
})

/** Whether a URL names a Redis (ioredis reads the rest of it). */
const isRedisUrl = (url: string) => URL.canParse(url) && ["redis:", "rediss:"].includes(new URL(url).protocol)

/** The admission, whose failures of Redis say what to check. */
const withAdvice = (context: Context.Context<Admission.Admission>) => {
  const admission = Context.get(context, Admission.Admission)
  return Context.make(Admission.Admission, {
    ...admission,
    admit: (request) =>
      Effect.mapError(admission.admit(request), (error) => error instanceof AdmissionUnavailable ? Reachability.advised(error) : error)
  })
}

/**
 * The admission of the account and the page sizes that fit its lists:
 * through Redis when a URL is given, else in memory and in the account's
 * state files (in memory alone if the files cannot be used).
 */
export const layer = (
  options: Options
): Layer.Layer<Admission.Admission | PageSizes.PageSizes, UsageError, FileSystem.FileSystem | Path.Path> => {
  const account = accountName(options.baseUrl, options.apiKey)
  return Option.match(options.redisUrl, {
    onSome: (url) =>
      Layer.unwrapEffect(
        Effect.gen(function*() {
          if (!isRedisUrl(url)) return yield* new UsageError({ detail: `--redis: not a redis:// or rediss:// URL` })
          // Loaded only here: the command's other runs never load ioredis.
          const [RedisAdmission, RedisPageSizes] = yield* Effect.tryPromise({
            try: () => Promise.all([import("../../../../common/src/redis/RedisAdmission.js"), import("../../../../common/src/redis/RedisPageSizes.js")]),
            catch: (cause) => new UsageError({ detail: `--redis: ${cause instanceof Error ? cause.message : String(cause)}` })
          })
          return RedisAdmission.layer(options.limits, {
            redis: url,
            prefix: `catalog:${account}:`,
            onOutage: (outage) => Output.stderrLine(Reachability.redisOutageLine(outage))
          }).pipe(Layer.map(withAdvice), Layer.merge(RedisPageSizes.layer({ redis: url, prefix: `catalog:${account}:` })))
        })
      ),
    onNone: () =>
      Layer.unwrapEffect(
        Effect.map(stateDirectory, (directory) => {
          const store = KeyValueStore.layerFileSystem(directory)
          return Layer.merge(
            Admission.layerKeyValueStore(options.limits, account).pipe(
              Layer.provide(store),
              Layer.catchAll(() => Admission.layerMemory(options.limits))
            ),
            PageSizes.layerKeyValueStore(`${account}.page-sizes`).pipe(Layer.provide(store), Layer.catchAll(() => PageSizes.layerMemory))
          )
        })
      )
  })
}
