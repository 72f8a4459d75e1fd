/**
 * Text from the service made inert for a terminal. A terminal acts on
 * control characters instead of showing them: ESC and the 8-bit CSI (U+009B)
 * begin every escape sequence (a window title, a cleared screen, colours), a
 * bare CR or a backspace writes over what is shown, DEL and the other C0 and
 * C1 characters do what the terminal makes of them, and the bidirectional
 * embeddings, overrides and isolates reorder what the reader sees. Each of
 * them becomes the placeholder U+FFFD (�): what is left of an escape
 * sequence shows as plain text after it (`�]0;title`), and the terminal does
 * nothing but show it.
 *
 * JSON for a terminal keeps its meaning instead: the same characters become
 * JSON escapes (`\u009b`), so that it is still valid JSON, parses back to
 * the same value, and is inert (`JSON.stringify` escapes C0 but leaves DEL,
 * C1 and the bidirectional controls raw).
 *
 * So `line("\u001b]0;pwned\u0007 ok\r\n")` is `"�]0;pwned� ok  "`,
 * `lines("a\nb\u009b2J")` is `"a\nb�2J"`, and
 * `json('{"name":"b\u009b2J"}')` (the character U+009B raw) is
 * `'{"name":"b\\u009b2J"}'`.
 */

/** What a control character is shown as. */
const placeholder = "\uFFFD"

/**
 * Every character a terminal acts on, but the line feed: C0 (ESC among
 * them), DEL, C1 (the 8-bit CSI, OSC and NEL among them), and the
 * bidirectional embeddings and overrides (U+202A–U+202E) and isolates
 * (U+2066–U+2069).
 */
const control = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g

/** The line breaks and tabs of text shown on one line, where they are spaces. */
const layout = /[\t\n\r]/g

/**
 * Text of several lines for a terminal (CSV): line feeds kept, every other
 * control character the placeholder.
 */
export const lines = (text: string): string => text.replace(control, placeholder)

/**
 * Text shown on one line (a table's cell, a line on stderr): tabs and line
 * breaks become spaces, every other control character the placeholder.
 */
export const line = (text: string): string => lines(text.replace(layout, " "))

/** A character as a JSON escape: `\u001b`. */
const jsonEscape = (character: string) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`

/**
 * JSON text (of `JSON.stringify`, compact or indented) for a terminal: every
 * control character it holds raw, all of them within its strings, becomes
 * its JSON escape. The line feeds of indented JSON are its own and stay.
 */
export const json = (text: string): string => text.replace(control, jsonEscape)
