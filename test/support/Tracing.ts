/**
 * Spans as Effect's own tracer makes them, kept for a test to read.
 *
 * @example
 * const spans: Array<Tracer.Span> = []
 * yield* Effect.withTracer(exercise, yield* Tracing.recordingTracer(spans))
 */
import { Effect, Tracer } from "effect"

/** A tracer that records in `spans` every span the native tracer makes. */
export const recordingTracer = (spans: Array<Tracer.Span>) =>
  Effect.map(Effect.tracer, (base) =>
    Tracer.make({
      span: (name, parent, context, links, startTime, kind, options) => {
        const span = base.span(name, parent, context, links, startTime, kind, options)
        spans.push(span)
        return span
      },
      context: (f, fiber) => base.context(f, fiber)
    }))
