// Runs a wasm32-wasip1 program under Node's WASI: node run-wasi.mjs program.wasm
// The program's stdout goes to a temporary file first: Node's WASI writes to a non-blocking pipe
// and fails with EAGAIN on large outputs.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { argv, exit, stdout } from "node:process";
import { WASI } from "node:wasi";

const dir = mkdtempSync(join(tmpdir(), "lockstep-wasi-"));
const file = join(dir, "stdout");
const fd = openSync(file, "w");
const wasi = new WASI({ version: "preview1", args: [argv[2]], env: {}, stdout: fd, returnOnExit: true });
const module = await WebAssembly.compile(readFileSync(argv[2]));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
const code = wasi.start(instance);
closeSync(fd);
stdout.write(readFileSync(file), () => {
  rmSync(dir, { recursive: true, force: true });
  exit(code);
});
