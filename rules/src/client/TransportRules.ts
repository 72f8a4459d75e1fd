/**
 * What can be sent, and what failed in transit: header-safe text, text that
 * has a UTF-8 form, the headers the HTTP client's spans must not record, and
 * what an HTTP client's failure means (the host name does not exist, the
 * certificate does not verify, the connection failed, the body was cut
 * off). It imports nothing of Effect: both editions' exchanges use it.
 */

/** Characters a header value can carry. */
export const headerSafe = /^[\x21-\x7e]+$/

/** Headers whose values the HTTP client's spans never record. */
export const redactedHeaders: ReadonlyArray<string> = ["authorization", "cookie", "set-cookie", "x-api-key", "x-request-id"]

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/**
 * Why a string cannot go into a URL or a header, or `undefined` when it can.
 * A lone surrogate has no UTF-8 form: `encodeURIComponent` throws on it, and
 * `URL` and `URLSearchParams` silently replace it with U+FFFD, which would
 * send another value than the one given.
 */
export const unencodable = (text: string): string | undefined => {
  const found = loneSurrogate.exec(text)
  if (found === null) return undefined
  const unit = found[0].charCodeAt(0).toString(16).toUpperCase()
  return `holds a lone surrogate (U+${unit}) at index ${found.index}, which has no UTF-8 form and cannot be sent`
}

/**
 * The errors under an HTTP client's error, outermost first: undici's or
 * node:http's own, or fetch's `TypeError` and undici's under it. A chain
 * that loops is cut where it would repeat.
 */
const causesOf = (error: { readonly cause?: unknown }): ReadonlyArray<Error> => {
  const causes: Array<Error> = []
  for (let cause = error.cause; cause instanceof Error && !causes.includes(cause); cause = cause.cause) causes.push(cause)
  return causes
}

/** The system's code of the innermost error that has one (`ENOTFOUND`, `ECONNREFUSED`, `CERT_HAS_EXPIRED`, …). */
const codeOf = (causes: ReadonlyArray<Error>): string | undefined =>
  causes.reduce<string | undefined>((code, cause) => "code" in cause && typeof cause.code === "string" ? cause.code : code, undefined)

/** The resolver says the host name does not exist: asking again cannot help (`EAI_AGAIN`, a resolver that did not answer, may). */
const resolutionCodes: ReadonlySet<string> = new Set(["ENOTFOUND"])

/**
 * The server's certificate does not verify: Node's codes of X.509
 * verification, and a certificate that does not name the host.
 */
const certificateCodes: ReadonlySet<string> = new Set([
  "CERT_CHAIN_TOO_LONG",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_REJECTED",
  "CERT_REVOKED",
  "CERT_SIGNATURE_FAILURE",
  "CERT_UNTRUSTED",
  "CRL_HAS_EXPIRED",
  "CRL_NOT_YET_VALID",
  "CRL_SIGNATURE_FAILURE",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "ERROR_IN_CERT_NOT_AFTER_FIELD",
  "ERROR_IN_CERT_NOT_BEFORE_FIELD",
  "ERROR_IN_CRL_LAST_UPDATE_FIELD",
  "ERROR_IN_CRL_NEXT_UPDATE_FIELD",
  "HOSTNAME_MISMATCH",
  "INVALID_CA",
  "INVALID_PURPOSE",
  "PATH_LENGTH_EXCEEDED",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY",
  "UNABLE_TO_DECRYPT_CERT_SIGNATURE",
  "UNABLE_TO_DECRYPT_CRL_SIGNATURE",
  "UNABLE_TO_GET_CRL",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE"
])

/** Why a request failed in transit (`TransportError.reason`, but `Timeout`, which the deadline tells). */
export type Failure = "Body" | "Resolution" | "Certificate" | "Connection"

/**
 * What an HTTP client's error means in transit: the body was cut off (an
 * error of the response), the host name does not exist, the certificate
 * does not verify, or the connection failed; and what failed, in words:
 * the error's message, the innermost cause's and its code (not scrubbed:
 * the caller scrubs it of the key).
 */
export const failureOf = (
  error: { readonly message: string; readonly cause?: unknown },
  bodyCutOff: boolean
): { readonly reason: Failure; readonly detail: string } => {
  const causes = causesOf(error)
  const code = codeOf(causes)
  const innermost = causes.at(-1)
  const cause = innermost === undefined ? "" : `: ${innermost.message}`
  const detail = `${error.message}${cause}${code === undefined || cause.includes(code) ? "" : ` [${code}]`}`
  const reason: Failure = bodyCutOff
    ? "Body"
    : code !== undefined && resolutionCodes.has(code)
    ? "Resolution"
    : code !== undefined && certificateCodes.has(code)
    ? "Certificate"
    : "Connection"
  return { reason, detail }
}
