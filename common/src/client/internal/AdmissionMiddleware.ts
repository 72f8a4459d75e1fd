/**
 * Admission as a step of the request path: an `HttpClient` middleware that
 * runs each request through `Service.admit`.
 *
 * @internal
 */
import { Function, HttpClient } from "#edition/internal/Edition.js"
import type { Service } from "../Admission.js"
import type { AdmissionUnavailable } from "../Errors.js"

/** Each request of `client`, admitted by `admission` before it is sent and until its answer has been read. */
export const step: {
  (admission: Service): <E, R>(client: HttpClient.HttpClient.With<E, R>) => HttpClient.HttpClient.With<E | AdmissionUnavailable, R>
  <E, R>(client: HttpClient.HttpClient.With<E, R>, admission: Service): HttpClient.HttpClient.With<E | AdmissionUnavailable, R>
} = Function.dual(
  2,
  <E, R>(client: HttpClient.HttpClient.With<E, R>, admission: Service): HttpClient.HttpClient.With<E | AdmissionUnavailable, R> =>
    HttpClient.transform(client, (response) => admission.admit(response))
)
