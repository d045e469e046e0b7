// Measurements (printed, and written to test-results/measure.json): the wasm's size raw and
// gzipped, navigation to the first drawn timeline, one step on the largest catalogue scenario,
// and lockstep-render in wasm on the mermaid bench's side inputs.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { guardedPage, ready, distDir, outDir, webDir } from "./harness.mjs";

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function measure(browser, base) {
  const out = {};
  const wasm = fs.readFileSync(path.join(distDir, "lockstep_web_bg.wasm"));
  const js = fs.readFileSync(path.join(distDir, "lockstep_web.js"));
  out.wasm_bytes = wasm.length;
  out.wasm_gzip_bytes = zlib.gzipSync(wasm, { level: 9 }).length;
  out.js_gzip_bytes = zlib.gzipSync(js, { level: 9 }).length;

  const page = await guardedPage(browser);
  // Navigation to the first drawn timeline (the app marks each drawing), 5 fresh loads.
  const loads = [];
  for (let i = 0; i < 5; i++) {
    await page.goto(`${base}index.html?load=${i}#scenario=fenced-gc-pause&step=end`);
    await ready(page);
    loads.push(await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() =>
      resolve(performance.getEntriesByName("lockstep:drawn").find((e) => e.startTime > 0)?.startTime ?? NaN)))));
  }
  out.first_timeline_ms = loads;

  // One step on the largest catalogue scenario, 20 times, Right and Left in turn, pressed as a
  // user presses them (trusted key events), two figures each:
  // - the page's work: key press to the start of the frame that shows the step (the picture's
  //   title names it, seen by a MutationObserver the moment it changes, then the next frame
  //   callback, which runs after the app's own follow-the-step callback);
  // - key press to the next paint, as the browser itself reports it (the Event Timing API, the
  //   figure behind INP, in 8 ms steps): the page's work plus style, layout, paint and this
  //   machine's software compositing. The same figure for a key the app ignores (X), on the
  //   same page, is the floor under it: 16 to 24 ms in headless Chromium here (session 32).
  const ids = ["naive-happy-path"];
  await page.goto(`${base}index.html`);
  await page.waitForSelector(".picker");
  ids.push(...(await page.locator(".scenario").evaluateAll((els) => els.map((e) => e.dataset.id))));
  const sizes = await page.evaluate(async (ids) => {
    const m = await import("./lockstep_web.js");
    return ids.map((id) => [id, JSON.parse(m.trace_json(id)).events.length]);
  }, ids);
  const [largest, events] = sizes.sort((a, b) => b[1] - a[1])[0];
  await page.goto(`${base}index.html#scenario=${largest}&step=${Math.floor(events / 2)}`);
  await ready(page);
  await page.evaluate(() => {
    window.__paints = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === "keydown") window.__paints.push(e.duration);
    }).observe({ type: "event", durationThreshold: 16 });
  });
  const steps = [];
  const compute = [];
  for (let i = 0; i < 20; i++) {
    const key = i % 2 ? "ArrowLeft" : "ArrowRight";
    const seen = page.evaluate(() => new Promise((resolve) => {
      const title = document.querySelector("#ls-title");
      const watch = new MutationObserver(() => {
        watch.disconnect();
        requestAnimationFrame(() => resolve(performance.now()));
      });
      watch.observe(title, { childList: true, characterData: true, subtree: true });
      window.__pressed = null;
      document.addEventListener("keydown", (e) => { window.__pressed = e.timeStamp; }, { once: true, capture: true });
    }));
    await page.waitForTimeout(20);
    await page.keyboard.press(key);
    const shown = await seen;
    steps.push(shown - (await page.evaluate(() => window.__pressed)));
    compute.push(Number(await page.locator(".app").getAttribute("data-render-ms")));
    // A presenter's pace (a clicker press every fifth of a second at most), not a held key.
    await page.waitForTimeout(200);
  }
  // A press whose next paint came within 16 ms is not reported (the API's floor): counted as 16.
  const reported = await page.evaluate(() => window.__paints.splice(0));
  const paints = [...reported, ...Array(Math.max(0, 20 - reported.length)).fill(16)];
  for (let i = 0; i < 10; i++) {
    await page.keyboard.press("x");
    await page.waitForTimeout(200);
  }
  const ignored = await page.evaluate(() => window.__paints.splice(0));
  const floor = [...ignored, ...Array(Math.max(0, 10 - ignored.length)).fill(16)];
  out.step = { scenario: largest, events, key_to_frame_start_ms: steps, key_to_next_paint_ms: paints, ignored_key_to_next_paint_ms: floor, layout_and_svg_ms: compute };

  // lockstep-render in wasm on the mermaid bench's runs (simulate + layout + SVG), 1 warm-up + 5.
  // The shared bench sits beside the checkout (../shared from the repository), wherever that is.
  const sideDir = process.env.SIDE_INPUTS || [1, 2, 3, 4]
    .map((up) => path.join(webDir, ...Array(up).fill(".."), "shared", "bench", "mermaid-bench", "side-inputs"))
    .find((dir) => fs.existsSync(dir)) || "";
  const side = fs.existsSync(sideDir) ? fs.readdirSync(sideDir).filter((f) => f.endsWith(".toml")).sort() : [];
  out.side = {};
  for (const f of side) {
    const toml = fs.readFileSync(path.join(sideDir, f), "utf8");
    out.side[f] = await page.evaluate(async (toml) => {
      const m = await import("./lockstep_web.js");
      // The TOML module reads the file (as the page does an upload), the main module runs and draws it.
      const t = await import("./lockstep_toml.js");
      await t.default({ module_or_path: "./lockstep_toml_bg.wasm" });
      // Every message drawn, as mermaid draws the run's export (unfolded), and as the app and
      // `lockstep render` show it (alike retries folded into a line).
      const time = (unfold) => {
        const times = [];
        let bytes = 0;
        for (let i = 0; i < 6; i++) {
          const t0 = performance.now();
          bytes = m.timeline_svg(t.read("scenario.toml", toml), false, unfold).length;
          if (i > 0) times.push(performance.now() - t0);
        }
        return { times, bytes };
      };
      return { unfolded: time(true), folded: time(false) };
    }, toml);
  }
  await page.closeAll();

  console.log("\nmeasurements (a shared, loaded 2-core machine):");
  console.log(`  wasm: ${out.wasm_bytes} bytes raw, ${out.wasm_gzip_bytes} gzipped (JS glue ${out.js_gzip_bytes} gzipped)`);
  console.log(`  navigation to the first drawn timeline: median ${median(loads).toFixed(1)} ms of ${loads.map((x) => x.toFixed(0)).join(", ")}`);
  console.log(`  one step on ${largest} (${events} events): key to the frame's start median ${median(steps).toFixed(1)} ms, key to next paint (Event Timing) median ${median(paints)} ms (a key the app ignores: ${median(floor) <= 16 ? "16 or less" : `${median(floor)} ms`}), layout+SVG median ${median(compute).toFixed(1)} ms`);
  for (const [f, r] of Object.entries(out.side)) {
    console.log(`  ${f}: simulate+layout+SVG in wasm median ${median(r.unfolded.times).toFixed(1)} ms every message drawn (${r.unfolded.bytes} bytes of SVG), ${median(r.folded.times).toFixed(1)} ms retries folded (${r.folded.bytes} bytes)`);
  }
  fs.writeFileSync(path.join(outDir, "measure.json"), JSON.stringify(out, null, 2));
  return out;
}
