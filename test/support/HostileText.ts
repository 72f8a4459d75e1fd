/**
 * A hostile Catalog Service for the stub server (`Stub.ts`): models whose
 * names and specifications hold terminal escape sequences, bare CRs, DEL,
 * C1 controls and bidirectional overrides, models whose names are
 * spreadsheet formulas, and problems whose detail or title would retitle
 * the terminal, clear its screen and turn its text red.
 */
import { wireModel } from "./Fixtures.js"
import * as Stub from "./Stub.js"

/** Sets the window title, clears the screen, turns what follows red (the problem detail). */
export const takeover = "\u001b]0;pwned\u0007\u001b[2J\u001b[31m"

/** Text that makes a terminal act, each a name of a model. */
export const controls: ReadonlyArray<string> = [
  `${takeover}red`,
  "bare\rCR writes over the line",
  "DEL\u007f and NEL\u0085 here",
  "8-bit CSI\u009b2J clears",
  "8-bit OSC\u009d2;pwned\u009c titles",
  "\u001b]8;;http://x.example/\u001b\\a link\u001b]8;;\u001b\\",
  "\u001b[?1049halternate screen",
  "bidi \u202egnp.exe\u202c and \u2066isolated\u2069"
]

/** Cells a spreadsheet would run, each a name of a model. */
export const formulas: ReadonlyArray<string> = [
  "=HYPERLINK(\"http://x\",\"click\")",
  "+1+cmd|' /C calc'!A0",
  "@SUM(1)",
  "-2+3",
  "\tx",
  "\rx"
]

/** The request id of the hostile problems: an 8-bit CSI, as a header may carry it (Latin-1). */
export const requestId = "req_\u009b2J"

/** The models of the hostile service: every control text, then every formula, as names. */
export const models = (baseUrl: string): ReadonlyArray<Record<string, unknown>> => [
  ...controls.map((name, index) => ({
    ...wireModel(baseUrl, "acme", `control-${index}`),
    name,
    specifications: { description: name }
  })),
  ...formulas.map((name, index) => ({ ...wireModel(baseUrl, "acme", `formula-${index}`), name }))
]

/** The model `get model acme ok` reads: an 8-bit CSI and ESC in its name, a bidi override in its specifications. */
export const model = (baseUrl: string): Record<string, unknown> => ({
  ...wireModel(baseUrl, "acme", "ok"),
  name: `8-bit CSI\u009b2J and ${takeover}`,
  specifications: { description: "\u202eevil\u202c" }
})

const problem = (members: Readonly<Record<string, string>>) =>
  Stub.json(404, { type: "about:blank", status: 404, code: "not_found", ...members }, { "x-request-id": requestId })

/**
 * How the hostile service answers: the list of `models`, `model` for
 * `acme/ok`, a 404 whose detail is `takeover` for `acme/missing`, a 404
 * with no detail and a title that switches to the alternate screen for
 * `acme/titled`.
 */
export const respond = (service: Stub.Service) => (request: Stub.Received): Stub.Reply => {
  const path = new URL(request.url, service.origin).pathname
  switch (path) {
    case "/api/v1/models/":
      return Stub.json(200, {
        data: models(service.baseUrl),
        pagination: { limit: 100, has_more: false, next_cursor: null },
        links: { next: null },
        meta: { observed_at: null, stale: null }
      })
    case "/api/v1/models/acme/ok/":
      return Stub.json(200, { data: model(service.baseUrl) })
    case "/api/v1/models/acme/missing/":
      return problem({ title: "Not Found", detail: takeover })
    case "/api/v1/models/acme/titled/":
      return problem({ title: "\u001b[?1049h\u001b]2;pwned\u001b\\" })
    default:
      return problem({ title: "Not Found", detail: `no ${path}` })
  }
}
