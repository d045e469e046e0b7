// Boots the page: loads the wasm and starts the app or the embed (per <body data-page>).
import init, { start } from "./lockstep_web.js";

// The TOML module (reads uploaded, pasted and linked scenario files; writes counterexamples) is
// loaded on first use only: most visits never need it. The app calls lockstepToml(fn, ...args).
let toml;
globalThis.lockstepToml = (call, ...args) => {
  toml ??= import("./lockstep_toml.js").then(async (m) => {
    await m.default({ module_or_path: "./lockstep_toml_bg.wasm" });
    return m;
  });
  toml.catch(() => { toml = undefined; });
  return toml.then((m) => m[call](...args));
};

const status = document.getElementById("boot");
try {
  await init({ module_or_path: "./lockstep_web_bg.wasm" });
  if (status) status.remove();
  start(document.body.dataset.page || "app");
} catch (e) {
  if (status) status.textContent = "lockstep could not start in this browser: " + e;
  throw e;
}
