/**
 * Spans as Effect's own tracer makes them, kept for a test to read.
 *
 * @example
 * const spans: Array<Tracer.Span> = []
 * yield* Effect.withTracer(exercise, yield* Tracing.recordingTracer(spans))
 */
import { Cause, Effect, Exit, Tracer } from "effect"
import { inspect } from "node:util"

/** A tracer that records in `spans` every span the tracer in use makes. */
export const recordingTracer = (spans: Array<Tracer.Span>): Effect.Effect<Tracer.Tracer> =>
  Effect.map(Effect.tracer, (base) =>
    Tracer.make({
      span: (options) => {
        const span = base.span(options)
        spans.push(span)
        return span
      },
      context: base.context
    }))

/** The parent span's id, if the parent is a span. */
export const parentOf = (span: Tracer.Span): string | undefined =>
  span.parent._tag === "Some" ? span.parent.value.spanId : undefined

/** Every text a span exports: its name, its attributes, its events and its failure. */
export const textsOf = (span: Tracer.Span): ReadonlyArray<string> => [
  span.name,
  ...Array.from(span.attributes, ([name, value]) => `${name}=${typeof value === "string" ? value : inspect(value, { depth: 10 })}`),
  ...(span.status._tag === "Ended" && Exit.isFailure(span.status.exit) ? [Cause.pretty(span.status.exit.cause)] : [])
]
