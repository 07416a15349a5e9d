/**
 * A source file's text with its `import.meta.url`, `.dirname` and `.filename` written out as the
 * file's own, for a bundle: bundled, a module's import.meta would be the bundle's, and what the
 * orchestrator and the workers find from it (the repository, the worker host, the default corpus,
 * a package's version) would move. Shared by the CLI's bundle (cli/bundle/build.ts) and the
 * workers' (supervisor/bundle-source.ts).
 */
import path from "node:path";
import { pathToFileURL } from "node:url";

const META = /\bimport\.meta\.(url|dirname|filename)\b/g;

export function withOwnImportMeta(file: string, text: string): string {
  return text.replace(META, (_, key: string) =>
    JSON.stringify(key === "url" ? pathToFileURL(file).href : key === "dirname" ? path.dirname(file) : file),
  );
}
