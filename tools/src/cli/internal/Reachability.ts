/**
 * What the command says when the service, or the Redis of `--redis`, cannot
 * be reached: at the first failed attempt, at once, that it retries (or
 * waits for Redis) and until when; after the last, one line naming the base
 * URL (or Redis's address, without its password) and what to check. Where
 * waiting cannot help (a host name that does not exist, a certificate that
 * does not verify) nothing is announced: the first failure is the last,
 * and its line says it was not retried.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import { Clock, DateTime, Duration, Effect, Ref } from "effect"
import * as Errors from "../../../../common/src/client/Errors.js"
import * as Retry from "../../../../common/src/client/Retry.js"
import type { Outage } from "../../../../common/src/redis/RedisAdmission.js"
import { Unreachable } from "../CliError.js"
import { plural } from "../../../../rules/src/Words.js"

interface Diagnosis {
  /** What went wrong, for a sentence "… at URL (what)". */
  readonly what: string
  /** What to look at. */
  readonly check: string
}

const baseUrlNames = "CATALOG_BASE_URL (or --base-url)"

/** The host name of a base URL (`catalog.example`), or with its port (`catalog.example:8443`). */
const hostOf = (baseUrl: string, part: "hostname" | "host") => URL.canParse(baseUrl) ? new URL(baseUrl)[part] : baseUrl

/** A transport error's detail without the request it came from: the system's words and code. */
const causeOf = (error: Errors.TransportError) => error.detail.replace(/^Transport error \([^)]*\): /, "")

/** What a transport error of a request to `baseUrl` means for someone at a terminal. */
export const diagnose = (error: Errors.TransportError, baseUrl: string): Diagnosis => {
  const detail = error.detail
  switch (error.reason) {
    case "Timeout":
      return { what: `no answer in time: ${detail}`, check: "the service's health and the network; CATALOG_TIMEOUT sets the time limit" }
    case "Resolution":
      return {
        what: "the host name does not resolve",
        check: `the host name ${hostOf(baseUrl, "hostname")} in ${baseUrlNames}: the resolver says it does not exist`
      }
    case "Certificate":
      return {
        what: `its TLS certificate does not verify: ${causeOf(error)}`,
        check: `the certificate ${hostOf(baseUrl, "host")} presents (its dates, its host names, who signed it), ` +
          "or give Node the CA that signed it: NODE_EXTRA_CA_CERTS=/path/to/ca.pem"
      }
  }
  if (/ECONNREFUSED/.test(detail)) {
    return { what: "connection refused", check: `that the service runs there and that ${baseUrlNames} names it` }
  }
  if (/EAI_AGAIN|getaddrinfo/.test(detail)) {
    return { what: "the resolver did not answer for the host name", check: `DNS and the network, and the host name in ${baseUrlNames}` }
  }
  if (/SSL|TLS|EPROTO/i.test(detail)) {
    return { what: "TLS failed", check: `the scheme of ${baseUrlNames} (https:// or http://) and the server's certificate` }
  }
  return { what: causeOf(error), check: `that the service runs at ${baseUrlNames}, and the network` }
}

/** "06:41:07": the time of day in UTC. */
const clockTime = (millis: number) => DateTime.formatIso(DateTime.unsafeMake(millis)).slice(11, 19)

/**
 * A step of the request path that announces the first retry of a request
 * that could not reach the service, on stderr, at once: what failed, that
 * the command retries, and until when at the latest.
 */
export const announceFirstRetry = (
  baseUrl: string,
  policy: Retry.Policy,
  timeout: Duration.Duration,
  say: (line: string) => Effect.Effect<void>
) =>
  Effect.map(Ref.make(false), (announced) =>
  <E, R>(client: HttpClient.HttpClient.With<E, R>): HttpClient.HttpClient.With<E, R> =>
    policy.retries === 0 ? client : HttpClient.transformResponse(client, (response) =>
      Effect.tapError(response, (error) =>
        error instanceof Errors.TransportError && Retry.isRetryable(error)
          ? Effect.whenEffect(
            Effect.gen(function*() {
              const now = yield* Clock.currentTimeMillis
              // Every attempt of a timed-out request may take the whole time limit again.
              const attempts = error.reason === "Timeout" ? Duration.times(timeout, policy.retries) : Duration.zero
              const until = now + Duration.toMillis(Duration.sum(Retry.longestWait(policy), attempts))
              const { what } = diagnose(error, baseUrl)
              yield* say(
                `catalog: cannot reach ${baseUrl} (${what}); retrying up to ${plural(policy.retries, "time")}, until ${
                  clockTime(until)
                } UTC at the latest (Ctrl-C stops)`
              )
            }),
            Ref.getAndSet(announced, true).pipe(Effect.map((before) => !before))
          )
          : Effect.void)))

/** The last transport error of a request, as the one line that ends the command. */
export const unreachable = (baseUrl: string, policy: Retry.Policy) => (error: Errors.TransportError): Unreachable => {
  const { check, what } = diagnose(error, baseUrl)
  const attempts = Retry.isRetryable(error) ? policy.retries + 1 : 1
  const notRetried = attempts < policy.retries + 1 ? ", not retried: waiting cannot help" : ""
  return new Unreachable({
    detail: `cannot reach ${baseUrl} (${what}) after ${plural(attempts, "attempt")}${notRetried}; check ${check}`
  })
}

const redisUrlNames = "--redis (or CATALOG_REDIS_URL)"

/** What to look at when Redis failed this way. */
const redisCheck: Record<Errors.AdmissionUnavailable["reason"], string> = {
  Connection: `that Redis runs there and that ${redisUrlNames} names it`,
  Authentication: `the password in ${redisUrlNames}, given as redis://:PASSWORD@HOST:PORT`,
  Command: "the Redis server: its log, its memory, and that it is not a read-only replica",
  Timeout: "the Redis server's health and the network"
}

/** The first failure of Redis, said at once: what failed, and until when the command waits for it at the latest. */
export const redisOutageLine = (outage: Outage): string =>
  `catalog: Redis at ${outage.address} failed (${outage.cause}); waiting for it until ${
    clockTime(outage.until.getTime())
  } UTC at the latest (Ctrl-C stops)`

/** A failure of Redis with what to check, for the one line that ends the command. */
export const advised = (error: Errors.AdmissionUnavailable): Errors.AdmissionUnavailable =>
  new Errors.AdmissionUnavailable({ ...error, detail: `${error.detail}; check ${redisCheck[error.reason]}` })
