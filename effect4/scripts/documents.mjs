// `npm pack` (through `prepack`): the package carries the repository's
// README.md and LICENSE, which are written once at its root for both
// editions; they are copied here for the tarball and ignored by git.
import { copyFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"

const edition = new URL("..", import.meta.url)
for (const document of ["README.md", "LICENSE"]) {
  await copyFile(fileURLToPath(new URL(`../${document}`, edition)), fileURLToPath(new URL(document, edition)))
}
