// Step-time benchmark (not a test): real key presses (Playwright's keyboard, at a presenter's pace)
// on the largest catalogue runs, in normal and presenter mode, each measured two ways:
// - key to commit: from the keydown (a performance mark in a capturing listener) to the end of
//   the first compositor commit after the next paint, on the page's main thread, from a Chromium
//   trace, with the main thread's time split into JavaScript (wasm included; the layout a script
//   forces is counted there too), style, layout, pre-paint, paint, layerize and commit;
// - key to next paint: the Event Timing API's duration of the keydown (what INP reports: input
//   to the frame presented, raster and compositing included; rounded to 8 ms by the browser).
// Medians are printed. `node tests/bench-step.mjs` in web/ after `cargo xtask web build`;
// DIST=dir measures another build (to compare before and after), N=steps per case (default 15),
// CASES=id@step,... picks the runs. The machine this runs on is shared: compare builds
// back to back, not with figures taken at another time.
import { serve, launch, guardedPage, ready } from "./harness.mjs";

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const N = Number(process.env.N || 15);
const cases = (process.env.CASES || "redlock-split-votes@200,redlock-delayed-restart@700")
  .split(",").map((c) => c.split("@")).map(([id, step]) => [id, Number(step)]);

async function bench(browser, base, id, step, presenter) {
  const page = await guardedPage(browser);
  await page.addInitScript(() => {
    document.addEventListener("keydown", () => performance.mark("bench:key"), { capture: true });
    window.__keyPaint = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === "keydown") window.__keyPaint.push(e.duration);
    }).observe({ type: "event", durationThreshold: 0 });
  });
  await page.goto(`${base}index.html#scenario=${id}&step=${step}${presenter ? "&present=1" : ""}`);
  await ready(page);
  await page.waitForTimeout(1000);
  await page.locator(".timeline-scroller").focus();
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on("Tracing.dataCollected", (d) => events.push(...d.value));
  const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
  await cdp.send("Tracing.start", {
    categories: "devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing",
    transferMode: "ReportEvents",
  });
  for (let i = 0; i < N; i++) {
    await page.keyboard.press("ArrowRight");
    // A presenter's pace: the page has computed the next step's frame ahead by then.
    await page.waitForTimeout(400);
  }
  await cdp.send("Tracing.end");
  await done;
  const keyPaint = await page.evaluate(() => window.__keyPaint);
  await page.closeAll();
  // The renderer's main thread: the one that runs the style updates.
  const counts = new Map();
  for (const e of events) if (e.name === "UpdateLayoutTree") counts.set(e.tid, (counts.get(e.tid) || 0) + 1);
  const tid = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  const main = events.filter((e) => e.tid === tid && e.ph === "X").sort((a, b) => a.ts - b.ts);
  const keys = events.filter((e) => e.name === "bench:key").map((e) => e.ts).sort((a, b) => a - b);
  const rows = [];
  for (const k of keys) {
    const paint = main.find((e) => e.ts > k && e.name === "Paint");
    const commit = paint && main.find((e) => e.ts > paint.ts && e.name === "Commit");
    if (!commit) continue;
    const end = commit.ts + commit.dur;
    const sum = (name) => main.filter((e) => e.name === name && e.ts >= k - 2000 && e.ts < end)
      .reduce((s, e) => s + e.dur, 0) / 1000;
    rows.push({
      "key to commit": (end - k) / 1000, js: sum("FunctionCall"), style: sum("UpdateLayoutTree"),
      layout: sum("Layout"), prepaint: sum("PrePaint"), paint: sum("Paint"), layerize: sum("Layerize"),
      commit: sum("Commit"),
    });
  }
  const cols = Object.keys(rows[0] ?? {});
  return `${id} step ${step}${presenter ? " presenter" : ""} (${rows.length} steps): `
    + cols.map((c) => `${c} ${median(rows.map((r) => r[c])).toFixed(1)}`).join(", ")
    + ` ms; key to next paint ${median(keyPaint)} ms`;
}

const { server, base } = await serve();
const browser = await launch();
for (const [id, step] of cases) {
  for (const presenter of [false, true]) console.log(await bench(browser, base, id, step, presenter));
}
await browser.close();
server.close();
