// Builds the browser UI into the Python package (src/keima/web/dist/) so that
// `pip install` users need no node. Paths in index.html are relative so the
// server may mount the UI under any prefix.
import { build } from "esbuild";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const outdir = resolve(here, "../src/keima/web/dist");

// Both languages must be complete: a message missing in one (at any depth: the count's and the
// lessons' groups too) fails the build.
const { missingMessages } = await import("./src/i18n.js");
const missing = missingMessages();
if (missing.length) {
  console.error(`messages missing from a language:\n  ${missing.join("\n  ")}`);
  process.exit(1);
}

// Start from an empty folder: stale hashed assets must not ship.
rmSync(outdir, { recursive: true, force: true });
mkdirSync(resolve(outdir, "assets"), { recursive: true });

await build({
  entryPoints: { app: resolve(here, "src/main.jsx") },
  bundle: true,
  outdir: resolve(outdir, "assets"),
  format: "esm",
  target: ["es2020", "chrome100", "firefox100", "safari15"],
  jsx: "automatic",
  jsxImportSource: "preact",
  minify: true,
  sourcemap: false,
  legalComments: "linked",
  loader: { ".png": "file", ".svg": "file" },
  assetNames: "[name]-[hash]",
  logLevel: "warning",
});

const html = readFileSync(resolve(here, "index.html"), "utf8");
writeFileSync(resolve(outdir, "index.html"), html);
cpSync(resolve(here, "public"), outdir, { recursive: true });
console.log(`built the browser UI into ${outdir}`);
