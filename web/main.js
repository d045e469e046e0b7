// Boots the page: loads the wasm and starts the app or the embed (per <body data-page>).
import init, { start } from "./lockstep_web.js";

const status = document.getElementById("boot");
try {
  await init({ module_or_path: "./lockstep_web_bg.wasm" });
  if (status) status.remove();
  start(document.body.dataset.page || "app");
} catch (e) {
  if (status) status.textContent = "lockstep could not start in this browser: " + e;
  throw e;
}
